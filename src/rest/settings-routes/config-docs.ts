import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import { SETTINGS_DOCUMENT_FORMAT } from '../../settings/config/settings-document';
import type { PlanErrorCode } from '../../settings/config/settings-plan';
import { catalogueErrorDoc, problemItemSchema } from '../errors/error-doc-schemas';
import { componentRef, type DocSchema, type EndpointDocs } from '../registry/endpoint-docs';
import { settingValueComponentName, settingValueSchema } from './setting-schemas';

/** Every code of a plan's errors (CONTRACT §13). */
const PLAN_ERROR_CODES: readonly PlanErrorCode[] = [
  'setting_not_found',
  'value_invalid',
  'rule_failed',
  'scope_invalid',
  'scope_not_found',
  'secret_mismatch',
  'secret_in_clear',
  'env_missing',
  'secret_not_restorable',
  'history_too_short',
];

/** The schema names of a plugin's documents and plans in `components.schemas`. */
function names(pluginId: string) {
  const safe = pluginId.replace(/[^A-Za-z0-9._-]/g, '_');
  return { document: `SettingsDocument.${safe}`, plan: 'SettingsPlan', applied: 'SettingsPlanApplied' };
}

/** `{ "$secret": fingerprint }` or `{ "$env": "NAME" }`: how a secret appears in a document. */
const SECRET_REFERENCE: DocSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['$secret'],
      properties: {
        $secret: {
          type: 'string',
          description: 'The keyed fingerprint of the stored secret (kept when it matches).',
        },
      },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['$env'],
      properties: {
        $env: { type: 'string', description: 'The environment variable the value is read from on import.' },
      },
      additionalProperties: false,
    },
  ],
};

/** A plan, as `planImport`/`planRestore` give it and `applyPlan` takes it. */
const PLAN_SCHEMA: DocSchema = {
  type: 'object',
  required: ['plugin', 'id', 'changes', 'errors', 'preconditions', 'sealed'],
  properties: {
    plugin: { type: 'string' },
    id: { type: 'string', description: 'A digest of the changes and of every precondition (`plan_id`).' },
    changes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['scope', 'id', 'action', 'old', 'new'],
        properties: {
          scope: {
            type: ['string', 'null'],
            description: 'The level: a scope path, or null for the global level.',
          },
          id: { type: 'string' },
          action: { type: 'string', enum: ['set', 'delete'] },
          old: {
            description: 'The value stored when the plan was made (null: nothing); a secret is "********".',
          },
          new: { description: 'The value the plan stores (null for a delete); a secret is "********".' },
        },
      },
    },
    errors: {
      type: 'array',
      items: problemItemSchema({ type: 'string', enum: [...PLAN_ERROR_CODES] }, { scope: true }),
    },
    preconditions: {
      type: 'array',
      items: { type: ['string', 'null'] },
      description:
        'Per change: a keyed digest of the stored text the plan was made against (null: nothing stored).',
    },
    sealed: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: "Per change index: a secret's new value, sealed (never in clear).",
    },
  },
};

/** The answer of an applied plan. */
const APPLIED_SCHEMA: DocSchema = {
  type: 'object',
  required: ['plan', 'applied'],
  properties: { plan: componentRef('SettingsPlan'), applied: { type: 'integer', minimum: 0 } },
};

/**
 * The value schemas a settings document refers to, by component name: each setting's but a
 * secret's (the same components the settings routes declare).
 */
function valueSchemas(settings: Framework_Abstract_Settings): Record<string, DocSchema> {
  const schemas: Record<string, DocSchema> = {};
  for (const setting of settings.getSettings().values()) {
    if (!setting.isSecret()) {
      schemas[settingValueComponentName(settings.getId(), setting.getId())] = settingValueSchema(setting);
    }
  }
  return schemas;
}

/**
 * The settings document of one plugin: its levels' values typed per setting (a reference to
 * the setting's value schema), secrets by reference.
 */
function documentSchema(settings: Framework_Abstract_Settings): DocSchema {
  const values: Record<string, DocSchema> = {};
  for (const setting of settings.getSettings().values()) {
    values[setting.getId()] = setting.isSecret()
      ? { anyOf: [SECRET_REFERENCE, { type: 'null' }] }
      : {
          anyOf: [
            componentRef(settingValueComponentName(settings.getId(), setting.getId())),
            { type: 'null' },
          ],
        };
  }
  return {
    type: 'object',
    required: ['format', 'version', 'plugin', 'schema_version', 'levels'],
    properties: {
      format: { type: 'string', const: SETTINGS_DOCUMENT_FORMAT },
      version: { type: 'integer', const: 1 },
      plugin: { type: 'string', const: settings.getId() },
      schema_version: { type: 'integer', minimum: 1 },
      levels: {
        type: 'object',
        description:
          "'' is the global level; other keys are scope paths. A value null (on import) removes the stored one.",
        additionalProperties: { type: 'object', properties: values, additionalProperties: false },
      },
    },
  };
}

/** The documentation of the export, import and restore routes of one plugin. */
export function configRouteDocs(settings: Framework_Abstract_Settings): {
  export: () => EndpointDocs;
  import: () => EndpointDocs;
  restore: () => EndpointDocs;
} {
  const pluginId = settings.getId();
  const named = names(pluginId);
  const schemas = () => ({
    ...valueSchemas(settings),
    [named.document]: documentSchema(settings),
    [named.plan]: PLAN_SCHEMA,
    [named.applied]: APPLIED_SCHEMA,
  });
  const store = settings.storeCapabilities();
  /** 501 when the store lacks `commit` (applying) or a way to list its keys (finding the levels). */
  const unsupported = (needsHistory: boolean) =>
    store.atomicWrites && store.listing && (store.history || !needsHistory)
      ? []
      : [
          catalogueErrorDoc('rest_unsupported_by_store', {
            when: `the settings store cannot ${needsHistory ? 'read its history, ' : ''}list its stored levels or apply a plan atomically (it lacks optional OptionStore capabilities).`,
          }),
        ];
  const unavailable = catalogueErrorDoc('rest_store_unavailable');
  const outdated = catalogueErrorDoc('rest_schema_outdated');
  const planAnswers = () => ({
    schemas: schemas(),
    responses: [
      {
        status: 200,
        description:
          'With `dry_run`: the plan (even with errors). Else the plan, applied in one atomic step.',
        schema: { oneOf: [componentRef(named.plan), componentRef(named.applied)] },
      },
    ],
  });
  const planErrors = (needsHistory: boolean) => [
    catalogueErrorDoc('rest_plan_invalid'),
    catalogueErrorDoc('rest_setting_rules_failed', {
      when: "the settings' rules refuse the result at the apply (a value they read changed since the plan was made).",
    }),
    catalogueErrorDoc('rest_precondition_failed', {
      when: "`plan_id` is not the fresh plan's id, or a planned key changed before the apply: `data.plan` is the fresh plan.",
    }),
    outdated,
    ...unsupported(needsHistory),
    unavailable,
  ];
  return {
    export: () => ({
      summary: `Export the settings of ${pluginId}`,
      description:
        'Every stored value (no defaults) of every level the user may reach, as a settings document: levels and ids in a fixed order, secrets only as `{"$secret": fingerprint}`.',
      schemas: schemas(),
      responses: [
        { status: 200, description: 'The settings document.', schema: componentRef(named.document) },
      ],
      errors: [
        outdated,
        ...(store.listing
          ? []
          : [
              catalogueErrorDoc('rest_unsupported_by_store', {
                when: 'the settings store cannot list its stored levels (it has neither `scan` nor `listKeys`).',
              }),
            ]),
        unavailable,
      ],
    }),
    import: () => ({
      summary: `Import a settings document into ${pluginId}`,
      description:
        'Plans the changes that bring the stored settings to `document` (an older document is migrated first; every value checked as a write would be), and applies them unless `dry_run`.',
      ...planAnswers(),
      argSchemas: { document: componentRef(named.document) },
      errors: planErrors(false),
    }),
    restore: () => ({
      summary: `Restore the settings of ${pluginId} to a point in their history`,
      description:
        "Plans the changes that bring the named values back to what they were at `to` (rebuilt from history, migrated to today's schema), and applies them unless `dry_run`.",
      ...planAnswers(),
      errors: [catalogueErrorDoc('rest_history_not_found'), ...planErrors(true)],
    }),
  };
}
