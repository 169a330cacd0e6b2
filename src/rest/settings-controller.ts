import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import { CONTROL_TYPES } from '../settings/control-types';
import type { Framework_Setting, SettingObject } from '../settings/setting';
import { SETTING_TYPES } from '../settings/setting-types';
import { RestError } from './http/rest-error';
import type { RestRequest } from './http/rest-request';
import { requireManagement } from './permissions';
import type { RouteRegistry } from './registry/route-registry';

/** The JSON-Schema `$schema` of draft-04. */
export const JSON_SCHEMA_DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

const SETTING_ID_ARG = {
  type: 'string',
  required: true,
  description: 'The id of the setting.',
} as const;

/**
 * The settings routes of one plugin, under `${restRoot}/${hostNamespace}/${pluginId}/settings`:
 *
 * | method | path | answers |
 * |---|---|---|
 * | GET | `/settings` | every Setting object, in registration order |
 * | GET | `/settings/{setting_id}` | one Setting object |
 * | PUT, POST, PATCH | `/settings/{setting_id}` | body `{"value": …}`: the updated Setting object |
 *
 * All require the management capability. The setting id is resolved and the value checked
 * against the setting's type by the handler, after the permission check: an unknown id is 404
 * `rest_setting_not_found` and a rejected value 400 `rest_setting_value_invalid` only for a
 * permitted user.
 */
export class Framework_REST_API_Settings {
  readonly #settings: Framework_Abstract_Settings;

  /** @param settings - the plugin's settings */
  constructor(settings: Framework_Abstract_Settings) {
    this.#settings = settings;
  }

  /** Registers the three settings routes in the registry's host namespace. */
  registerRoutes(routes: RouteRegistry): void {
    const namespace = routes.getHostNamespace();
    const base = `/${this.#settings.getId()}/settings`;
    const permission = requireManagement();
    routes.register(namespace, base, {
      methods: 'GET',
      permission,
      handler: () => this.#listSettings(),
    });
    routes.register(namespace, `${base}/{setting_id}`, [
      {
        methods: 'GET',
        permission,
        args: { setting_id: SETTING_ID_ARG },
        handler: (request) => this.#getSetting(request),
      },
      {
        methods: ['PUT', 'POST', 'PATCH'],
        permission,
        args: {
          setting_id: SETTING_ID_ARG,
          value: {
            required: true,
            description:
              "The new value, typed per the setting's type (a number for integer and float, a boolean for boolean, any JSON value for object, an array for multi settings).",
          },
        },
        handler: (request) => this.#updateSetting(request),
      },
    ]);
  }

  /** The REST shape of a setting (CONTRACT §5), its value with the default applied. */
  prepareSettingItem(setting: Framework_Setting): SettingObject {
    return setting.toJSON();
  }

  /** The JSON Schema (draft-04) of the Setting object; only `value` is writable. */
  getItemSchema(): object {
    const readonly = (schema: Record<string, unknown>) => ({
      ...schema,
      context: ['view', 'edit'],
      readonly: true,
    });
    return {
      $schema: JSON_SCHEMA_DRAFT_04,
      title: 'setting',
      type: 'object',
      properties: {
        id: readonly({ type: 'string', description: 'The id of the setting, unique within its plugin.' }),
        type: readonly({ type: 'string', enum: [...SETTING_TYPES], description: 'The type of the value.' }),
        name: readonly({ type: 'string', description: 'The label of the setting.' }),
        description: readonly({ type: 'string', description: 'The help text of the setting.' }),
        is_multi: readonly({
          type: 'boolean',
          description: 'Whether the value is an array of values of the type.',
        }),
        options: readonly({
          type: 'array',
          description: 'The allowed values; empty when any value of the type is allowed.',
        }),
        default: readonly({ description: 'The value read when nothing is stored; null when there is none.' }),
        value: {
          description: 'The current value, with the default applied; write it with PUT {"value": …}.',
          type: ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'],
          context: ['view', 'edit'],
        },
        control: readonly({
          type: ['object', 'null'],
          description: 'How the setting is shown in forms; null when it has no control.',
          properties: {
            type: { type: 'string', enum: [...CONTROL_TYPES] },
            name: { type: 'string' },
            description: { type: 'string' },
            options: { type: 'object', additionalProperties: { type: 'string' } },
          },
        }),
      },
    };
  }

  async #listSettings(): Promise<SettingObject[]> {
    await this.#settings.ensureLoaded();
    const items: SettingObject[] = [];
    for (const setting of this.#settings.getSettings().values()) items.push(this.prepareSettingItem(setting));
    return items;
  }

  #getSetting(request: RestRequest): SettingObject | Promise<SettingObject> {
    const setting = this.#requireSetting(request.get('setting_id') as string);
    // A value known to be current is answered at once; otherwise getValue reads it first.
    if (setting.isFresh) return this.prepareSettingItem(setting);
    return this.#settings.getValue(setting.getId()).then(() => this.prepareSettingItem(setting));
  }

  async #updateSetting(request: RestRequest): Promise<SettingObject> {
    const setting = this.#requireSetting(request.get('setting_id') as string);
    try {
      await this.#settings.updateValue(setting.getId(), request.get('value'));
    } catch (error) {
      throw toSettingRestError(error, setting.getId());
    }
    return this.prepareSettingItem(setting);
  }

  #requireSetting(id: string): Framework_Setting {
    const setting = this.#settings.getSetting(id);
    if (!setting) throw settingNotFound(id, this.#settings.getId());
    return setting;
  }
}

function settingNotFound(settingId: string, pluginId: string): RestError {
  return new RestError('rest_setting_not_found', `No setting "${settingId}" in plugin "${pluginId}".`, 404);
}

/**
 * The REST error for a settings-layer exception: 404 `rest_setting_not_found`, another 4xx
 * `rest_setting_value_invalid` with that status; anything else is returned unchanged.
 */
export function toSettingRestError(error: unknown, settingId: string): unknown {
  if (!(error instanceof Framework_Plugin_Exception)) return error;
  if (error.code === 404) return new RestError('rest_setting_not_found', error.message, 404);
  if (error.code >= 400 && error.code < 500) {
    return new RestError('rest_setting_value_invalid', error.message, error.code, {
      params: { value: error.message },
      setting_id: settingId,
    });
  }
  return error;
}
