import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import type { WriteVia } from '../../settings/history/history-entry';
import { MASKED_VALUE } from '../../settings/secrets/mask';
import type { Framework_Setting } from '../../settings/setting';
import { SETTING_TYPE_DEFINITIONS } from '../../settings/setting-types';
import { componentRef, type DocSchema } from '../registry/endpoint-docs';

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

/** The component name of a history entry (any setting). */
export const HISTORY_ENTRY_COMPONENT = 'SettingHistoryEntry';

/** The component names of the `scope` and `origin` members of Setting objects (with a `scope` argument). */
const SCOPE_COMPONENT = 'SettingScope';
const ORIGIN_COMPONENT = 'SettingOrigin';

const SCOPE_SCHEMA: DocSchema = {
  type: 'string',
  description: 'With a `scope` argument: the scope the value is of.',
};
const ORIGIN_SCHEMA: DocSchema = {
  type: ['string', 'null'],
  description:
    'With a `scope` argument: where `value` comes from — a scope path, `""` for the global value, `null` for the default.',
};

/** Any JSON value but `null`: the value of an `object` setting. */
const NON_NULL_JSON: DocSchema = {
  type: ['object', 'array', 'string', 'number', 'boolean'],
  items: {},
  additionalProperties: true,
};

/** Any JSON value, `null` included: `old` and `new` of a history entry of any setting. */
const ANY_VALUE: DocSchema = {
  type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
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

/** What a secret's value and default read as. */
const MASK_SCHEMA: DocSchema = {
  type: 'string',
  const: MASKED_VALUE,
  examples: [MASKED_VALUE],
  description: 'A secret: masked whenever a value (or default) exists.',
};

/** Every way a write comes in (`WriteVia`), as history entries name it. */
const WRITE_VIAS = Object.keys({
  rest: true,
  admin: true,
  api: true,
  migration: true,
  import: true,
} satisfies Record<WriteVia, true>);

function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function hasDefault(setting: Framework_Setting): boolean {
  return setting.getDefault() !== null && setting.getDefault() !== undefined;
}

/** The component name of one setting's Setting object: `<pluginId>.settings.<settingId>`. */
export function settingComponentName(pluginId: string, settingId: string): string {
  return `${pluginId}.settings.${settingId}`;
}

/**
 * The component name of any Setting object of a plugin, a `oneOf` of its settings' objects
 * (a client narrows it by `id`): `<pluginId>.settings`.
 */
export function settingUnionComponentName(pluginId: string): string {
  return `${pluginId}.settings`;
}

/** The component name of one setting's value schema: `<pluginId>.settings.<settingId>.value`. */
export function settingValueComponentName(pluginId: string, settingId: string): string {
  return `${settingComponentName(pluginId, settingId)}.value`;
}

/**
 * The schema of one element of a setting's value: its type, exact rules and `enum` of its
 * options — except for a secret, whose options are never shown (they would say what its value
 * may be): its schema is the type's alone.
 */
export function settingElementSchema(setting: Framework_Setting): DocSchema {
  const type = setting.getType();
  const schema: Record<string, unknown> = {
    ...SETTING_TYPE_DEFINITIONS.get(type)?.jsonSchema,
    ...ELEMENT_SCHEMAS[type],
  };
  const options = setting.getOptions();
  if (options.length > 0 && !setting.isSecret()) schema.enum = copy(options);
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

/** The component name of what every control has (its `type` aside): {@link CONTROL_SCHEMA}. */
const CONTROL_COMPONENT = 'SettingControl';

/** What every control of a Setting object has; each setting's own schema makes its `type` a constant. */
const CONTROL_SCHEMA: DocSchema = {
  type: 'object',
  description: 'How the setting is shown in forms.',
  required: ['type', 'name', 'description', 'options'],
  properties: {
    type: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    options: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** The component name of what every Setting object has: {@link SETTING_BASE_SCHEMA}. */
const SETTING_BASE_COMPONENT = 'SettingBase';

/** The members of a Setting object that are the same for every setting. */
const SHARED_MEMBERS = ['name', 'description'] as const;

/**
 * What every Setting object has, whatever the setting: `name`, `description`, and with a
 * `scope` argument `scope` and `origin`. Each setting's component adds its own members to it
 * (`allOf`).
 */
const SETTING_BASE_SCHEMA: DocSchema = {
  type: 'object',
  description: 'The members every Setting object has; each setting types the others.',
  required: [...SHARED_MEMBERS],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    scope: componentRef(SCOPE_COMPONENT),
    origin: componentRef(ORIGIN_COMPONENT),
  },
};

/**
 * The control of a setting's Setting object: `null` without one; else a control with its
 * `type` a constant — inline, or as a reference to {@link CONTROL_SCHEMA} with its `type` bound
 * (`shared`). A secret's option labels are never shown: its control's `options` is `{}`.
 */
function controlSchema(setting: Framework_Setting, shared: boolean): DocSchema {
  const control = setting.getControl();
  if (control === null) return { type: 'null', description: 'The setting has no control.' };
  const type = control.getType();
  if (shared && !setting.isSecret()) {
    return { allOf: [componentRef(CONTROL_COMPONENT), { properties: { type: { const: type } } }] };
  }
  const properties = CONTROL_SCHEMA.properties as Record<string, DocSchema>;
  return {
    ...CONTROL_SCHEMA,
    properties: {
      ...properties,
      type: { type: 'string', const: type },
      options: setting.isSecret() ? { type: 'object', maxProperties: 0 } : properties.options,
    },
  };
}

/** The parts of a Setting object schema that may be given inline or as references. */
interface ObjectParts {
  /** How the value reads (a non-secret's value schema, or a reference to it). */
  readonly read: DocSchema;
  /** Whether the control refers to the shared control schema. */
  readonly sharedControl: boolean;
}

/** The members of a Setting object that each setting types: `id`, `type`, `is_multi`, `options`, `default`, `value`, `control`. */
function ownMembers(setting: Framework_Setting, parts: ObjectParts): Record<string, DocSchema> {
  const read = setting.isSecret() ? MASK_SCHEMA : parts.read;
  return {
    id: { type: 'string', const: setting.getId() },
    type: { type: 'string', const: setting.getType() },
    is_multi: { type: 'boolean', const: setting.isMulti() },
    // A secret's options are never shown: `[]`.
    options: setting.isSecret()
      ? { type: 'array', items: settingElementSchema(setting), maxItems: 0 }
      : { type: 'array', items: settingElementSchema(setting) },
    default: hasDefault(setting) ? read : { type: 'null' },
    value: hasDefault(setting) ? read : nullable(read),
    control: controlSchema(setting, parts.sharedControl),
  };
}

/** The title and description of a setting's Setting object schema. */
function objectHeading(setting: Framework_Setting): DocSchema {
  return {
    title: `Setting ${setting.getId()}`,
    description: setting.getDescription() || setting.getName() || `The setting ${setting.getId()}.`,
  };
}

/**
 * The Setting object of one setting, exactly: `id`, `type` and `is_multi` as constants, its
 * options, default and value typed by its value schema, its control. Self-contained (no
 * reference), for routes of your own.
 */
export function settingObjectSchema(setting: Framework_Setting): DocSchema {
  const own = ownMembers(setting, { read: settingValueSchema(setting), sharedControl: false });
  const { id, type, is_multi, options, ...rest } = own;
  return {
    type: 'object',
    ...objectHeading(setting),
    required: [...SETTING_OBJECT_MEMBERS],
    properties: {
      id,
      type,
      name: { type: 'string' },
      description: { type: 'string' },
      is_multi,
      options,
      ...rest,
      scope: SCOPE_SCHEMA,
      origin: ORIGIN_SCHEMA,
    },
  };
}

/**
 * The component of one setting's Setting object: {@link SETTING_BASE_SCHEMA} and the members
 * the setting types (its value a reference to its value schema, its control to the shared one).
 * Without a title or description of its own: the value schema it refers to has the setting's
 * name and description, and the component's name its id.
 */
function settingObjectComponent(pluginId: string, setting: Framework_Setting): DocSchema {
  const own = ownMembers(setting, {
    read: componentRef(settingValueComponentName(pluginId, setting.getId())),
    sharedControl: true,
  });
  return {
    allOf: [componentRef(SETTING_BASE_COMPONENT), { required: Object.keys(own), properties: own }],
  };
}

/** The component name of what every history entry has besides `old` and `new`. */
const HISTORY_BASE_COMPONENT = 'SettingHistoryEntryBase';

/** What every history entry (CONTRACT §9) has besides `old` and `new`, which each setting types. */
const HISTORY_BASE_SCHEMA: DocSchema = {
  type: 'object',
  description: 'One accepted change of a stored value; secrets masked.',
  required: ['id', 'at', 'setting_id', 'scope', 'action', 'actor', 'via'],
  properties: {
    id: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    setting_id: { type: 'string' },
    scope: { type: ['string', 'null'] },
    action: { type: 'string', enum: ['update', 'delete'] },
    actor: {
      anyOf: [
        { type: 'object', required: ['id'], properties: { id: { type: ['string', 'integer'] } } },
        { type: 'null' },
      ],
    },
    via: { type: 'string', enum: WRITE_VIAS },
  },
};

/**
 * A history entry with `old` and `new` of `values` (and `setting_id` the constant `settingId`):
 * the shared members (`setting_id` among them, required there), and these.
 */
function historyEntry(values: DocSchema, settingId?: string): DocSchema {
  return {
    allOf: [
      componentRef(HISTORY_BASE_COMPONENT),
      {
        required: ['old', 'new'],
        properties: {
          ...(settingId === undefined ? {} : { setting_id: { const: settingId } }),
          old: values,
          new: values,
        },
      },
    ],
  };
}

/**
 * A history entry of one setting: the shared members, its `setting_id` a constant and
 * `old`/`new` typed by the setting (or `null`; a secret's masked).
 */
export function settingHistoryEntrySchema(pluginId: string, setting: Framework_Setting): DocSchema {
  return historyEntry(
    nullable(
      setting.isSecret() ? MASK_SCHEMA : componentRef(settingValueComponentName(pluginId, setting.getId())),
    ),
    setting.getId(),
  );
}

/**
 * The schemas the settings routes of a plugin refer to, by component name: the generic
 * `Setting` (`itemSchema`), the history entry, any Setting object of the plugin
 * (`<pluginId>.settings`, the list's and the batch's items), and per setting its Setting object
 * (`<pluginId>.settings.<id>`) and its value (`<pluginId>.settings.<id>.value`) — each setting's
 * value schema written once and referred to by its Setting object, its writes, the batch, its
 * history and the status report.
 */
export function settingSchemaComponents(
  settings: Framework_Abstract_Settings,
  itemSchema: object,
): Record<string, DocSchema> {
  const pluginId = settings.getId();
  const schemas: Record<string, DocSchema> = {
    [SETTING_COMPONENT]: itemSchema as DocSchema,
    [HISTORY_BASE_COMPONENT]: HISTORY_BASE_SCHEMA,
    [HISTORY_ENTRY_COMPONENT]: historyEntry(ANY_VALUE),
    [SCOPE_COMPONENT]: SCOPE_SCHEMA,
    [ORIGIN_COMPONENT]: ORIGIN_SCHEMA,
    [SETTING_BASE_COMPONENT]: SETTING_BASE_SCHEMA,
    [CONTROL_COMPONENT]: CONTROL_SCHEMA,
  };
  const ids = [...settings.getSettings().keys()];
  if (ids.length > 0) {
    schemas[settingUnionComponentName(pluginId)] = {
      description: 'A Setting object of any setting of the plugin, typed by its `id`.',
      oneOf: ids.map((id) => componentRef(settingComponentName(pluginId, id))),
    };
  }
  for (const setting of settings.getSettings().values()) {
    const id = setting.getId();
    schemas[settingValueComponentName(pluginId, id)] = settingValueSchema(setting);
    schemas[settingComponentName(pluginId, id)] = settingObjectComponent(pluginId, setting);
  }
  return schemas;
}
