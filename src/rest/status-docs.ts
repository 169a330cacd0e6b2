import type { Framework_Setting } from '../settings/setting';
import { catalogueErrorDoc } from './errors/error-docs';
import type { Framework_Plugin } from './plugin';
import type { DocSchema, EndpointDocs } from './registry/endpoint-docs';
import { MASKED_VALUE } from './secret-keys';
import { nullable, settingValueSchema } from './settings-routes/settings-docs';

/** A setting's member of `settings` in the status report: its value, `"********"` for a password. */
function statusValueSchema(setting: Framework_Setting): DocSchema {
  if (setting.isSecret()) {
    return nullable({ type: 'string', const: MASKED_VALUE, description: 'Masked: the setting is a secret.' });
  }
  const value = settingValueSchema(setting);
  const fallback = setting.getDefault();
  return fallback === null || fallback === undefined ? nullable(value) : value;
}

function pluginStatusSchema(plugin: Framework_Plugin): DocSchema {
  const settings = plugin.getSettingsHandler();
  const values: Record<string, DocSchema> = {};
  let hasSecret = false;
  for (const setting of settings?.getSettings().values() ?? []) {
    values[setting.getId()] = statusValueSchema(setting);
    hasSecret ||= setting.isSecret();
  }
  const secrets: Record<string, DocSchema> = hasSecret
    ? {
        secrets_encrypted: {
          type: 'boolean',
          description: "Whether the plugin's secrets are encrypted at rest (a cipher is configured).",
        },
        unreadable_secrets: {
          type: 'array',
          items: { type: 'string' },
          description:
            'The ids of secret settings whose stored text cannot be decrypted (they read as nothing stored).',
        },
      }
    : {};
  return {
    type: 'object',
    description: `The block of ${plugin.getName()}; members after \`settings\` are the plugin's own data.`,
    required: ['is_payment_gateway', 'settings', ...Object.keys(secrets)],
    properties: {
      ...secrets,
      is_payment_gateway: { type: 'boolean', const: plugin.isPaymentGateway() },
      settings: {
        type: 'object',
        description:
          'Every setting of the plugin with the default applied (password values masked); empty without settings.',
        ...(Object.keys(values).length > 0 ? { required: Object.keys(values) } : {}),
        properties: values,
        additionalProperties: false,
      },
    },
    additionalProperties: true,
  };
}

/**
 * The documentation of `GET …/system_status`: one member per plugin, keyed
 * `${commercePrefix}_${pluginId}`, each with `is_payment_gateway`, `settings` (every setting's
 * value, typed by the setting) and the plugin's own members.
 */
export function systemStatusDocs(plugins: readonly Framework_Plugin[], commercePrefix: string): EndpointDocs {
  const members: Record<string, DocSchema> = {};
  for (const plugin of plugins) members[`${commercePrefix}_${plugin.getId()}`] = pluginStatusSchema(plugin);
  return {
    summary: 'The system-status report',
    description:
      "Every plugin's block: whether it is a payment gateway, its settings' values (password values " +
      'masked) and what the plugin adds itself (`getSystemStatusData`).',
    responses: [
      {
        status: 200,
        description: 'One member per plugin, keyed `<commercePrefix>_<pluginId>`.',
        schema: {
          type: 'object',
          ...(plugins.length > 0 ? { required: Object.keys(members) } : {}),
          properties: members,
        },
      },
    ],
    errors: [
      catalogueErrorDoc('rest_store_unavailable', {
        when: 'a settings store failed or timed out; try again later.',
      }),
    ],
  };
}
