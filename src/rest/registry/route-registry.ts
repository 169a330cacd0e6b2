import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { ArgSchema } from '../args/arg-schema';
import type { ArgsValidator } from '../args/compile-args';
import { compileEndpointArgs } from '../args/endpoint-args';
import { isPublicPermission } from '../permissions';
import type { EndpointDocsDeclaration } from './endpoint-docs';
import { assertNamespace } from './namespace';
import { parsePathTemplate, type TemplateSegment } from './path-template';
import {
  type EndpointDefinition,
  type EndpointDescriptor,
  HTTP_METHODS,
  type HttpMethod,
  type PermissionCallback,
  type RouteDescriptor,
} from './types';

/** Options of a {@link RouteRegistry}: where its routes live. */
export interface RouteRegistryOptions {
  /** The path prefix of every route, e.g. `/api` (default) or `''`. */
  restRoot?: string;
  /** The namespace of the host's own routes (settings, status), default `commerce/v3`. */
  hostNamespace?: string;
}

/** @internal An endpoint after registration: arguments compiled. */
export interface CompiledEndpoint {
  readonly methods: readonly HttpMethod[];
  readonly handler: (request: import('../http/rest-request').RestRequest) => unknown;
  readonly permission: PermissionCallback;
  readonly args: ArgsValidator;
  readonly argSchemas: Readonly<Record<string, ArgSchema>>;
  readonly isPublic: boolean;
  readonly docs: EndpointDocsDeclaration | undefined;
}

/** @internal A registered route with its compiled endpoints. */
export interface RegisteredRoute {
  readonly namespace: string;
  readonly route: string;
  readonly path: string;
  readonly segments: readonly TemplateSegment[];
  readonly endpoints: CompiledEndpoint[];
  readonly byMethod: Map<string, CompiledEndpoint>;
}

/** The default path prefix of REST routes. */
export const DEFAULT_REST_ROOT = '/api';
/** The default namespace of the host's own routes. */
export const DEFAULT_HOST_NAMESPACE = 'commerce/v3';

const REST_ROOT = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)*$/;

/**
 * Normalises and checks a REST root: `''` or `/segment(/segment)*` (one trailing slash is dropped).
 *
 * @throws {@link Framework_Plugin_Exception} (400)
 */
export function normaliseRestRoot(restRoot: string): string {
  const text = typeof restRoot === 'string' ? restRoot : '\0';
  const root = text === '/' ? '' : text.length > 1 && text.endsWith('/') ? text.slice(0, -1) : text;
  if (!REST_ROOT.test(root) || root.split('/').some((part) => part === '.' || part === '..')) {
    throw new Framework_Plugin_Exception(
      `Invalid restRoot ${JSON.stringify(restRoot)}: use "" or a path such as "/api" (no query, no empty segments)`,
      400,
    );
  }
  return root;
}

function checkDocs(docs: unknown, where: string): EndpointDocsDeclaration | undefined {
  if (docs === undefined || typeof docs === 'function' || (typeof docs === 'object' && docs !== null)) {
    return docs as EndpointDocsDeclaration | undefined;
  }
  throw new Framework_Plugin_Exception(`${where}: "docs" must be an object or a function`, 400);
}

function describeEndpointWhere(namespace: string, path: string, methods: readonly string[]): string {
  return `Route ${namespace} ${path} ${methods.join(',')}`;
}

/**
 * The routes of a REST server. Plugins register their endpoints here (through
 * `Framework_REST_API.registerRoutes`); the server compiles them into its matcher once, when
 * it is created.
 *
 * Registration checks everything it can: the namespace form `<slug>/v<N>`, the path form
 * (`{name}` parameters as whole segments), the methods, a `permission` callback on every
 * endpoint (deny by default), and every argument schema and default, which are compiled into
 * checks right here, once (the code that runs them is generated on a route's first request).
 *
 * @example
 * ```ts
 * routes.register('acme/v1', '/items/{id}', {
 *   methods: 'GET',
 *   permission: requireCapability('read_items'),
 *   args: { id: { type: 'integer', required: true } },
 *   handler: (request) => repository.get(request.get('id') as number),
 * });
 * ```
 */
export class RouteRegistry {
  readonly #restRoot: string;
  readonly #hostNamespace: string;
  readonly #routes = new Map<string, RegisteredRoute>();
  #sealed = false;

  /** @param options - the REST root and the host namespace (defaults `/api`, `commerce/v3`) */
  constructor(options: RouteRegistryOptions = {}) {
    this.#restRoot = normaliseRestRoot(options.restRoot ?? DEFAULT_REST_ROOT);
    const hostNamespace = options.hostNamespace ?? DEFAULT_HOST_NAMESPACE;
    assertNamespace(hostNamespace);
    this.#hostNamespace = hostNamespace;
  }

  /** The path prefix of every route, e.g. `/api`. */
  getRestRoot(): string {
    return this.#restRoot;
  }

  /** The namespace of the host's own routes (settings, system status), e.g. `commerce/v3`. */
  getHostNamespace(): string {
    return this.#hostNamespace;
  }

  /**
   * Registers one route (`namespace` + `path`) with one or more endpoints. Registering the same
   * route again adds endpoints to it; a method may be answered by one endpoint only.
   *
   * @throws {@link Framework_Plugin_Exception} (400) for an invalid namespace or path, an
   *   unknown or repeated method, a missing handler or permission callback, or a malformed
   *   argument schema or default; nothing is registered then
   */
  register<const A extends Readonly<Record<string, ArgSchema>>, const P extends string>(
    namespace: string,
    path: P,
    endpoint: EndpointDefinition<A, P>,
  ): void;
  register(
    namespace: string,
    path: string,
    endpoints: EndpointDefinition | readonly EndpointDefinition[],
  ): void;
  register(
    namespace: string,
    path: string,
    endpoints: EndpointDefinition | readonly EndpointDefinition[],
  ): void {
    if (this.#sealed) {
      throw new Framework_Plugin_Exception(
        `Route ${namespace} ${path}: the registry is sealed; register routes in registerRoutes, before the server starts`,
        400,
      );
    }
    assertNamespace(namespace);
    const segments = parsePathTemplate(path, `Route ${namespace}`);
    const list = (Array.isArray(endpoints) ? endpoints : [endpoints]) as readonly EndpointDefinition[];
    if (list.length === 0)
      throw new Framework_Plugin_Exception(`Route ${namespace} ${path}: no endpoints given`, 400);

    const fullPath = `${this.#restRoot}/${namespace}${path}`;
    const existing = this.#routes.get(fullPath);
    const taken = new Set<string>(existing ? existing.byMethod.keys() : []);
    const compiled = list.map((endpoint) => {
      const methods = this.#checkMethods(endpoint, namespace, path, taken);
      const where = describeEndpointWhere(namespace, path, methods);
      if (typeof endpoint.handler !== 'function') {
        throw new Framework_Plugin_Exception(`${where}: "handler" must be a function`, 400);
      }
      if (typeof endpoint.permission !== 'function') {
        throw new Framework_Plugin_Exception(
          `${where}: "permission" is required: every endpoint must say who may call it ` +
            '(requireCapability(…), requireManagement(), or allowPublic() for a public endpoint)',
          400,
        );
      }
      const argSchemas = Object.freeze({ ...(endpoint.args ?? {}) });
      const args = compileEndpointArgs(endpoint.args === undefined ? argSchemas : endpoint.args, where);
      return {
        methods,
        handler: endpoint.handler.bind(endpoint),
        permission: endpoint.permission.bind(endpoint),
        args,
        argSchemas,
        isPublic: isPublicPermission(endpoint.permission),
        docs: checkDocs(endpoint.docs, where),
      } satisfies CompiledEndpoint;
    });

    const route: RegisteredRoute = existing ?? {
      namespace,
      route: path,
      path: fullPath,
      segments,
      endpoints: [],
      byMethod: new Map(),
    };
    for (const endpoint of compiled) {
      route.endpoints.push(endpoint);
      for (const method of endpoint.methods) route.byMethod.set(method, endpoint);
    }
    if (!existing) this.#routes.set(fullPath, route);
  }

  /** Every registered route: full path, namespace, route, methods and arguments. */
  getRoutes(): readonly RouteDescriptor[] {
    return [...this.#routes.values()].map(describeRoute);
  }

  /** The namespaces that have routes, in registration order. */
  getNamespaces(): readonly string[] {
    return [...new Set([...this.#routes.values()].map((route) => route.namespace))];
  }

  /** @internal The registered routes, for the server's matcher. */
  entries(): readonly RegisteredRoute[] {
    return [...this.#routes.values()];
  }

  /** @internal Refuses further registrations (the server compiled its matcher). */
  seal(): void {
    this.#sealed = true;
  }

  #checkMethods(
    endpoint: EndpointDefinition,
    namespace: string,
    path: string,
    taken: Set<string>,
  ): HttpMethod[] {
    const where = `Route ${namespace} ${path}`;
    if (typeof endpoint !== 'object' || endpoint === null) {
      throw new Framework_Plugin_Exception(`${where}: each endpoint must be an object`, 400);
    }
    const raw = endpoint.methods;
    const methods = (typeof raw === 'string' ? [raw] : Array.isArray(raw) ? [...raw] : []) as string[];
    if (methods.length === 0) {
      throw new Framework_Plugin_Exception(
        `${where}: "methods" must name one or more of ${HTTP_METHODS.join(', ')}`,
        400,
      );
    }
    for (const method of methods) {
      if (!HTTP_METHODS.includes(method as HttpMethod)) {
        throw new Framework_Plugin_Exception(
          `${where}: unknown method ${JSON.stringify(method)}; use ${HTTP_METHODS.join(', ')} (HEAD and OPTIONS are automatic)`,
          400,
        );
      }
      if (taken.has(method))
        throw new Framework_Plugin_Exception(`${where}: method ${method} is registered twice`, 400);
      taken.add(method);
    }
    return methods as HttpMethod[];
  }
}

/** @internal The public description of a registered route (for `getRoutes` and the server's matcher). */
export function describeRoute(route: RegisteredRoute): RouteDescriptor {
  const args: Record<string, ArgSchema> = {};
  const endpoints: EndpointDescriptor[] = [];
  for (const endpoint of route.endpoints) {
    for (const [name, schema] of Object.entries(endpoint.argSchemas))
      if (!Object.hasOwn(args, name)) args[name] = schema;
    endpoints.push({
      methods: [...endpoint.methods],
      args: endpoint.argSchemas,
      isPublic: endpoint.isPublic,
      docs: endpoint.docs,
    });
  }
  return {
    path: route.path,
    namespace: route.namespace,
    route: route.route,
    methods: route.endpoints.flatMap((endpoint) => endpoint.methods),
    args,
    endpoints,
  };
}
