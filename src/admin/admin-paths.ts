import { ADMIN_PATH_PREFIX } from '../rest/admin-hook';

/** The path of the status screen. */
export const ADMIN_STATUS_PATH = `${ADMIN_PATH_PREFIX}status`;

const SETTINGS_PREFIX = `${ADMIN_PATH_PREFIX}settings/`;

/** The path of a plugin's settings page: `/admin/settings/{pluginId}`. */
export function adminSettingsPath(pluginId: string): string {
  return `${SETTINGS_PREFIX}${encodeURIComponent(pluginId)}`;
}

/** A request path with one trailing slash ignored (as the REST routes do). */
export function normaliseAdminPath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/** The views under a plugin's settings path: the page itself, its history view, its restore handler. */
export type SettingsRoute = 'settings' | 'history' | 'restore';

/** The path of a plugin's history view: `/admin/settings/{pluginId}/history` (`?setting=`, `?scope=`). */
export function adminHistoryPath(pluginId: string): string {
  return `${adminSettingsPath(pluginId)}/history`;
}

/** The path the history view's "Restore to here" and "Apply" buttons post to: `/admin/settings/{pluginId}/restore`. */
export function adminRestorePath(pluginId: string): string {
  return `${adminSettingsPath(pluginId)}/restore`;
}

/**
 * The plugin id (percent-decoded) and the view of a path under `/admin/settings/`:
 * `/admin/settings/{pluginId}`, `…/history` or `…/restore`; `null` for any other path.
 */
export function settingsRouteOf(path: string): { pluginId: string; view: SettingsRoute } | null {
  if (!path.startsWith(SETTINGS_PREFIX)) return null;
  const [segment = '', view, ...rest] = path.slice(SETTINGS_PREFIX.length).split('/');
  if (segment === '' || rest.length > 0) return null;
  if (view !== undefined && view !== 'history' && view !== 'restore') return null;
  try {
    return { pluginId: decodeURIComponent(segment), view: view ?? 'settings' };
  } catch {
    return null;
  }
}

/**
 * A link from the page at `fromPath` to the admin path `toPath`, relative (`../status`), so
 * that it still works when the host mounts the server under a prefix
 * (`app.use('/shop', toExpressRouter(server))`): the server sees paths without the prefix,
 * the browser resolves the link against the full URL it shows.
 *
 * @param fromPath - the path of the request being answered, as the server sees it
 * @param toPath - an absolute admin path, as the server sees it (e.g. `/admin/status`)
 */
export function relativeHref(fromPath: string, toPath: string): string {
  // The directory of `fromPath` is everything up to its last slash; climb out of every segment of it.
  const depth = fromPath.slice(0, fromPath.lastIndexOf('/') + 1).split('/').length - 2;
  return `${'../'.repeat(Math.max(depth, 0))}${toPath.slice(1)}` || './';
}

/**
 * The query of the history view and the restore handler: `?setting=<id>`, with `&scope=<path>`
 * on a scope's level and `&page=<n>` beyond the first page.
 */
export function historyQuery(settingId: string, scope: string, page = 1): string {
  const scoped = scope === '' ? '' : `&scope=${encodeURIComponent(scope)}`;
  return `?setting=${encodeURIComponent(settingId)}${scoped}${page > 1 ? `&page=${page}` : ''}`;
}
