import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { Framework_Plugin } from '../plugin';

/** Setting ids the settings routes use as path segments of their own (`/settings/batch`, `/settings/history`). */
export const RESERVED_SETTING_IDS: readonly string[] = ['batch', 'history', 'export', 'import', 'restore'];

/**
 * Checks that no plugin has a setting whose id is a path segment of the settings routes
 * (CONTRACT §8): `…/settings/batch` and `…/settings/history` could not reach it.
 *
 * @throws {@link Framework_Plugin_Exception} (400) naming the plugin and the setting
 */
export function assertNoReservedSettingIds(plugins: readonly Framework_Plugin[]): void {
  for (const plugin of plugins) {
    const settings = plugin.getSettingsHandler();
    if (settings === null) continue;
    for (const id of RESERVED_SETTING_IDS) {
      if (settings.getSetting(id) !== undefined) {
        throw new Framework_Plugin_Exception(
          `createRestServer: plugin "${plugin.getId()}" has a setting "${id}", but …/settings/${id} is a route of its own; rename the setting`,
          400,
        );
      }
    }
  }
}
