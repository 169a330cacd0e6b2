import type { RouteDescriptor } from '../rest/registry/types';

/** What the document knows about a route beyond its descriptor. */
export type RouteKind = 'settings-list' | 'setting' | 'system-status' | 'plugin';

const SETTINGS_LIST = /^\/[A-Za-z0-9_-]+\/settings$/;
const SETTING = /^\/[A-Za-z0-9_-]+\/settings\/\{setting_id\}$/;

/** Recognises the server's own routes (settings, status) in the host namespace; everything else is a plugin route. */
export function routeKind(route: RouteDescriptor, hostNamespace: string): RouteKind {
  if (route.namespace !== hostNamespace) return 'plugin';
  if (route.route === '/system_status') return 'system-status';
  if (SETTINGS_LIST.test(route.route)) return 'settings-list';
  if (SETTING.test(route.route)) return 'setting';
  return 'plugin';
}
