import type { Framework_Plugin } from './plugin';
import type { RestUser } from './rest-user';

/** The server's `canAccessScope`: who reaches which level of which plugin (`''`: the global level). */
export type ScopeAccessCheck = (
  user: RestUser,
  scope: string,
  pluginId: string,
) => boolean | Promise<boolean>;

/**
 * The plugins whose block of the system-status report `user` may see: those whose global level
 * `canAccessScope(user, '', pluginId)` allows (CONTRACT, third round), in their order, with or
 * without settings. Without a check every plugin is visible. The checks run together; only
 * `true` allows.
 */
export async function pluginsVisibleTo(
  plugins: readonly Framework_Plugin[],
  user: RestUser,
  canAccessScope: ScopeAccessCheck | undefined,
): Promise<Framework_Plugin[]> {
  if (canAccessScope === undefined) return [...plugins];
  const verdicts = await Promise.all(plugins.map((plugin) => canAccessScope(user, '', plugin.getId())));
  return plugins.filter((_plugin, index) => verdicts[index] === true);
}
