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
  /** The OPTIONS answer, as JSON text (made on first use). */
  readonly optionsBody: string;
}

/** A namespace or root index: a GET-only built-in route with a fixed body. */
export interface IndexRoute {
  /** The index as JSON text (made on first use). */
  readonly body: string;
}

/** A route of the table: its OPTIONS answer serialised when first asked for. */
class TableRoute implements DispatchRoute {
  readonly route: RegisteredRoute;
  readonly paramNames: readonly string[];
  readonly allow: string;
  #optionsBody: string | undefined;

  constructor(route: RegisteredRoute, paramNames: readonly string[]) {
    this.route = route;
    this.paramNames = paramNames;
    this.allow = allowHeader(route.endpoints.flatMap((endpoint) => endpoint.methods));
  }

  get optionsBody(): string {
    this.#optionsBody ??= JSON.stringify(describeEndpoints(describeRoute(this.route)));
    return this.#optionsBody;
  }
}

/** An index whose JSON text is made on the first request for it. */
class LazyIndex implements IndexRoute {
  readonly #make: () => string;
  #body: string | undefined;

  constructor(make: () => string) {
    this.#make = make;
  }

  get body(): string {
    this.#body ??= this.#make();
    return this.#body;
  }
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
 * matcher with each route's `Allow` header, and the namespace and root indexes. The OPTIONS
 * answers and the indexes' texts are serialised on first use and kept. Requests only look
 * things up in it.
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
      const dispatchRoute = new TableRoute(route, paramNames);
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

    // The indexes' texts describe every route: made when an index is first asked for.
    let descriptors: readonly RouteDescriptor[] | undefined;
    const described = () => {
      descriptors ??= routes.map(describeRoute);
      return descriptors;
    };
    for (const namespace of namespaces) {
      this.indexes.set(
        `${restRoot}/${namespace}`,
        new LazyIndex(() => {
          const indexRoutes: Record<string, unknown> = {};
          for (const descriptor of described()) {
            if (descriptor.namespace === namespace)
              indexRoutes[descriptor.path] = describeEndpoints(descriptor);
          }
          return JSON.stringify({ namespace, routes: indexRoutes });
        }),
      );
    }
    this.indexes.set(
      restRoot === '' ? '/' : restRoot,
      new LazyIndex(() =>
        JSON.stringify({
          namespaces,
          routes: Object.fromEntries(
            namespaces.map((namespace) => [`${restRoot}/${namespace}`, { namespace }]),
          ),
        }),
      ),
    );
  }
}
