import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { Framework_Plugin } from './plugin';

/**
 * Checks that no two settings of the plugins share a storage key
 * (`settings.getOptionName(id)`, `${optionPrefix}_${pluginId}_${settingId}`): plugin `acme`
 * with setting `pay_key` and plugin `acme_pay` with setting `key` both store under
 * `framework_acme_pay_key`, so each would read, overwrite and report the other's value.
 *
 * @throws {@link Framework_Plugin_Exception} (400) naming both plugins and settings and the key
 */
export function assertDistinctStorageKeys(plugins: readonly Framework_Plugin[]): void {
  const owners = new Map<string, { pluginId: string; settingId: string }>();
  for (const plugin of plugins) {
    const settings = plugin.getSettingsHandler();
    if (settings === null) continue;
    for (const settingId of settings.getSettings().keys()) {
      const key = settings.getOptionName(settingId);
      const owner = owners.get(key);
      if (owner !== undefined) {
        throw new Framework_Plugin_Exception(
          `createRestServer: plugin "${owner.pluginId}" setting "${owner.settingId}" and plugin "${plugin.getId()}" setting "${settingId}" ` +
            `share the storage key "${key}", so each would read and overwrite the other's value; rename one of the settings or plugins, or give one settings class another optionPrefix`,
          400,
        );
      }
      owners.set(key, { pluginId: plugin.getId(), settingId });
    }
  }
}
