import type { DocSchema, ErrorDoc } from '../registry/endpoint-docs';
import { REST_ERROR_CATALOGUE, type RestErrorCode } from './error-catalogue';

/** One issue of a refused setting value: `{path, code, message}` (zod's issue, see docs/errors.md). */
export const VALUE_ISSUE_SCHEMA: DocSchema = {
  type: 'object',
  required: ['path', 'code', 'message'],
  properties: {
    path: { type: 'array', items: { type: ['string', 'integer'] } },
    code: { type: 'string' },
    message: { type: 'string' },
  },
};

/**
 * One problem of a list (`errors` of a refused plan, batch or rule check): `{scope?, id, code,
 * message, details?}`, its `code` as `code` says.
 */
export function problemItemSchema(
  code: DocSchema,
  members: { readonly scope?: boolean; readonly details?: boolean } = {},
): DocSchema {
  return {
    type: 'object',
    required: [...(members.scope ? ['scope'] : []), 'id', 'code', 'message'],
    properties: {
      ...(members.scope ? { scope: { type: ['string', 'null'] } } : {}),
      id: { type: 'string' },
      code,
      message: { type: 'string' },
      ...(members.details ? { details: { type: 'array', items: VALUE_ISSUE_SCHEMA } } : {}),
    },
  };
}

/** `data` holding a list of problems: `{ errors: [item, …] }`. */
function problemListSchema(item: DocSchema): DocSchema {
  return { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: item } } };
}

/**
 * The JSON Schema of `data` (besides `status`) of the catalogue's codes that carry members, for
 * the OpenAPI document. Codes without members use the shared `Error` schema as it is.
 */
export const REST_ERROR_DATA_SCHEMAS: Readonly<Partial<Record<RestErrorCode, DocSchema>>> = {
  rest_body_too_large: {
    type: 'object',
    required: ['max_bytes'],
    properties: { max_bytes: { type: 'integer' } },
  },
  rest_setting_value_invalid: {
    type: 'object',
    required: ['params', 'setting_id', 'details'],
    properties: {
      params: {
        type: 'object',
        required: ['value'],
        properties: { value: { type: 'string' } },
        additionalProperties: { type: 'string' },
      },
      setting_id: { type: 'string' },
      details: { type: 'array', items: VALUE_ISSUE_SCHEMA },
    },
  },
  rest_precondition_failed: {
    oneOf: [
      { type: 'object', required: ['etag'], properties: { etag: { type: 'string' } } },
      {
        type: 'object',
        required: ['plan', 'conflicts'],
        properties: {
          plan: { $ref: '#/components/schemas/SettingsPlan' },
          conflicts: {
            type: 'array',
            items: {
              type: 'object',
              required: ['scope', 'id'],
              properties: { scope: { type: ['string', 'null'] }, id: { type: 'string' } },
            },
          },
        },
      },
    ],
  },
  rest_plan_invalid: problemListSchema(problemItemSchema({ type: 'string' }, { scope: true })),
  rest_batch_rejected: problemListSchema(
    problemItemSchema(
      {
        type: 'string',
        enum: [
          'rest_setting_not_found',
          'rest_missing_callback_param',
          'rest_setting_value_invalid',
          'rest_setting_rule_failed',
        ],
      },
      { details: true },
    ),
  ),
  rest_unsupported_by_store: {
    type: 'object',
    required: ['feature'],
    properties: { feature: { type: 'string' } },
  },
  rest_scope_not_found: { type: 'object', required: ['scope'], properties: { scope: { type: 'string' } } },
  rest_setting_rules_failed: problemListSchema(
    problemItemSchema({ type: 'string', enum: ['rest_setting_rule_failed'] }),
  ),
  rest_schema_outdated: {
    type: 'object',
    required: ['stored', 'schema_version'],
    properties: { stored: { type: 'integer' }, schema_version: { type: 'integer' } },
  },
};

/** What a use of a catalogue code may say beyond the catalogue: its status, when it happens there. */
export interface CatalogueErrorDocOptions {
  /** One of the code's statuses; default the first. */
  readonly status?: number;
  /** When it happens on this endpoint; default the catalogue's line. */
  readonly when?: string;
  /** Headers of the answer. */
  readonly headers?: ErrorDoc['headers'];
}

/**
 * The `ErrorDoc` of a catalogue code: its status, `code: when` as description, its `data`
 * schema. Every error the framework documents goes through here, so the OpenAPI document and
 * the catalogue cannot drift apart.
 */
export function catalogueErrorDoc(code: RestErrorCode, options: CatalogueErrorDocOptions = {}): ErrorDoc {
  const entry = REST_ERROR_CATALOGUE[code];
  const data = REST_ERROR_DATA_SCHEMAS[code];
  return {
    status: options.status ?? entry.status[0],
    codes: [code],
    description: `${code}: ${options.when ?? entry.when}`,
    ...(data === undefined ? {} : { data }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  };
}
