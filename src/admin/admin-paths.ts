/** The path of the status screen. */
export const ADMIN_STATUS_PATH = '/admin/status';

const SETTINGS_PREFIX = '/admin/settings/';

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
