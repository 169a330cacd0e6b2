import type { Framework_Setting } from '../settings/setting';
import { catalogueErrorDoc } from './errors/error-doc-schemas';
import type { Framework_Plugin } from './plugin';
import { componentRef, type DocSchema, type EndpointDocs } from './registry/endpoint-docs';
import { MASKED_VALUE } from './secret-keys';
import { nullable, settingValueComponentName, settingValueSchema } from './settings-routes/setting-schemas';

/**
 * A setting's member of `settings` in the status report: its value (a reference to the
 * setting's value schema, the one its routes use), `"********"` for a password.
 */
function statusValueSchema(pluginId: string, setting: Framework_Setting): DocSchema {
  if (setting.isSecret()) {
    return nullable({ type: 'string', const: MASKED_VALUE, description: 'Masked: the setting is a secret.' });
  }
  const value = componentRef(settingValueComponentName(pluginId, setting.getId()));
  const fallback = setting.getDefault();
  return fallback === null || fallback === undefined ? nullable(value) : value;
}

function pluginStatusSchema(plugin: Framework_Plugin, schemas: Record<string, DocSchema>): DocSchema {
  const settings = plugin.getSettingsHandler();
  const values: Record<string, DocSchema> = {};
  let hasSecret = false;
  for (const setting of settings?.getSettings().values() ?? []) {
    values[setting.getId()] = statusValueSchema(plugin.getId(), setting);
    if (!setting.isSecret()) {
      schemas[settingValueComponentName(plugin.getId(), setting.getId())] = settingValueSchema(setting);
    }
    hasSecret ||= setting.isSecret();
  }
  const secrets: Record<string, DocSchema> = hasSecret
    ? {
        secrets_encrypted: {
          type: 'boolean',
          description:
            "Whether the plugin's secrets are encrypted at rest: a cipher is configured and none is stored in plain text.",
        },
        unreadable_secrets: {
          type: 'array',
          items: { type: 'string' },
          description:
            'The secrets whose stored text cannot be decrypted: `id` (global; reads as nothing stored) or `id@scope` (that scope and those below it that inherit read null).',
        },
        ...(settings?.hasSecretCipher()
          ? {
              plaintext_secrets: {
                type: 'array',
                items: { type: 'string' },
                description:
                  'With a cipher: the secrets stored in plain text (`id` or `id@scope`); `rotateSecrets()` encrypts them.',
              },
            }
          : {}),
      }
    : {};
  const versions: Record<string, DocSchema> =
    settings === null
      ? {}
      : {
          schema_version: {
            type: 'object',
            description: "The stored settings' schema version and this code's (CONTRACT §11).",
            required: ['stored', 'code'],
            properties: { stored: { type: 'integer' }, code: { type: 'integer' } },
          },
        };
  return {
    type: 'object',
    description: `The block of ${plugin.getName()}; members after \`settings\` are the plugin's own data.`,
    required: ['is_payment_gateway', 'settings', ...Object.keys(versions), ...Object.keys(secrets)],
    properties: {
      ...versions,
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

/** How the server filters the report (for its documentation). */
export interface StatusDocsOptions {
  /** Whether the server has a `canAccessScope`: a block is then present only when the user may access the plugin's global level. */
  readonly filtered: boolean;
}

/**
 * The documentation of `GET …/system_status`: one member per plugin, keyed
 * `${commercePrefix}_${pluginId}`, each with `is_payment_gateway`, `settings` (every setting's
 * value, typed by the setting) and the plugin's own members. With `filtered`, no member is
 * required: a block is left out when `canAccessScope` does not allow the user its global level.
 */
export function systemStatusDocs(
  plugins: readonly Framework_Plugin[],
  commercePrefix: string,
  options: StatusDocsOptions = { filtered: false },
): EndpointDocs {
  const members: Record<string, DocSchema> = {};
  const schemas: Record<string, DocSchema> = {};
  for (const plugin of plugins) {
    members[`${commercePrefix}_${plugin.getId()}`] = pluginStatusSchema(plugin, schemas);
  }
  return {
    summary: 'The system-status report',
    description:
      "Every plugin's block: whether it is a payment gateway, its settings' values (password values " +
      'masked) and what the plugin adds itself (`getSystemStatusData`).',
    responses: [
      {
        status: 200,
        description: options.filtered
          ? 'One member per plugin whose global level `canAccessScope` allows the user, keyed `<commercePrefix>_<pluginId>` (possibly none).'
          : 'One member per plugin, keyed `<commercePrefix>_<pluginId>`.',
        schema: {
          type: 'object',
          ...(plugins.length > 0 && !options.filtered ? { required: Object.keys(members) } : {}),
          properties: members,
        },
      },
    ],
    errors: [catalogueErrorDoc('rest_store_unavailable')],
    schemas,
  };
}
