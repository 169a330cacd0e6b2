import type { ArgSchema } from '../args/arg-schema';
import type { RestRequest } from '../http/rest-request';
import type { RestResponse } from '../http/rest-response';
import type { DocSchema, EndpointDocs, HeaderDoc } from '../registry/endpoint-docs';
import type { RouteRegistry } from '../registry/route-registry';
import type { EndpointDefinition, HttpMethod, PermissionCallback } from '../registry/types';
import type { InferParams, ValueOfSchema } from './infer-params';

/** The success answer a route declares: its JSON Schema types the handler's return and documents the route. */
export interface ResponseDeclaration<S> {
  /** The JSON Schema of the success body (declare it inline, or `as const`, for exact types). */
  readonly schema: S;
  /** The success status; default 200. */
  readonly status?: number;
  /** What the answer means; default `Success.` */
  readonly description?: string;
  /** The answer's headers (e.g. `X-Total`, `Location`). */
  readonly headers?: Readonly<Record<string, HeaderDoc>>;
}

/** What a handler may return for a declared body type `R`: the value, a `RestResponse` (status, headers), a `Response`, or a promise of one. */
export type HandlerResult<R> = R | RestResponse | Response | Promise<R | RestResponse | Response>;

/**
 * An endpoint as the route builder takes it: its arguments type `request.params` (see
 * `InferParams`), its declared `response` types the handler's return.
 *
 * @typeParam A - the arguments
 * @typeParam P - the path template
 * @typeParam S - the response schema (`unknown`: none declared)
 */
export interface TypedEndpoint<A extends Readonly<Record<string, ArgSchema>>, P extends string, S> {
  /** The arguments, by name. */
  readonly args?: A;
  /** REQUIRED: who may call the endpoint (`allowPublic()` for anyone). */
  readonly permission: PermissionCallback;
  /** The success answer: its schema types the handler's return and reaches the OpenAPI document. */
  readonly response?: ResponseDeclaration<S>;
  /** More documentation (errors, headers…); `responses` come from `response` when it is given. */
  readonly docs?: EndpointDocs;
  /** Answers the request, its `params` typed from `args` and the path. */
  handler(
    request: RestRequest<InferParams<A, P>>,
  ): HandlerResult<unknown extends S ? unknown : ValueOfSchema<S>>;
}

/**
 * A one-method shortcut of {@link RouteBuilder} (`get`, `post`, `put`, `patch`, `delete`): the
 * path and the endpoint, typed as {@link RouteBuilder.on} types them; answers the builder.
 */
export type MethodShortcut<B> = <
  const P extends string,
  const A extends Readonly<Record<string, ArgSchema>>,
  const S = unknown,
>(
  path: P,
  endpoint: TypedEndpoint<A, P, S>,
) => B;

/**
 * Registers a plugin's routes in one namespace with typed handlers: `r.get(path, endpoint)`,
 * `r.post`, `r.put`, `r.patch`, `r.delete`, or `r.on(methods, path, endpoint)`. Given to
 * `definePlugin`'s `routes(r)`; usable on any `RouteRegistry` too.
 *
 * @example
 * ```ts
 * r.get('/items/{id}', {
 *   args: { id: { type: 'integer', required: true, minimum: 1 } },
 *   permission: allowPublic(),
 *   response: { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
 *   handler: ({ params }) => ({ id: params.id }), // params.id: number; the return is checked
 * });
 * ```
 */
export class RouteBuilder {
  /** The namespace the routes are registered in, e.g. `acme/v1`. */
  readonly namespace: string;
  readonly #registry: RouteRegistry;

  /**
   * @param registry - where the routes go
   * @param namespace - their namespace (`<slug>/v<N>`)
   */
  constructor(registry: RouteRegistry, namespace: string) {
    this.#registry = registry;
    this.namespace = namespace;
  }

  /** A GET endpoint (HEAD and OPTIONS are answered by the server). */
  readonly get: MethodShortcut<this> = (path, endpoint) => this.on('GET', path, endpoint);
  /** A POST endpoint. */
  readonly post: MethodShortcut<this> = (path, endpoint) => this.on('POST', path, endpoint);
  /** A PUT endpoint. */
  readonly put: MethodShortcut<this> = (path, endpoint) => this.on('PUT', path, endpoint);
  /** A PATCH endpoint. */
  readonly patch: MethodShortcut<this> = (path, endpoint) => this.on('PATCH', path, endpoint);
  /** A DELETE endpoint. */
  readonly delete: MethodShortcut<this> = (path, endpoint) => this.on('DELETE', path, endpoint);

  /** An endpoint answering one or several methods (the same path may be given several endpoints, one per method). */
  on<const P extends string, const A extends Readonly<Record<string, ArgSchema>>, const S = unknown>(
    methods: HttpMethod | readonly HttpMethod[],
    path: P,
    endpoint: TypedEndpoint<A, P, S>,
  ): this {
    const { response, docs, args, permission } = endpoint;
    const declared: EndpointDocs | undefined =
      response === undefined
        ? docs
        : {
            ...docs,
            responses: [
              {
                status: response.status ?? 200,
                description: response.description ?? 'Success.',
                schema: response.schema as DocSchema,
                ...(response.headers === undefined ? {} : { headers: response.headers }),
              },
              ...(docs?.responses ?? []),
            ],
          };
    const definition: EndpointDefinition = {
      methods,
      permission,
      ...(args === undefined ? {} : { args }),
      ...(declared === undefined ? {} : { docs: declared }),
      handler: (request) => endpoint.handler(request as RestRequest<InferParams<A, P>>),
    };
    this.#registry.register(this.namespace, path, [definition]);
    return this;
  }
}
