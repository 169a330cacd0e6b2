import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import { maskValue } from '../settings/secrets/mask';
import type { Framework_Plugin } from './plugin';
import { maskSecretMembers } from './secret-keys';

/**
 * What the settings add to a plugin's block: every global value (secrets masked), the schema
 * versions (stored and this code's) and, with secrets, their state — whether they are encrypted,
 * which cannot be decrypted, and (with a cipher) which are stored in plain text.
 */
async function settingsStatus(
  settings: Framework_Abstract_Settings | null,
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  if (settings === null) return { settings: values };
  await settings.ensureLoaded();
  let hasSecret = false;
  for (const [id, setting] of settings.getSettings()) {
    const secret = setting.isSecret();
    hasSecret ||= secret;
    values[id] = maskValue(setting.getValue() ?? setting.getDefault(), secret);
  }
  const schemaVersion = { stored: await settings.getSchemaVersion(), code: settings.getCodeSchemaVersion() };
  if (!hasSecret) return { settings: values, schema_version: schemaVersion };
  const audit = await settings.getSecretAudit();
  const cipher = settings.hasSecretCipher();
  return {
    settings: values,
    schema_version: schemaVersion,
    secrets_encrypted: cipher && audit.plaintext.length === 0,
    unreadable_secrets: audit.unreadable,
    ...(cipher ? { plaintext_secrets: audit.plaintext } : {}),
  };
}

async function pluginStatus(plugin: Framework_Plugin): Promise<Record<string, unknown>> {
  const [settings, extra] = await Promise.all([
    settingsStatus(plugin.getSettingsHandler()),
    plugin.getRestApiHandler().getSystemStatusData(),
  ]);
  // The plugin's own members are masked by key (`webhook_secret`, `api_key`…), as the admin
  // status screen shows them: the same rule wherever the report leaves the process.
  const own = maskSecretMembers(extra) as Record<string, unknown>;
  return { is_payment_gateway: plugin.isPaymentGateway(), ...settings, ...own };
}

/**
 * The system-status report: one member per plugin, keyed `${commercePrefix}_${pluginId}`, each
 * `{is_payment_gateway, settings: {id: value…}, ...getSystemStatusData()}` (the plugin's own
 * members last). `settings` holds every setting's value with the default applied (`{}`
 * without a settings handler); values of secret settings (`secret: true` or a `password`
 * control) read `"********"` whenever a value or default exists. A plugin with a secret setting
 * also has `secrets_encrypted` (whether its settings have a cipher) and `unreadable_secrets`
 * (the ids of secrets whose stored text cannot be decrypted, `[]` when none). In the plugin's own members, text and
 * numbers under keys that name a secret (`webhook_secret`, `api_key`, `accessToken`…, see
 * `isSecretKey`) read `"********"` too, at any depth.
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
