import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import { MASKED_VALUE } from '../../settings/secrets/mask';
import type { Framework_Setting } from '../../settings/setting';
import { SETTING_TYPE_DEFINITIONS } from '../../settings/setting-types';
import { PAGINATION_HEADERS } from '../controller-docs';
import { catalogueErrorDoc } from '../errors/error-docs';
import {
  componentRef,
  type DocSchema,
  type EndpointDocs,
  type EndpointVariant,
  type ErrorDoc,
  type HeaderDoc,
  type ResponseDoc,
} from '../registry/endpoint-docs';

/** The members every Setting object has (CONTRACT §5). */
export const SETTING_OBJECT_MEMBERS = [
  'id',
  'type',
  'name',
  'description',
  'is_multi',
  'options',
  'default',
  'value',
  'control',
] as const;

/** The component name of the generic Setting object (any setting). */
export const SETTING_COMPONENT = 'Setting';

/** Any JSON value but `null`: the value of an `object` setting. */
const NON_NULL_JSON: DocSchema = {
  type: ['object', 'array', 'string', 'number', 'boolean'],
  items: {},
  additionalProperties: true,
};

/** The JSON Schema of one value of each setting type: the type table's fragment, made exact. */
const ELEMENT_SCHEMAS: Readonly<Record<string, DocSchema>> = {
  // A URL is stored as given: it starts with http:// or https:// in any case.
  url: { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$' },
  email: { minLength: 6, maxLength: 254 },
  integer: { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
  object: NON_NULL_JSON,
};

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
  description: 'Not modified: `If-None-Match` names the current state. No body.',
  headers: ETAG_HEADERS,
};
const PRECONDITION_FAILED: ErrorDoc = catalogueErrorDoc('rest_precondition_failed');
function unsupported(feature: string): ErrorDoc {
  return catalogueErrorDoc('rest_unsupported_by_store', {
    when: `the settings store cannot do ${feature} (it lacks the optional OptionStore capabilities).`,
  });
}
const BATCH_REJECTED: ErrorDoc = catalogueErrorDoc('rest_batch_rejected');

/** The component name of a history entry. */
export const HISTORY_ENTRY_COMPONENT = 'SettingHistoryEntry';

/** A history entry (CONTRACT §9); `old`/`new` as given, or typed by one setting. */
function historyEntrySchema(values: DocSchema, settingId?: string): DocSchema {
  return {
    type: 'object',
    description: 'One accepted change of a stored value; secrets masked.',
    required: ['id', 'at', 'setting_id', 'scope', 'action', 'old', 'new', 'actor', 'via'],
    properties: {
      id: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      setting_id: settingId === undefined ? { type: 'string' } : { type: 'string', const: settingId },
      scope: { type: ['string', 'null'] },
      action: { type: 'string', enum: ['update', 'delete'] },
      old: values,
      new: values,
      actor: {
        anyOf: [
          { type: 'object', required: ['id'], properties: { id: { type: ['string', 'integer'] } } },
          { type: 'null' },
        ],
      },
      via: { type: 'string', enum: ['rest', 'admin', 'api'] },
    },
  };
}

const ANY_VALUE: DocSchema = {
  type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
  items: {},
  additionalProperties: true,
};

function historyAnswers(schema: DocSchema, description: string): EndpointDocs {
  return {
    responses: [
      { status: 200, description, schema: { type: 'array', items: schema }, headers: PAGINATION_HEADERS },
    ],
    errors: [unsupported('history'), STORE_UNAVAILABLE],
  };
}

const SETTING_NOT_FOUND: ErrorDoc = catalogueErrorDoc('rest_setting_not_found');

/** The component name of one setting's Setting object: `<pluginId>.settings.<settingId>`. */
export function settingComponentName(pluginId: string, settingId: string): string {
  return `${pluginId}.settings.${settingId}`;
}

function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The schema of one element of a setting's value: its type, exact rules and `enum` of its options. */
export function settingElementSchema(setting: Framework_Setting): DocSchema {
  const type = setting.getType();
  const schema: Record<string, unknown> = {
    ...SETTING_TYPE_DEFINITIONS.get(type)?.jsonSchema,
    ...ELEMENT_SCHEMAS[type],
  };
  const options = setting.getOptions();
  if (options.length > 0) schema.enum = copy(options);
  return schema;
}

/**
 * The JSON Schema of a setting's whole value, as a write must send it and as reads answer it
 * (never `null`): one element (type, formats, `enum` of the options), or for a multi setting
 * an array of them; with the setting's name, description and default.
 */
export function settingValueSchema(setting: Framework_Setting): DocSchema {
  const element = settingElementSchema(setting);
  const exact: Record<string, unknown> = setting.isMulti() ? { type: 'array', items: element } : element;
  // A secret is write-only: writes send its value (or the mask read back, which changes
  // nothing), reads only ever show the mask; its default is never shown.
  const schema: Record<string, unknown> = setting.isSecret()
    ? { anyOf: [exact, MASK_SCHEMA], writeOnly: true }
    : exact;
  const name = setting.getName();
  if (name !== '') schema.title = name;
  const description = setting.getDescription();
  if (description !== '') schema.description = description;
  const fallback = setting.getDefault();
  if (!setting.isSecret() && fallback !== null && fallback !== undefined) schema.default = copy(fallback);
  return schema;
}

/** What a secret's value and default read as. */
const MASK_SCHEMA: DocSchema = {
  type: 'string',
  const: MASKED_VALUE,
  examples: [MASKED_VALUE],
  description: 'A secret: masked whenever a value (or default) exists.',
};

/** How a setting's value reads in a Setting object or the status report: its schema, or the mask for a secret. */
export function settingReadSchema(setting: Framework_Setting): DocSchema {
  if (setting.isSecret()) return MASK_SCHEMA;
  const {
    default: _default,
    title: _title,
    description: _description,
    ...bare
  } = settingValueSchema(setting);
  return bare;
}

/** `schema` or `null`. */
export function nullable(schema: DocSchema): DocSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

function controlSchema(setting: Framework_Setting): DocSchema {
  const control = setting.getControl();
  if (control === null) return { type: 'null', description: 'The setting has no control.' };
  return {
    type: 'object',
    description: 'How the setting is shown in forms.',
    required: ['type', 'name', 'description', 'options'],
    properties: {
      type: { type: 'string', const: control.getType() },
      name: { type: 'string' },
      description: { type: 'string' },
      options: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };
}

/**
 * The Setting object of one setting, exactly: `id`, `type` and `is_multi` as constants, its
 * options, default and value typed by its value schema, its control.
 */
export function settingObjectSchema(setting: Framework_Setting): DocSchema {
  const bare = settingReadSchema(setting);
  const value = setting.isSecret() ? bare : settingValueSchema(setting);
  const hasDefault = setting.getDefault() !== null && setting.getDefault() !== undefined;
  return {
    type: 'object',
    title: `Setting ${setting.getId()}`,
    description: setting.getDescription() || setting.getName() || `The setting ${setting.getId()}.`,
    required: [...SETTING_OBJECT_MEMBERS],
    properties: {
      id: { type: 'string', const: setting.getId() },
      type: { type: 'string', const: setting.getType() },
      name: { type: 'string' },
      description: { type: 'string' },
      is_multi: { type: 'boolean', const: setting.isMulti() },
      options: { type: 'array', items: settingElementSchema(setting) },
      default: hasDefault ? bare : { type: 'null' },
      value: hasDefault ? value : nullable(value),
      control: controlSchema(setting),
      scope: { type: 'string', description: 'With a `scope` argument: the scope the value is of.' },
      origin: {
        type: ['string', 'null'],
        description:
          'With a `scope` argument: where `value` comes from — a scope path, `""` for the global value, `null` for the default.',
      },
    },
  };
}

/** One sentence on a setting for an operation's description: its name, type and help text. */
function describeSetting(setting: Framework_Setting): string {
  const kind = `${setting.isMulti() ? 'a list of ' : ''}${setting.getType()}`;
  const name = setting.getName() || setting.getId();
  const help = setting.getDescription();
  return `the setting **${name}** (${kind}).${help === '' ? '' : ` ${help}`}`;
}

/**
 * The answers and errors of reading one setting, whose Setting object has `schema`: shared by
 * the template and each setting's own path.
 */
function readAnswers(schema: DocSchema, description: string): EndpointDocs {
  return {
    requestHeaders: { 'If-None-Match': IF_NONE_MATCH },
    responses: [{ status: 200, description, schema, headers: ETAG_HEADERS }, NOT_MODIFIED],
    errors: [STORE_UNAVAILABLE],
  };
}

/**
 * The answers and errors of deleting one setting's stored value, whose Setting object (as it
 * then reads) has `schema`.
 */
function deleteAnswers(schema: DocSchema, description: string): EndpointDocs {
  return {
    requestHeaders: { 'If-Match': IF_MATCH },
    responses: [{ status: 200, description, schema, headers: ETAG_HEADERS }],
    errors: [PRECONDITION_FAILED, unsupported('conditional writes'), STORE_UNAVAILABLE],
  };
}

/**
 * The answers and errors of writing one setting (`{"value": …}`), whose Setting object has
 * `schema`: shared by the template and each setting's own path. A `scope` argument, on
 * routes that have one, is a query parameter.
 */
function writeAnswers(schema: DocSchema, description: string): EndpointDocs {
  return {
    queryArgs: ['scope'],
    requestHeaders: { 'If-Match': IF_MATCH },
    responses: [{ status: 200, description, schema, headers: ETAG_HEADERS }],
    errors: [VALUE_INVALID, PRECONDITION_FAILED, unsupported('conditional writes'), STORE_UNAVAILABLE],
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
  const components = (): Record<string, DocSchema> => {
    const schemas: Record<string, DocSchema> = { [SETTING_COMPONENT]: itemSchema() as DocSchema };
    for (const setting of settings.getSettings().values()) {
      schemas[settingComponentName(pluginId, setting.getId())] = settingObjectSchema(setting);
    }
    return schemas;
  };
  const ids = () => [...settings.getSettings().keys()];
  const variants = (docs: (setting: Framework_Setting, ref: DocSchema) => EndpointVariant['docs']) =>
    [...settings.getSettings().values()].map(
      (setting): EndpointVariant => ({
        params: { setting_id: setting.getId() },
        docs: docs(setting, componentRef(settingComponentName(pluginId, setting.getId()))),
      }),
    );

  /** A route of one setting: the template (any id, 404 for an unknown one) and one path per setting. */
  const oneSetting = (
    answers: (schema: DocSchema, description: string) => EndpointDocs,
    verb: string,
    what: string,
    own: (setting: Framework_Setting) => EndpointVariant['docs'],
  ): EndpointDocs => {
    const template = answers(componentRef(SETTING_COMPONENT), `The ${what}.`);
    return {
      ...template,
      summary: `${verb} one setting of ${pluginId}`,
      errors: [SETTING_NOT_FOUND, ...(template.errors ?? [])],
      schemas: components(),
      variants: variants((setting, ref) => ({
        ...answers(ref, `The ${what} ${setting.getId()}.`),
        summary: `${verb} the setting ${setting.getId()} of ${pluginId}`,
        ...own(setting),
      })),
    };
  };

  const itemRefs = (): DocSchema => {
    const refs = ids().map((id) => componentRef(settingComponentName(pluginId, id)));
    return refs.length > 0 ? { oneOf: refs } : componentRef(SETTING_COMPONENT);
  };
  const settingList = () => [...settings.getSettings().values()];

  return {
    list: () => {
      const refs = ids().map((id) => componentRef(settingComponentName(pluginId, id)));
      return {
        summary: `List the settings of ${pluginId}`,
        requestHeaders: { 'If-None-Match': IF_NONE_MATCH },
        description:
          'Every setting of the plugin as a Setting object, its value with the default applied. ' +
          'Each item is typed by its `id`.',
        responses: [
          {
            status: 200,
            description: 'Every setting, in registration order.',
            schema: {
              type: 'array',
              items: refs.length > 0 ? { oneOf: refs } : componentRef(SETTING_COMPONENT),
            },
            headers: ETAG_HEADERS,
          },
          NOT_MODIFIED,
        ],
        errors: [STORE_UNAVAILABLE],
        schemas: components(),
      };
    },
    remove: () =>
      oneSetting(deleteAnswers, 'Delete', 'setting as it now reads', (setting) => ({
        description: `Removes the stored value of ${describeSetting(setting)} It then reads as inherited, or as its default.`,
      })),
    batch: () => ({
      summary: `Update several settings of ${pluginId} at once`,
      description:
        'Stores every item in one atomic step, or none: each item is checked like a single write; when any is refused, nothing is stored and every refused item is listed.',
      queryArgs: ['scope'],
      argSchemas: {
        update: {
          type: 'array',
          minItems: 1,
          items: {
            oneOf: settingList().map((setting) => ({
              type: 'object',
              required: ['id', 'value'],
              properties: {
                id: { type: 'string', const: setting.getId() },
                value: settingValueSchema(setting),
              },
            })),
          },
        },
      },
      responses: [
        {
          status: 200,
          description: 'The stored settings, in request order.',
          schema: {
            type: 'object',
            required: ['update'],
            properties: { update: { type: 'array', items: itemRefs() } },
          },
        },
      ],
      errors: [BATCH_REJECTED, unsupported('atomic batches'), STORE_UNAVAILABLE],
      schemas: components(),
    }),
    history: () => ({
      ...historyAnswers(componentRef(HISTORY_ENTRY_COMPONENT), 'The entries of the level, newest first.'),
      summary: `The history of the settings of ${pluginId}`,
      description: 'Every accepted change at the level asked (`scope`), newest first, paged.',
      schemas: { [HISTORY_ENTRY_COMPONENT]: historyEntrySchema(ANY_VALUE) },
    }),
    settingHistory: () => ({
      ...historyAnswers(componentRef(HISTORY_ENTRY_COMPONENT), 'The entries of the setting, newest first.'),
      summary: `The history of one setting of ${pluginId}`,
      errors: [SETTING_NOT_FOUND, unsupported('history'), STORE_UNAVAILABLE],
      schemas: { [HISTORY_ENTRY_COMPONENT]: historyEntrySchema(ANY_VALUE) },
      variants: variants((setting) => ({
        ...historyAnswers(
          historyEntrySchema(nullable(settingReadSchema(setting)), setting.getId()),
          `The entries of ${setting.getId()}, newest first.`,
        ),
        summary: `The history of the setting ${setting.getId()} of ${pluginId}`,
      })),
    }),
    read: () =>
      oneSetting(readAnswers, 'Get', 'setting', (setting) => ({
        description: `Reads ${describeSetting(setting)}`,
      })),
    update: () =>
      oneSetting(writeAnswers, 'Update', 'updated setting', (setting) => ({
        description: `Writes ${describeSetting(setting)} PUT, POST and PATCH do the same.`,
        argSchemas: { value: settingValueSchema(setting) },
      })),
  };
}
