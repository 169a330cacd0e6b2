import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import type { Framework_Plugin } from './plugin';

/** What a password setting's value reads as in the status report. */
export const MASKED_VALUE = '********';

/** Every setting's value with the default applied; password-control values masked. */
async function settingValues(settings: Framework_Abstract_Settings | null): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  if (settings === null) return values;
  await settings.ensureLoaded();
  for (const [id, setting] of settings.getSettings()) {
    const value = setting.getValue() ?? setting.getDefault();
    values[id] = value !== null && setting.getControl()?.getType() === 'password' ? MASKED_VALUE : value;
  }
  return values;
}

async function pluginStatus(plugin: Framework_Plugin): Promise<Record<string, unknown>> {
  const [settings, extra] = await Promise.all([
    settingValues(plugin.getSettingsHandler()),
    plugin.getRestApiHandler().getSystemStatusData(),
  ]);
  return { is_payment_gateway: plugin.isPaymentGateway(), settings, ...extra };
}

/**
 * The system-status report: one member per plugin, keyed `${commercePrefix}_${pluginId}`, each
 * `{is_payment_gateway, settings: {id: value…}, ...getSystemStatusData()}` (the plugin's own
 * members last). `settings` holds every setting's value with the default applied (`{}`
 * without a settings handler); values of settings whose control is `password` read
 * `"********"` whenever a value or default exists.
 */
export async function buildSystemStatus(
  plugins: readonly Framework_Plugin[],
  commercePrefix: string,
): Promise<Record<string, unknown>> {
  const entries = await Promise.all(plugins.map(pluginStatus));
  const report: Record<string, unknown> = {};
  plugins.forEach((plugin, index) => {
    report[`${commercePrefix}_${plugin.getId()}`] = entries[index];
  });
  return report;
}
