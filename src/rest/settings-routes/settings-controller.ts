import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import { CONTROL_TYPES } from '../../settings/control-types';
import { ifMatchHolds } from '../../settings/etag/entity-tag';
import { SettingsRulesError } from '../../settings/rules/rules-error';
import { type DescribedSetting, LevelView, type ScopedSettings } from '../../settings/scope/scoped-settings';
import { isMaskedEcho } from '../../settings/secrets/mask';
import type { Framework_Setting, SettingObject } from '../../settings/setting';
import { SETTING_TYPES } from '../../settings/setting-types';
import { BatchRejectedError } from '../../settings/writes/batch-rejected';
import type { SettingChange, WriteOptions } from '../../settings/writes/write-options';
import type { ArgSchema } from '../args/arg-schema';
import { invalidParamsError } from '../args/compiled-arg';
import { sharedArgs } from '../args/endpoint-args';
import type { BatchItemError } from '../errors/error-data';
import { restError } from '../errors/rest-error-factory';
import { JsonText } from '../http/json-text';
import type { RestRequest } from '../http/rest-request';
import { RestResponse } from '../http/rest-response';
import { paginationHeaders } from '../pagination';
import { requireManagement } from '../permissions';
import { lazyRouteDocs } from '../registry/library-route-docs';
import type { RouteRegistry } from '../registry/route-registry';
import { SettingsConfigRoutes } from './config-routes';
import { taggedAnswer } from './entity-tag-answer';
import { accessedScope, SCOPE_ARG } from './scope-argument';
import {
  batchItemError,
  preconditionFailed,
  ruleItemErrors,
  settingNotFound,
  toSettingReadError,
  toSettingRestError,
} from './setting-errors';
import { SETTING_OBJECT_MEMBERS } from './setting-schemas';

/** The JSON-Schema `$schema` of draft-04. */
export const JSON_SCHEMA_DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

/** The default of `createRestServer`'s `maxBatchItems`. */
export const DEFAULT_MAX_BATCH_ITEMS = 100;

const SETTING_ID_ARG = {
  type: 'string',
  required: true,
  description: 'The id of the setting.',
} as const;

const HISTORY_FIELDS: Record<string, ArgSchema> = {
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
const HISTORY_ARGS = sharedArgs({ ...HISTORY_FIELDS });
const SETTING_HISTORY_ARGS = sharedArgs({ setting_id: SETTING_ID_ARG, ...HISTORY_FIELDS });
const LIST_ARGS = sharedArgs({ scope: SCOPE_ARG });
const ONE_SETTING_ARGS = sharedArgs({ setting_id: SETTING_ID_ARG, scope: SCOPE_ARG });
const UPDATE_ARGS = sharedArgs({
  setting_id: SETTING_ID_ARG,
  value: {
    required: true,
    description:
      "The new value, typed per the setting's type (a number for integer and float, a boolean for boolean, any JSON value for object, an array for multi settings).",
  },
  scope: SCOPE_ARG,
});

const BATCH_ARGS = sharedArgs({
  update: {
    type: 'array',
    description: 'The settings to store together: `{id, value}` each, distinct ids.',
    items: {
      type: 'object',
      properties: { id: { type: 'string', required: true }, value: { description: 'The new value.' } },
    },
  },
  delete: {
    type: 'array',
    description: 'The settings whose stored value to remove in the same step (ids; not also in `update`).',
    items: { type: 'string' },
  },
  scope: SCOPE_ARG,
});

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
    // Built only when a document is generated (the OpenAPI entry installs the builders).
    const docsOf = lazyRouteDocs((docs) => docs.settings(this.#settings, () => this.getItemSchema()));
    routes.register(namespace, base, {
      methods: 'GET',
      permission,
      args: LIST_ARGS,
      handler: (request) => this.#listSettings(request),
      docs: docsOf('list'),
    });
    routes.register(namespace, `${base}/batch`, {
      methods: 'POST',
      permission,
      args: BATCH_ARGS,
      handler: (request) => this.#batch(request),
      docs: docsOf('batch'),
    });
    new SettingsConfigRoutes(this.#settings).registerRoutes(routes, namespace, base, permission);
    routes.register(namespace, `${base}/history`, {
      methods: 'GET',
      permission,
      args: HISTORY_ARGS,
      handler: (request) => this.#history(request),
      docs: docsOf('history'),
    });
    routes.register(namespace, `${base}/{setting_id}`, [
      {
        methods: 'GET',
        permission,
        args: ONE_SETTING_ARGS,
        handler: (request) => this.#getSetting(request),
        docs: docsOf('read'),
      },
      {
        methods: ['PUT', 'POST', 'PATCH'],
        permission,
        args: UPDATE_ARGS,
        handler: (request) => this.#updateSetting(request),
        docs: docsOf('update'),
      },
      {
        methods: 'DELETE',
        permission,
        args: ONE_SETTING_ARGS,
        handler: (request) => this.#deleteSetting(request),
        docs: docsOf('remove'),
      },
    ]);
    routes.register(namespace, `${base}/{setting_id}/history`, {
      methods: 'GET',
      permission,
      args: SETTING_HISTORY_ARGS,
      handler: (request) => this.#history(request),
      docs: docsOf('settingHistory'),
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
    // The scope first: a user refused the scope learns nothing of which setting ids exist.
    const scope = accessedScope(request, this.#settings.getId());
    if (typeof scope !== 'string') return this.#readSetting(request, this.#existingLevel(scope));
    const level = this.#existingLevel(scope);
    if (level instanceof Promise) return this.#readSetting(request, level);
    const setting = this.#requireSetting(request.get('setting_id') as string);
    const known = level instanceof LevelView ? level.peekSetting(setting.getId()) : undefined;
    if (known !== undefined) {
      return taggedAnswer(request, known.etag, this.#itemBody(setting, known.setting, level));
    }
    return this.#readSetting(request, level);
  }

  async #readSetting(
    request: RestRequest,
    existing: ScopedSettings | Promise<ScopedSettings>,
  ): Promise<RestResponse> {
    const level = await existing;
    const setting = this.#requireSetting(request.get('setting_id') as string);
    try {
      const tag = await level.getETag(setting.getId());
      const object = await level.getSettingObject(setting.getId());
      return taggedAnswer(request, tag, this.#itemBody(setting, object, level));
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  async #updateSetting(request: RestRequest): Promise<RestResponse> {
    const level = await this.#level(request);
    const setting = this.#requireSetting(request.get('setting_id') as string);
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
    const level = await this.#level(request);
    const setting = this.#requireSetting(request.get('setting_id') as string);
    let written: DescribedSetting;
    try {
      written = await level.deleteSetting(setting.getId(), writeOptions(request, true));
    } catch (error) {
      throw toSettingRestError(error, setting.getId());
    }
    return this.#answerWritten(setting, written, level);
  }

  async #batch(request: RestRequest): Promise<RestResponse> {
    const { items, deletes } = this.#batchItems(request);
    const ids = [...items.map((item) => item.id), ...deletes];
    const level = await this.#level(request);
    if (!this.#settings.storeCapabilities().atomicWrites) {
      throw restError(
        'rest_unsupported_by_store',
        'This store cannot apply a batch in one atomic step (it has no OptionStore.commit); write the settings one by one.',
        { feature: 'atomic batches' },
      );
    }

    const errors = new Map<string, BatchItemError>();
    const ruleProblems: BatchItemError[] = [];
    const changes: SettingChange[] = [];
    const unknown = (id: string) =>
      errors.set(id, {
        id,
        code: 'rest_setting_not_found',
        message: settingNotFound(id, this.#settings.getId()).message,
      });
    for (const item of items) {
      const setting = this.#settings.getSetting(item.id);
      if (setting === undefined) unknown(item.id);
      else if (item.value === undefined || item.value === null) {
        errors.set(item.id, {
          id: item.id,
          code: 'rest_missing_callback_param',
          message: 'Missing parameter(s): value',
        });
      } else if (!isMaskedEcho(setting.isSecret(), item.value)) {
        changes.push({ id: item.id, value: item.value });
      }
    }
    for (const id of deletes) {
      if (this.#settings.getSetting(id) === undefined) unknown(id);
      else changes.push({ id, delete: true });
    }
    const options = writeOptions(request, true);
    let written: DescribedSetting[] = [];
    try {
      if (errors.size > 0) await level.checkValues(changes, options);
      else written = await level.putSettings(changes, options);
    } catch (error) {
      if (error instanceof SettingsRulesError) {
        // The rules' problems go among the batch's errors, each at its setting.
        ruleProblems.push(...ruleItemErrors(error));
      } else if (error instanceof BatchRejectedError) {
        for (const failure of error.failures)
          errors.set(failure.id, batchItemError(failure.id, failure.error));
      } else throw toSettingRestError(error, '');
    }
    if (errors.size > 0 || ruleProblems.length > 0) {
      // The items' errors in request order, then the rules' problems.
      const list = [...ids.filter((id) => errors.has(id)).map((id) => errors.get(id)!), ...ruleProblems];
      throw restError(
        'rest_batch_rejected',
        ruleProblems.length > 0
          ? `The batch was not stored: the settings' rules found ${ruleProblems.length} problem${ruleProblems.length === 1 ? '' : 's'}.`
          : `The batch was not stored: ${list.length} of ${ids.length} items were refused.`,
        { errors: list },
      );
    }
    // Each item as this batch left it (a masked secret left out of the batch as it reads now).
    const byId = new Map(changes.map((change, index) => [change.id, written[index]!]));
    const answer = async (id: string) => {
      const setting = this.#requireSetting(id);
      const state = byId.get(id);
      return state === undefined ? this.#read(level, setting) : this.#item(setting, state.setting, level);
    };
    try {
      const update = await Promise.all(items.map((item) => answer(item.id)));
      const removed = await Promise.all(deletes.map(answer));
      return new RestResponse({ update, delete: removed });
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  /**
   * The batch's `update` and `delete` lists (CONTRACT §8 and the third round): at least one item
   * in all, at most `maxBatchItems` together, no id twice (within a list or across both).
   */
  #batchItems(request: RestRequest): { items: readonly BatchItem[]; deletes: readonly string[] } {
    const update = request.get('update') as readonly BatchItem[] | undefined;
    const remove = request.get('delete') as readonly string[] | undefined;
    const items = update ?? [];
    const deletes = remove ?? [];
    const max = request.server?.maxBatchItems ?? DEFAULT_MAX_BATCH_ITEMS;
    const list = update !== undefined || remove === undefined ? 'update' : 'delete';
    if (items.length + deletes.length === 0) {
      throw invalidParamsError({
        [list]: { code: 'rest_too_few_items', path: [list], params: { minItems: 1 } },
      });
    }
    if (items.length + deletes.length > max) {
      throw invalidParamsError({
        [list]: { code: 'rest_too_many_items', path: [list], params: { maxItems: max } },
      });
    }
    const seen = new Set<string>();
    const named: [string, number, string][] = [
      ...items.map((item, index): [string, number, string] => ['update', index, item.id]),
      ...deletes.map((id, index): [string, number, string] => ['delete', index, id]),
    ];
    for (const [name, index, id] of named) {
      if (seen.has(id)) {
        throw invalidParamsError({
          [name]: {
            code: 'rest_invalid_param',
            path: name === 'update' ? [name, index, 'id'] : [name, index],
            params: { reason: 'custom', message: `The batch names the setting "${id}" more than once.` },
          },
        });
      }
      seen.add(id);
    }
    return { items, deletes };
  }

  async #history(request: RestRequest): Promise<RestResponse> {
    const level = await this.#level(request);
    const settingId = request.get('setting_id');
    if (typeof settingId === 'string') this.#requireSetting(settingId);
    const page = request.get('page') as number;
    const perPage = request.get('per_page') as number;
    try {
      // One page, read from the store: whatever the log's length, a page costs what it holds.
      const { entries, total } = await level.getHistoryPage({
        ...(typeof settingId === 'string' ? { settingId } : {}),
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      return new RestResponse(entries, 200, paginationHeaders(total, perPage));
    } catch (error) {
      throw toSettingReadError(error);
    }
  }

  /** The level the request addresses, once `canAccessScope` allowed it and `scopeExists` found it. */
  async #level(request: RestRequest): Promise<ScopedSettings> {
    return this.#existingLevel(await accessedScope(request, this.#settings.getId()));
  }

  /**
   * The level of `scope`, once the settings' `scopeExists` found it — asked once per request
   * (404 `rest_scope_not_found` otherwise); at once, without a promise, when no check applies.
   */
  #existingLevel(scope: string | Promise<string>): ScopedSettings | Promise<ScopedSettings> {
    if (scope instanceof Promise) return scope.then((path) => this.#existingLevel(path));
    const level = this.#settings.level(scope);
    if (!(level instanceof LevelView)) return level;
    const verified = level.verified();
    if (!(verified instanceof Promise)) return verified;
    return verified.catch((error: unknown) => {
      throw toSettingReadError(error);
    });
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
