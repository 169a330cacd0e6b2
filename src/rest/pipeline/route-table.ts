import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { type MatcherSegment, type ParamKind, RouteMatcher } from '../registry/route-matcher';
import { describeRoute, type RegisteredRoute } from '../registry/route-registry';
import type { RouteDescriptor } from '../registry/types';

/** A route ready for dispatch. */
export interface DispatchRoute {
  readonly route: RegisteredRoute;
  readonly paramNames: readonly string[];
  /** The `Allow` header: the route's methods, HEAD when it has GET, and OPTIONS. */
  readonly allow: string;
  /** The OPTIONS answer, as JSON text. */
  readonly optionsBody: string;
}

/** A namespace or root index: a GET-only built-in route with a fixed body. */
export interface IndexRoute {
  readonly body: string;
}

/** The `Allow` header of the indexes. */
export const INDEX_ALLOW = 'GET, HEAD, OPTIONS';

function paramKind(route: RegisteredRoute, name: string): ParamKind {
  let declared = false;
  for (const endpoint of route.endpoints) {
    const schema = endpoint.argSchemas[name];
    if (schema === undefined) continue;
    declared = true;
    const type = schema.type;
    const isInteger =
      type === 'integer' || (Array.isArray(type) && type.length === 1 && type[0] === 'integer');
    if (!isInteger) return 'any';
  }
  return declared ? 'integer' : 'any';
}

function describeEndpoints(route: RouteDescriptor): Record<string, unknown> {
  return {
    namespace: route.namespace,
    methods: route.methods,
    endpoints: route.endpoints.map((endpoint) => ({ methods: endpoint.methods, args: endpoint.args })),
  };
}

function allowHeader(methods: readonly string[]): string {
  const allow = [...methods];
  if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
  allow.push('OPTIONS');
  return allow.join(', ');
}

function shapeOf(segments: readonly MatcherSegment[]): string {
  return segments.map((segment) => ('text' in segment ? segment.text : `{${segment.param}}`)).join('/');
}

/**
 * The route table, compiled once when the server is created (Fastify-style): the segment-trie
 * matcher with each route's `Allow` header and OPTIONS answer, and the namespace and root
 * indexes. Requests only look things up in it.
 */
export class RouteTable {
  /** Full path → route, with the values of its path parameters. */
  readonly matcher = new RouteMatcher<DispatchRoute>();
  /** Index path (`/api`, `/api/acme/v1`) → its answer. */
  readonly indexes = new Map<string, IndexRoute>();

  /**
   * @param routes - the registered routes (the registry is sealed by the caller)
   * @param namespaces - the namespaces, for the indexes
   * @param restRoot - the REST root, e.g. `/api` (`''` for none)
   * @throws {@link Framework_Plugin_Exception} (400) when two routes have the same shape
   */
  constructor(routes: readonly RegisteredRoute[], namespaces: readonly string[], restRoot: string) {
    const rootSegments: MatcherSegment[] =
      restRoot === ''
        ? []
        : restRoot
            .slice(1)
            .split('/')
            .map((text) => ({ text }));
    const shapes = new Map<string, string>();
    for (const route of routes) {
      const segments: MatcherSegment[] = [
        ...rootSegments,
        ...route.namespace.split('/').map((text) => ({ text })),
      ];
      const paramNames: string[] = [];
      for (const segment of route.segments) {
        if (segment.kind === 'static') segments.push({ text: segment.text });
        else {
          paramNames.push(segment.name);
          segments.push({ param: paramKind(route, segment.name) });
        }
      }
      const descriptor = describeRoute(route);
      const dispatchRoute: DispatchRoute = {
        route,
        paramNames,
        allow: allowHeader(descriptor.methods),
        optionsBody: JSON.stringify(describeEndpoints(descriptor)),
      };
      const shape = shapeOf(segments);
      if (!this.matcher.add(segments, dispatchRoute)) {
        throw new Framework_Plugin_Exception(
          `Route ${route.path} has the same shape as ${shapes.get(shape) ?? 'another route'}: ` +
            'no request could tell them apart; rename a segment or merge the routes',
          400,
        );
      }
      shapes.set(shape, route.path);
    }

    const descriptors = routes.map(describeRoute);
    for (const namespace of namespaces) {
      const indexRoutes: Record<string, unknown> = {};
      for (const descriptor of descriptors) {
        if (descriptor.namespace === namespace) indexRoutes[descriptor.path] = describeEndpoints(descriptor);
      }
      this.indexes.set(`${restRoot}/${namespace}`, {
        body: JSON.stringify({ namespace, routes: indexRoutes }),
      });
    }
    this.indexes.set(restRoot === '' ? '/' : restRoot, {
      body: JSON.stringify({
        namespaces,
        routes: Object.fromEntries(
          namespaces.map((namespace) => [`${restRoot}/${namespace}`, { namespace }]),
        ),
      }),
    });
  }
}
