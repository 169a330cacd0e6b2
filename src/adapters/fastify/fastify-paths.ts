import type { RouteDescriptor } from '../../rest/registry/types';

/**
 * Characters find-my-way (Fastify's router) reads as syntax in a path: parameters, wildcards,
 * regular expressions, and `%` (it matches decoded paths). Routes with such a character in
 * fixed text are left to the catch-all route under the REST root.
 */
const ROUTER_SYNTAX = /[:*()%]/;

/** A route path in find-my-way form: `/items/{id}` becomes `/items/:id`. */
export function toFastifyPath(path: string): string | null {
  const segments = path.split('/');
  const converted: string[] = [];
  for (const segment of segments) {
    if (segment.startsWith('{') && segment.endsWith('}')) converted.push(`:${segment.slice(1, -1)}`);
    else if (ROUTER_SYNTAX.test(segment)) return null;
    else converted.push(segment);
  }
  return converted.join('/');
}

/** The shape of a find-my-way path (parameter names dropped): two paths of one shape are one route. */
function shapeOf(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+/g, ':');
}

/**
 * The paths to register natively in Fastify for a server's routes: every route (parameters as
 * `:name`; routes that differ only in parameter names or kinds share one Fastify route, the
 * pipeline tells them apart), every namespace index and the REST root index.
 */
export function fastifyRoutePaths(routes: readonly RouteDescriptor[], restRoot: string): string[] {
  const byShape = new Map<string, string>();
  const add = (path: string | null): void => {
    if (path === null) return;
    const shape = shapeOf(path);
    if (!byShape.has(shape)) byShape.set(shape, path);
  };
  add(restRoot === '' ? '/' : toFastifyPath(restRoot));
  for (const route of routes) add(toFastifyPath(`${restRoot}/${route.namespace}`));
  for (const route of routes) add(toFastifyPath(route.path));
  return [...byShape.values()];
}
