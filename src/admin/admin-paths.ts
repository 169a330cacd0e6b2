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

/** The plugin id of a settings-page path (percent-decoded), or `null` when the path is not one. */
export function pluginIdOfSettingsPath(path: string): string | null {
  if (!path.startsWith(SETTINGS_PREFIX)) return null;
  const segment = path.slice(SETTINGS_PREFIX.length);
  if (segment === '' || segment.includes('/')) return null;
  try {
    return decodeURIComponent(segment);
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
