import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import { CONTROL_TYPES } from '../../settings/control-types';
import { ifMatchHolds } from '../../settings/etag/entity-tag';
import { type DescribedSetting, LevelView, type ScopedSettings } from '../../settings/scope/scoped-settings';
import { isMaskedEcho } from '../../settings/secrets/mask';
import type { Framework_Setting, SettingObject } from '../../settings/setting';
import { SETTING_TYPES } from '../../settings/setting-types';
import { BatchRejectedError } from '../../settings/writes/batch-rejected';
import type { SettingChange, WriteOptions } from '../../settings/writes/write-options';
import type { ArgFailure } from '../args/arg-failure';
import type { ArgSchema } from '../args/arg-schema';
import { invalidParamsError } from '../args/compiled-arg';
import type { BatchItemError } from '../errors/error-data';
import { restError } from '../errors/rest-error-factory';
import { JsonText } from '../http/json-text';
import type { RestError } from '../http/rest-error';
import type { RestRequest } from '../http/rest-request';
import { RestResponse } from '../http/rest-response';
import { paginationHeaders } from '../pagination';
import { requireManagement } from '../permissions';
import type { RouteRegistry } from '../registry/route-registry';
import { taggedAnswer } from './entity-tag-answer';
import { accessedScope, SCOPE_ARG } from './scope-argument';
import {
  batchItemError,
  preconditionFailed,
  settingNotFound,
  toSettingReadError,
  toSettingRestError,
} from './setting-errors';
import { SETTING_OBJECT_MEMBERS, settingsRouteDocs } from './settings-docs';

/** The JSON-Schema `$schema` of draft-04. */
export const JSON_SCHEMA_DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

/** The default of `createRestServer`'s `maxBatchItems`. */
export const DEFAULT_MAX_BATCH_ITEMS = 100;

const SETTING_ID_ARG = {
  type: 'string',
  required: true,
  description: 'The id of the setting.',
} as const;

const HISTORY_ARGS: Record<string, ArgSchema> = {
  page: { description: 'Current page of the history.', type: 'integer', default: 1, minimum: 1 },
  per_page: {
    description: 'Maximum number of entries to return per page.',
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 100,
  },
  scope: SCOPE_ARG,
};

const BATCH_ARGS: Record<string, ArgSchema> = {
  update: {
    type: 'array',
    required: true,
    description: 'The settings to store together: `{id, value}` each, distinct ids.',
    items: {
      type: 'object',
      properties: { id: { type: 'string', required: true }, value: { description: 'The new value.' } },
    },
  },
  scope: SCOPE_ARG,
};

/** A batch item as the arguments check lets it through. */
interface BatchItem {
  readonly id: string;
  readonly value?: unknown;
}

/** Who writes, as the history records it: the authenticated user. */
function writeOptions(request: RestRequest, withCondition: boolean): WriteOptions {
  const user = request.user;
  const ifMatch = withCondition ? request.headers.get('if-match') : null;
  return {
    actor: user === null ? null : { id: user.id },
    via: 'rest',
    ...(ifMatch === null ? {} : { ifMatch }),
  };
}

/** 400 `rest_invalid_param` for the `update` list as a whole. */
function invalidBatch(failure: ArgFailure): RestError {
  return invalidParamsError({ update: failure });
}

/** A Setting object's JSON text and what it was made from. */
interface ItemText {
  readonly value: unknown;
  readonly revision: number;
  readonly json: JsonText;
}

/**
 * The settings routes of one plugin, under `${restRoot}/${hostNamespace}/${pluginId}/settings`
 * (CONTRACT §5, §8–§10):
 *
 * | method | path | answers |
 * |---|---|---|
 * | GET | `/settings` | every Setting object, in registration order; `ETag` over all |
 * | GET | `/settings/{setting_id}` | one Setting object; `ETag`, 304 for `If-None-Match` |
 * | PUT, POST, PATCH | `/settings/{setting_id}` | body `{"value": …}` (`If-Match`): the updated Setting object |
 * | DELETE | `/settings/{setting_id}` | (`If-Match`) removes the stored value: the Setting object as it then reads |
 * | POST | `/settings/batch` | body `{"update": [{id, value}…]}`: all stored in one atomic step, or none |
 * | GET | `/settings/history`, `/settings/{setting_id}/history` | history entries, newest first, paged |
 *
 * Every route takes the `scope` query argument and requires the management capability (and
 * the server's `canAccessScope`). The setting id is resolved and the value checked by the
 * handler, after the permission check: an unknown id is 404 `rest_setting_not_found` and a
 * rejected value 400 `rest_setting_value_invalid` only for a permitted user. Writes carry the
 * user as their actor into the history, past any `updateValue` override of the settings class.
 */
export class Framework_REST_API_Settings {
  readonly #settings: Framework_Abstract_Settings;
  /** The JSON text of each global Setting object, kept while its value and control stay the same. */
  readonly #itemTexts = new Map<Framework_Setting, ItemText>();

  /** @param settings - the plugin's settings */
  constructor(settings: Framework_Abstract_Settings) {
    this.#settings = settings;
  }

  /** Registers the settings routes in the registry's host namespace. */
  registerRoutes(routes: RouteRegistry): void {
    const namespace = routes.getHostNamespace();
    const base = `/${this.#settings.getId()}/settings`;
    const permission = requireManagement();
    const docs = settingsRouteDocs(this.#settings, () => this.getItemSchema());
    routes.register(namespace, base, {
      methods: 'GET',
      permission,
      args: { scope: SCOPE_ARG },
      handler: (request) => this.#listSettings(request),
      docs: docs.list,
    });
    routes.register(namespace, `${base}/batch`, {
      methods: 'POST',
      permission,
      args: BATCH_ARGS,
      handler: (request) => this.#batch(request),
      docs: docs.batch,
    });
    routes.register(namespace, `${base}/history`, {
      methods: 'GET',
      permission,
      args: HISTORY_ARGS,
      handler: (request) => this.#history(request),
      docs: docs.history,
    });
    routes.register(namespace, `${base}/{setting_id}`, [
      {
        methods: 'GET',
        permission,
        args: { setting_id: SETTING_ID_ARG, scope: SCOPE_ARG },
        handler: (request) => this.#getSetting(request),
        docs: docs.read,
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
          scope: SCOPE_ARG,
        },
        handler: (request) => this.#updateSetting(request),
        docs: docs.update,
      },
      {
        methods: 'DELETE',
        permission,
        args: { setting_id: SETTING_ID_ARG, scope: SCOPE_ARG },
        handler: (request) => this.#deleteSetting(request),
        docs: docs.remove,
      },
    ]);
    routes.register(namespace, `${base}/{setting_id}/history`, {
      methods: 'GET',
      permission,
      args: { setting_id: SETTING_ID_ARG, ...HISTORY_ARGS },
      handler: (request) => this.#history(request),
      docs: docs.settingHistory,
    });
  }

  /**
   * The REST shape of a setting (CONTRACT §5): its global value with the default applied,
   * secrets masked. Scoped answers start from it and take the scope's value, `scope` and `origin`.
   */
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
      required: [...SETTING_OBJECT_MEMBERS],
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
          items: {},
          description: 'The allowed values; empty when any value of the type is allowed.',
        }),
        default: readonly({ description: 'The value read when nothing is stored; null when there is none.' }),
        value: {
          description: 'The current value, with the default applied; write it with PUT {"value": …}.',
          type: ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'],
          items: {},
          additionalProperties: true,
          context: ['view', 'edit'],
        },
        scope: readonly({
          type: 'string',
          description: 'With a `scope` argument: the scope the values are of.',
        }),
        origin: readonly({
          type: ['string', 'null'],
          description:
            'With a `scope` argument: where `value` comes from — a scope path, an empty string for the global value, null for the default.',
        }),
        control: readonly({
          type: ['object', 'null'],
          description: 'How the setting is shown in forms; null when it has no control.',
          required: ['type', 'name', 'description', 'options'],
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

  async #listSettings(request: RestRequest): Promise<RestResponse> {
    const level = await this.#level(request);
    try {
      // The tag first: a cold read then brings the tags' salt along in the same round trip.
      const tag = await level.getListETag();
      const objects = await level.getSettingObjects();
      const settings = [...this.#settings.getSettings().values()];
      const items = objects.map((object, index) => this.#item(settings[index]!, object, level));
      return taggedAnswer(request, tag, items);
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  /**
   * GET of one setting: answered at once (no promise) when the level's entry is fresh and its tag
   * known — the common warm read —, otherwise after reading them.
   */
  #getSetting(request: RestRequest): RestResponse | Promise<RestResponse> {
    const setting = this.#requireSetting(request.get('setting_id') as string);
    const scope = accessedScope(request, this.#settings.getId());
    if (typeof scope === 'string') {
      const level = this.#settings.level(scope);
      const known = level instanceof LevelView ? level.peekSetting(setting.getId()) : undefined;
      if (known !== undefined) {
        return taggedAnswer(request, known.etag, this.#itemBody(setting, known.setting, level));
      }
    }
    return this.#readSetting(request, setting, scope);
  }

  async #readSetting(
    request: RestRequest,
    setting: Framework_Setting,
    scope: string | Promise<string>,
  ): Promise<RestResponse> {
    const level = this.#settings.level(await scope);
    try {
      const tag = await level.getETag(setting.getId());
      const object = await level.getSettingObject(setting.getId());
      return taggedAnswer(request, tag, this.#itemBody(setting, object, level));
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  async #updateSetting(request: RestRequest): Promise<RestResponse> {
    const setting = this.#requireSetting(request.get('setting_id') as string);
    const level = await this.#level(request);
    const value = request.get('value');
    const options = writeOptions(request, true);
    if (isMaskedEcho(setting.isSecret(), value)) {
      // A client writing back the mask it read leaves the secret as it is (CONTRACT §7).
      if (options.ifMatch !== undefined) await this.#assertMatches(level, setting, options.ifMatch);
      return this.#written(level, setting);
    }
    let written: DescribedSetting;
    try {
      written = await level.putSetting(setting.getId(), value, options);
    } catch (error) {
      throw toSettingRestError(error, setting.getId());
    }
    return this.#answerWritten(setting, written, level);
  }

  async #deleteSetting(request: RestRequest): Promise<RestResponse> {
    const setting = this.#requireSetting(request.get('setting_id') as string);
    const level = await this.#level(request);
    let written: DescribedSetting;
    try {
      written = await level.deleteSetting(setting.getId(), writeOptions(request, true));
    } catch (error) {
      throw toSettingRestError(error, setting.getId());
    }
    return this.#answerWritten(setting, written, level);
  }

  async #batch(request: RestRequest): Promise<RestResponse> {
    const items = request.get('update') as readonly BatchItem[];
    const max = request.server?.maxBatchItems ?? DEFAULT_MAX_BATCH_ITEMS;
    if (items.length === 0) {
      throw invalidBatch({ code: 'rest_too_few_items', path: ['update'], params: { minItems: 1 } });
    }
    if (items.length > max) {
      throw invalidBatch({ code: 'rest_too_many_items', path: ['update'], params: { maxItems: max } });
    }
    const ids = items.map((item) => item.id);
    const repeatedAt = ids.findIndex((id, index) => ids.indexOf(id) !== index);
    if (repeatedAt !== -1) {
      throw invalidBatch({
        code: 'rest_invalid_param',
        path: ['update', repeatedAt, 'id'],
        params: {
          reason: 'custom',
          message: `update names the setting "${ids[repeatedAt]}" more than once.`,
        },
      });
    }
    const level = await this.#level(request);
    if (!this.#settings.storeCapabilities().atomicWrites) {
      throw restError(
        'rest_unsupported_by_store',
        'This store cannot apply a batch in one atomic step (it has no OptionStore.commit); write the settings one by one.',
        { feature: 'atomic batches' },
      );
    }

    const errors = new Map<string, BatchItemError>();
    const changes: SettingChange[] = [];
    for (const item of items) {
      const setting = this.#settings.getSetting(item.id);
      if (setting === undefined) {
        errors.set(item.id, {
          id: item.id,
          code: 'rest_setting_not_found',
          message: settingNotFound(item.id, this.#settings.getId()).message,
        });
      } else if (item.value === undefined || item.value === null) {
        errors.set(item.id, {
          id: item.id,
          code: 'rest_missing_callback_param',
          message: 'Missing parameter(s): value',
        });
      } else if (!isMaskedEcho(setting.isSecret(), item.value)) {
        changes.push({ id: item.id, value: item.value });
      }
    }
    const options = writeOptions(request, false);
    let written: DescribedSetting[] = [];
    try {
      if (errors.size > 0) await level.checkValues(changes, options);
      else written = await level.putSettings(changes, options);
    } catch (error) {
      if (!(error instanceof BatchRejectedError)) throw toSettingRestError(error, '');
      for (const failure of error.failures) errors.set(failure.id, batchItemError(failure.id, failure.error));
    }
    if (errors.size > 0) {
      const list = ids.filter((id) => errors.has(id)).map((id) => errors.get(id)!);
      throw restError(
        'rest_batch_rejected',
        `The batch was not stored: ${list.length} of ${items.length} items were refused.`,
        { errors: list },
      );
    }
    // Each item as this batch left it (a masked secret left out of the batch as it reads now).
    const byId = new Map(changes.map((change, index) => [change.id, written[index]!]));
    try {
      const update = await Promise.all(
        items.map(async (item) => {
          const setting = this.#requireSetting(item.id);
          const state = byId.get(item.id);
          return state === undefined ? this.#read(level, setting) : this.#item(setting, state.setting, level);
        }),
      );
      return new RestResponse({ update });
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  async #history(request: RestRequest): Promise<RestResponse> {
    const settingId = request.get('setting_id');
    if (typeof settingId === 'string') this.#requireSetting(settingId);
    const level = await this.#level(request);
    const page = request.get('page') as number;
    const perPage = request.get('per_page') as number;
    try {
      const entries = await level.getHistory(typeof settingId === 'string' ? { settingId } : {});
      const start = (page - 1) * perPage;
      return new RestResponse(
        entries.slice(start, start + perPage),
        200,
        paginationHeaders(entries.length, perPage),
      );
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  /** The level the request addresses, once `canAccessScope` allowed it. */
  async #level(request: RestRequest): Promise<ScopedSettings> {
    const scope = await accessedScope(request, this.#settings.getId());
    return this.#settings.level(scope);
  }

  /** The item of `setting` at `level`, as `prepareSettingItem` shapes it. */
  async #read(level: ScopedSettings, setting: Framework_Setting): Promise<SettingObject> {
    return this.#item(setting, await level.getSettingObject(setting.getId()), level);
  }

  /** The item of `setting` as `prepareSettingItem` shapes it, with the value (and scope, origin) of `object`. */
  #item(setting: Framework_Setting, object: SettingObject, level: ScopedSettings): SettingObject {
    const item = { ...this.prepareSettingItem(setting), value: object.value };
    if (level.path === '') return item;
    return { ...item, scope: object.scope, origin: object.origin };
  }

  /**
   * The item of `setting` as {@link #item} builds it, as JSON text serialised once per value:
   * for the global level, when `prepareSettingItem` is the package's, the text is kept until the
   * value (compared by identity: stored values are frozen) or the control changes.
   */
  #itemBody(
    setting: Framework_Setting,
    object: SettingObject,
    level: ScopedSettings,
  ): SettingObject | JsonText {
    if (
      level.path !== '' ||
      this.prepareSettingItem !== Framework_REST_API_Settings.prototype.prepareSettingItem
    ) {
      return this.#item(setting, object, level);
    }
    const revision = setting.getControl()?.revision ?? -1;
    const kept = this.#itemTexts.get(setting);
    if (kept !== undefined && Object.is(kept.value, object.value) && kept.revision === revision)
      return kept.json;
    const json = new JsonText(JSON.stringify(this.#item(setting, object, level)));
    this.#itemTexts.set(setting, { value: object.value, revision, json });
    return json;
  }

  /** The answer of a successful write of one setting: the Setting object as this write left it, with its tag. */
  #answerWritten(setting: Framework_Setting, written: DescribedSetting, level: ScopedSettings): RestResponse {
    return new RestResponse(this.#item(setting, written.setting, level), 200, { ETag: written.etag });
  }

  /** The answer of a write that changed nothing (a secret's mask sent back): the setting as it reads. */
  async #written(level: ScopedSettings, setting: Framework_Setting): Promise<RestResponse> {
    try {
      const tag = await level.getETag(setting.getId());
      return new RestResponse(await this.#read(level, setting), 200, { ETag: tag });
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  /** 412 when `ifMatch` does not name the current state (a write that changes nothing must still honour it). */
  async #assertMatches(level: ScopedSettings, setting: Framework_Setting, ifMatch: string): Promise<void> {
    const tag = await level.getETag(setting.getId());
    const stored = (await level.getOwnValue(setting.getId())) !== null;
    if (!ifMatchHolds(ifMatch, tag, stored)) {
      throw preconditionFailed(tag);
    }
  }

  #requireSetting(id: string): Framework_Setting {
    const setting = this.#settings.getSetting(id);
    if (!setting) throw settingNotFound(id, this.#settings.getId());
    return setting;
  }
}
