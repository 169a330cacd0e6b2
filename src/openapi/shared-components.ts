import { Framework_REST_API_Settings } from '../rest/settings-controller';
import { Framework_Abstract_Settings } from '../settings/abstract-settings';
import { MemoryOptionStore } from '../storage/memory-option-store';
import type { JsonSchema, OpenApiDocument, OpenApiResponse } from './openapi-types';
import { toJsonSchema } from './to-json-schema';

/** The name of the bearer security scheme. */
export const BEARER_SCHEME = 'bearerAuth';

/** A reference to a shared schema. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
/** A reference to a shared response. */
export const responseRef = (name: string): OpenApiResponse => ({ $ref: `#/components/responses/${name}` });

/** The error body of every REST error. */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A REST error: a machine-readable code, a message for humans, and the HTTP status in data.',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string', description: 'Machine-readable error code, e.g. rest_invalid_param.' },
    message: { type: 'string', description: 'What was wrong, for a human.' },
    data: {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'integer', description: 'The HTTP status of the answer.' },
        params: {
          description:
            'rest_missing_callback_param: the missing names; rest_invalid_param: a message per argument.',
          type: ['array', 'object'],
        },
        details: {
          type: 'object',
          description: 'rest_invalid_param: {code, message} per argument.',
          additionalProperties: {
            type: 'object',
            properties: { code: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
      additionalProperties: true,
    },
  },
};

/** The error responses routes share, by component name: status and the codes it carries. */
export const ERROR_RESPONSES = {
  BadRequest: {
    status: '400',
    description:
      'Invalid request: rest_invalid_json (body not a UTF-8 JSON object, or nested deeper than 64 levels), ' +
      'rest_missing_callback_param (a required argument is missing), rest_invalid_param (an argument is invalid), ' +
      'rest_setting_value_invalid (the settings handler rejected the value).',
  },
  Unauthorized: {
    status: '401',
    description: 'rest_forbidden: the route needs an authenticated user (Authorization: Bearer <token>).',
  },
  Forbidden: { status: '403', description: 'rest_forbidden: the authenticated user may not do this.' },
  NotFound: {
    status: '404',
    description:
      'rest_no_route (no route matches the path, e.g. a path parameter of the wrong type) or ' +
      'rest_setting_not_found (no such setting).',
  },
  PayloadTooLarge: {
    status: '413',
    description: 'rest_body_too_large: the body is larger than the server accepts (counted while reading).',
  },
  UnsupportedMediaType: {
    status: '415',
    description: 'rest_unsupported_media_type: a body was sent with a Content-Type other than JSON.',
  },
  InternalError: {
    status: '500',
    description: 'rest_internal_error: something failed on the server (no details are given).',
  },
  StoreUnavailable: {
    status: '503',
    description: 'rest_store_unavailable: the settings store failed or timed out; try again later.',
  },
} as const;

/** The name of a shared error response. */
export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/** A settings handler with no settings: only its controller's item schema is read. */
class NoSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {}
}

/** The Setting object's schema, from the settings controller's draft-04 item schema. */
export function settingSchema(): JsonSchema {
  const controller = new Framework_REST_API_Settings(new NoSettings('openapi', new MemoryOptionStore()));
  return toJsonSchema(controller.getItemSchema());
}

/** The document's `components`: the Setting and Error schemas, the shared error responses, the bearer scheme. */
export function sharedComponents(): OpenApiDocument['components'] {
  const responses: Record<string, OpenApiResponse> = {};
  for (const [name, { description }] of Object.entries(ERROR_RESPONSES)) {
    responses[name] = {
      description,
      content: { 'application/json': { schema: schemaRef('Error') } },
    };
  }
  return {
    schemas: { Setting: settingSchema(), Error: ERROR_SCHEMA },
    responses,
    securitySchemes: {
      [BEARER_SCHEME]: {
        type: 'http',
        scheme: 'bearer',
        description: "The host's token; the server's `authenticate` decides who it stands for.",
      },
    },
  };
}
