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
  rest_precondition_failed: { type: 'object', required: ['etag'], properties: { etag: { type: 'string' } } },
  rest_batch_rejected: {
    type: 'object',
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'code', 'message'],
          properties: {
            id: { type: 'string' },
            code: {
              type: 'string',
              enum: ['rest_setting_not_found', 'rest_missing_callback_param', 'rest_setting_value_invalid'],
            },
            message: { type: 'string' },
            details: { type: 'array', items: VALUE_ISSUE_SCHEMA },
          },
        },
      },
    },
  },
  rest_unsupported_by_store: {
    type: 'object',
    required: ['feature'],
    properties: { feature: { type: 'string' } },
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
