import type { ArgSchema } from '../args/arg-schema';
import type { RestRequest } from '../http/rest-request';
import type { InferParams } from '../typed-routes/infer-params';
import type { EndpointDocsDeclaration } from './endpoint-docs';

/** The methods an endpoint can declare; `HEAD` (served by `GET`) and `OPTIONS` are answered by the server. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The methods an endpoint can declare. */
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Decides whether a request may run an endpoint's handler. */
export type PermissionCallback = (request: RestRequest) => boolean | Promise<boolean>;

/**
 * One endpoint of a route: the methods it answers, who may call it, its arguments and its
 * handler. Registered with its arguments written out (`RouteRegistry.register`, or the
 * `definePlugin` route builder), the handler's `request.params` is typed from them:
 * `{ id: { type: 'integer', required: true } }` gives `params.id: number`.
 *
 * @typeParam A - the arguments, as declared
 * @typeParam P - the route's path template (its `{param}` segments are always present)
 */
export interface EndpointDefinition<
  A extends Readonly<Record<string, ArgSchema>> = Record<string, ArgSchema>,
  P extends string = string,
> {
  /** One method or several. */
  methods: HttpMethod | readonly HttpMethod[];
  /**
   * Answers the request: a plain value is sent as 200 JSON; a `RestResponse` chooses status and
   * headers; a thrown `RestError` is sent as that error.
   */
  handler(request: RestRequest<InferParams<A, P>>): unknown;
  /**
   * REQUIRED: whether the request may run the handler (false: 401 without a user, 403 with
   * one). Registering an endpoint without it throws; use `allowPublic()` for public endpoints.
   */
  permission(request: RestRequest): boolean | Promise<boolean>;
  /** The endpoint's arguments, by name. */
  args?: A;
  /**
   * What the OpenAPI document says about the endpoint beyond its arguments: its answers
   * (schema, status, headers), its own errors, request headers, concrete paths. Plain data,
   * or a function called when the document is generated.
   *
   * @example
   * ```ts
   * docs: {
   *   summary: 'Get one item',
   *   responses: [{ status: 200, description: 'The item.', schema: { type: 'object', properties: { id: { type: 'integer' } } } }],
   *   errors: [{ status: 404, body: 'message', description: 'No such item.' }],
   * }
   * ```
   */
  docs?: EndpointDocsDeclaration;
}

/** A registered route, as `getRoutes()` describes it. */
export interface RouteDescriptor {
  /** The full path, e.g. `/api/acme/v1/items/{id}`. */
  readonly path: string;
  /** The namespace, e.g. `acme/v1`. */
  readonly namespace: string;
  /** The path inside the namespace, e.g. `/items/{id}`. */
  readonly route: string;
  /** The methods the route answers (HEAD and OPTIONS not listed). */
  readonly methods: readonly string[];
  /** The arguments, union over the route's endpoints (the first endpoint declaring a name wins). */
  readonly args: Readonly<Record<string, ArgSchema>>;
  /** The route's endpoints: each one's methods and arguments. */
  readonly endpoints: readonly EndpointDescriptor[];
}

/** One endpoint of a route, as {@link RouteDescriptor.endpoints} lists it. */
export interface EndpointDescriptor {
  /** The methods of this endpoint. */
  readonly methods: readonly string[];
  /** This endpoint's arguments. */
  readonly args: Readonly<Record<string, ArgSchema>>;
  /** Whether its permission is `allowPublic()`: anyone may call it, no 401 or 403. */
  readonly isPublic: boolean;
  /** Its documentation, as declared on {@link EndpointDefinition.docs}. */
  readonly docs: EndpointDocsDeclaration | undefined;
}
