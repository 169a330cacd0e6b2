import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import type { Framework_Setting } from '../../settings/setting';
import { PAGINATION_HEADERS } from '../controller-docs';
import { catalogueErrorDoc } from '../errors/error-doc-schemas';
import {
  componentRef,
  type DocSchema,
  type EndpointDocs,
  type EndpointVariant,
  type ErrorDoc,
  type HeaderDoc,
  type ResponseDoc,
} from '../registry/endpoint-docs';
import {
  HISTORY_ENTRY_COMPONENT,
  SETTING_COMPONENT,
  settingComponentName,
  settingHistoryEntrySchema,
  settingSchemaComponents,
  settingUnionComponentName,
  settingValueComponentName,
} from './setting-schemas';

// The settings controller reads the Setting object's members here, next to its routes' docs.
export { SETTING_OBJECT_MEMBERS } from './setting-schemas';

const STORE_UNAVAILABLE: ErrorDoc = catalogueErrorDoc('rest_store_unavailable');
const VALUE_INVALID: ErrorDoc = catalogueErrorDoc('rest_setting_value_invalid');
const ETAG_HEADERS: Readonly<Record<string, HeaderDoc>> = {
  ETag: {
    description:
      'A strong entity tag naming the stored state: the same in every instance, new with every change, revealing nothing about a secret.',
    required: true,
  },
};
const IF_NONE_MATCH: HeaderDoc = {
  description:
    'An entity tag (or several): when it names the current state, the answer is 304 without a body.',
};
const IF_MATCH: HeaderDoc = {
  description:
    'Write only when the current state matches: `*` (a value is stored) or one or more entity tags. Otherwise 412 and nothing is stored; the comparison and the write are one atomic step.',
};
const NOT_MODIFIED: ResponseDoc = {
  status: 304,
  component: 'not_modified_304',
  description: 'Not modified: `If-None-Match` names the current state. No body.',
  headers: ETAG_HEADERS,
};
const PRECONDITION_FAILED: ErrorDoc = catalogueErrorDoc('rest_precondition_failed');
function unsupported(feature: string): ErrorDoc {
  return catalogueErrorDoc('rest_unsupported_by_store', {
    when: `the settings store cannot do ${feature} (it lacks the optional OptionStore capabilities).`,
  });
}
const BATCH_REJECTED: ErrorDoc = catalogueErrorDoc('rest_batch_rejected', {
  when: 'at least one item of the batch was refused (its value, its id), or the rules across settings refused the values the batch would leave (`rest_setting_rule_failed`); nothing was stored.',
});
/**
 * 404 for a `scope` the settings' `scopeExists` option refuses. The settings do not tell
 * whether they have that option, so every route taking `scope` lists it.
 */
const SCOPE_NOT_FOUND: ErrorDoc = catalogueErrorDoc('rest_scope_not_found', {
  when: "the `scope` asked for does not exist (only with the settings' `scopeExists` option; asked after the permission checks).",
});
/** 409 on every write: the stored settings are at another schema version (CONTRACT §11). */
const SCHEMA_OUTDATED: ErrorDoc = catalogueErrorDoc('rest_schema_outdated');
/** 400 on a single write or DELETE refused by the settings' rules (CONTRACT §12). */
const RULES_FAILED: ErrorDoc = catalogueErrorDoc('rest_setting_rules_failed', {
  when: "the settings' `rules` refused the values the write would leave (`data.errors`, one problem per setting); nothing was stored.",
});
const BATCH_PRECONDITION_FAILED: ErrorDoc = catalogueErrorDoc('rest_precondition_failed', {
  when: '`If-Match` does not name the current `ETag` of `GET …/settings` at that scope (a setting changed since); nothing was stored.',
});
const BATCH_IF_MATCH: HeaderDoc = {
  component: 'If-Match.settings',
  description:
    'Store the batch only when `GET …/settings` (at the same `scope`) still has this entity tag: `*` always matches. Otherwise 412 and nothing is stored.',
};

/** What the settings' store offers (`storeCapabilities()`): a 501 is documented only where it lacks something. */
interface StoreFacts {
  readonly atomicWrites: boolean;
  readonly history: boolean;
}

/** 501 `rest_unsupported_by_store` when the store lacks what `feature` needs, else nothing. */
function unsupportedUnless(available: boolean, feature: string): ErrorDoc[] {
  return available ? [] : [unsupported(feature)];
}

function historyAnswers(schema: DocSchema, description: string, store: StoreFacts): EndpointDocs {
  return {
    responses: [
      { status: 200, description, schema: { type: 'array', items: schema }, headers: PAGINATION_HEADERS },
    ],
    errors: [SCOPE_NOT_FOUND, ...unsupportedUnless(store.history, 'history'), STORE_UNAVAILABLE],
  };
}

const SETTING_NOT_FOUND: ErrorDoc = catalogueErrorDoc('rest_setting_not_found');

/**
 * A setting as an operation's description names it: its label and type (its help text is the
 * description of its Setting object and value schemas, written once).
 */
function describeSetting(setting: Framework_Setting): string {
  const kind = `${setting.isMulti() ? 'a list of ' : ''}${setting.getType()}`;
  return `**${setting.getName() || setting.getId()}** (${kind})`;
}

/**
 * The answers and errors of reading one setting, whose Setting object `answer` gives: shared by
 * the template and each setting's own path.
 */
function readAnswers(answer: ResponseDoc): EndpointDocs {
  return {
    requestHeaders: { 'If-None-Match': IF_NONE_MATCH },
    responses: [answer, NOT_MODIFIED],
    errors: [SCOPE_NOT_FOUND, STORE_UNAVAILABLE],
  };
}

/**
 * The errors of every write of one setting (PUT, POST, PATCH and DELETE): the rules, an unknown
 * scope, another schema version, `If-Match`, the store.
 */
function writeErrors(store: StoreFacts): ErrorDoc[] {
  return [
    RULES_FAILED,
    SCOPE_NOT_FOUND,
    SCHEMA_OUTDATED,
    PRECONDITION_FAILED,
    ...unsupportedUnless(store.atomicWrites, 'conditional writes'),
    STORE_UNAVAILABLE,
  ];
}

/** The answers and errors of deleting one setting's stored value (`answer`: the Setting object as it then reads). */
function deleteAnswers(answer: ResponseDoc, store: StoreFacts): EndpointDocs {
  return { requestHeaders: { 'If-Match': IF_MATCH }, responses: [answer], errors: writeErrors(store) };
}

/**
 * The answers and errors of writing one setting (`{"value": …}`; `answer`: the Setting object
 * as it then reads): shared by the template and each setting's own path. A `scope` argument,
 * on routes that have one, is a query parameter.
 */
function writeAnswers(answer: ResponseDoc, store: StoreFacts): EndpointDocs {
  return {
    queryArgs: ['scope'],
    requestHeaders: { 'If-Match': IF_MATCH },
    responses: [answer],
    errors: [VALUE_INVALID, ...writeErrors(store)],
  };
}

/** The documentation of the settings routes of one plugin, as their endpoints declare it. */
export interface SettingsRouteDocs {
  /** `GET …/settings`. */
  list(): EndpointDocs;
  /** `GET …/settings/{setting_id}`: one concrete path per setting. */
  read(): EndpointDocs;
  /** `PUT`, `POST`, `PATCH …/settings/{setting_id}`: one concrete path per setting, the body typed per setting. */
  update(): EndpointDocs;
  /** `DELETE …/settings/{setting_id}`. */
  remove(): EndpointDocs;
  /** `POST …/settings/batch`: items typed per id. */
  batch(): EndpointDocs;
  /** `GET …/settings/history`. */
  history(): EndpointDocs;
  /** `GET …/settings/{setting_id}/history`: one concrete path per setting. */
  settingHistory(): EndpointDocs;
}

/**
 * The documentation of a plugin's settings routes, built when the document is generated from
 * the settings registered then: one concrete path per setting (`…/settings/max_retries`)
 * whose body and answer are typed by that setting, a component per setting
 * (`<pluginId>.settings.<settingId>`), and the generic `Setting` (from `itemSchema`).
 *
 * @param settings - the plugin's settings handler
 * @param itemSchema - the controller's `getItemSchema()` (draft-04), the generic `Setting`
 */
export function settingsRouteDocs(
  settings: Framework_Abstract_Settings,
  itemSchema: () => object,
): SettingsRouteDocs {
  const pluginId = settings.getId();
  const components = (): Record<string, DocSchema> => settingSchemaComponents(settings, itemSchema());
  const valueRef = (setting: Framework_Setting) =>
    componentRef(settingValueComponentName(pluginId, setting.getId()));
  const ids = () => [...settings.getSettings().keys()];
  const variants = (docs: (setting: Framework_Setting, ref: DocSchema) => EndpointVariant['docs']) =>
    [...settings.getSettings().values()].map(
      (setting): EndpointVariant => ({
        params: { setting_id: setting.getId() },
        docs: docs(setting, componentRef(settingComponentName(pluginId, setting.getId()))),
      }),
    );

  /**
   * A route of one setting: the template (any id, 404 for an unknown one) and one path per
   * setting, each answering the setting's object with its `ETag` — the same answer for its GET,
   * writes and DELETE, named after the setting in `components.responses`.
   */
  const oneSetting = (
    answers: (answer: ResponseDoc, store: StoreFacts) => EndpointDocs,
    verb: string,
    own: (setting: Framework_Setting) => EndpointVariant['docs'],
  ): EndpointDocs => {
    const store = settings.storeCapabilities();
    const template = answers(
      {
        status: 200,
        description: 'The setting as it then reads.',
        schema: componentRef(SETTING_COMPONENT),
        headers: ETAG_HEADERS,
      },
      store,
    );
    return {
      ...template,
      summary: `${verb} one setting of ${pluginId}`,
      errors: [SETTING_NOT_FOUND, ...(template.errors ?? [])],
      schemas: components(),
      variants: variants((setting, ref) => ({
        ...answers(
          {
            status: 200,
            description: `The setting ${setting.getId()} as it then reads.`,
            schema: ref,
            headers: ETAG_HEADERS,
            component: settingComponentName(pluginId, setting.getId()),
          },
          store,
        ),
        summary: `${verb} the setting ${setting.getId()} of ${pluginId}`,
        ...own(setting),
      })),
    };
  };

  /** Any Setting object of the plugin, typed by its `id`: the list's and the batch's items. */
  const itemRefs = (): DocSchema =>
    ids().length > 0 ? componentRef(settingUnionComponentName(pluginId)) : componentRef(SETTING_COMPONENT);
  const settingList = () => [...settings.getSettings().values()];

  return {
    list: () => ({
      summary: `List the settings of ${pluginId}`,
      requestHeaders: { 'If-None-Match': IF_NONE_MATCH },
      description:
        'Every setting of the plugin as a Setting object, its value with the default applied. ' +
        'Each item is typed by its `id`.',
      responses: [
        {
          status: 200,
          description: 'Every setting, in registration order.',
          schema: { type: 'array', items: itemRefs() },
          headers: ETAG_HEADERS,
        },
        NOT_MODIFIED,
      ],
      errors: [SCOPE_NOT_FOUND, STORE_UNAVAILABLE],
      schemas: components(),
    }),
    remove: () =>
      oneSetting(deleteAnswers, 'Delete', (setting) => ({
        description: `Removes the stored value of ${describeSetting(setting)}: it then reads as inherited, or as its default.`,
      })),
    batch: () => {
      const settingIds = ids();
      return {
        summary: `Update several settings of ${pluginId} at once`,
        description:
          'Stores every `update` and removes the stored value of every `delete` in one atomic step, or does nothing: ' +
          'at least one item in all, each id once (in one list); each item is checked like a single write, ' +
          'and the rules across settings run once on the result. When anything is refused, nothing is stored ' +
          'and every refused item is listed.',
        queryArgs: ['scope'],
        requestHeaders: { 'If-Match': BATCH_IF_MATCH },
        argSchemas: {
          update: {
            type: 'array',
            description: 'The settings to store: `{id, value}` each, the value typed by its setting.',
            items: {
              oneOf: settingList().map((setting) => ({
                type: 'object',
                required: ['id', 'value'],
                properties: {
                  id: { type: 'string', const: setting.getId() },
                  value: valueRef(setting),
                },
              })),
            },
          },
          delete: {
            type: 'array',
            description:
              'The settings whose stored value to remove (they then read as inherited, or as their default).',
            uniqueItems: true,
            items: settingIds.length > 0 ? { type: 'string', enum: settingIds } : { type: 'string' },
          },
        },
        responses: [
          {
            status: 200,
            description:
              'Each setting of `update` and of `delete` as the batch left it, in request order (both lists always present).',
            schema: {
              type: 'object',
              required: ['update', 'delete'],
              properties: {
                update: { type: 'array', items: itemRefs() },
                delete: { type: 'array', items: itemRefs() },
              },
            },
          },
        ],
        errors: [
          BATCH_REJECTED,
          SCOPE_NOT_FOUND,
          SCHEMA_OUTDATED,
          BATCH_PRECONDITION_FAILED,
          ...unsupportedUnless(settings.storeCapabilities().atomicWrites, 'atomic batches'),
          STORE_UNAVAILABLE,
        ],
        schemas: components(),
      };
    },
    history: () => ({
      ...historyAnswers(
        componentRef(HISTORY_ENTRY_COMPONENT),
        'The entries of the level, newest first.',
        settings.storeCapabilities(),
      ),
      summary: `The history of the settings of ${pluginId}`,
      description: 'Every accepted change at the level asked (`scope`), newest first, paged.',
      schemas: components(),
    }),
    settingHistory: () => {
      const store = settings.storeCapabilities();
      const template = historyAnswers(
        componentRef(HISTORY_ENTRY_COMPONENT),
        'The entries of the setting, newest first.',
        store,
      );
      return {
        ...template,
        summary: `The history of one setting of ${pluginId}`,
        errors: [SETTING_NOT_FOUND, ...(template.errors ?? [])],
        schemas: components(),
        variants: variants((setting) => ({
          ...historyAnswers(
            settingHistoryEntrySchema(pluginId, setting),
            `The entries of ${setting.getId()}, newest first.`,
            store,
          ),
          summary: `The history of the setting ${setting.getId()} of ${pluginId}`,
        })),
      };
    },
    read: () =>
      oneSetting(readAnswers, 'Get', (setting) => ({
        description: `Reads ${describeSetting(setting)}.`,
      })),
    update: () =>
      oneSetting(writeAnswers, 'Update', (setting) => ({
        description: `Writes ${describeSetting(setting)}; PUT, POST and PATCH do the same.`,
        argSchemas: { value: valueRef(setting) },
        bodyComponent: settingComponentName(pluginId, setting.getId()),
      })),
  };
}
