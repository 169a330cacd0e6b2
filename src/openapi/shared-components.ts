import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import { VALUE_ISSUE_SCHEMA } from '../rest/errors/error-docs';
import type { DocSchema } from '../rest/registry/endpoint-docs';
import type { JsonSchema, OpenApiDocument } from './openapi-types';
import { toJsonSchema } from './to-json-schema';

/** The name of the bearer security scheme. */
export const BEARER_SCHEME = 'bearerAuth';

const SCHEMA_PREFIX = '#/components/schemas/';
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/** A reference to a shared schema. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `${SCHEMA_PREFIX}${name}` });

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
      description: 'The HTTP status, and what else the error carries.',
      required: ['status'],
      properties: {
        status: { type: 'integer', description: 'The HTTP status of the answer.' },
        params: {
          description:
            'rest_missing_callback_param: the missing names; rest_invalid_param and rest_setting_value_invalid: a message per argument.',
          anyOf: [
            { type: 'array', items: { type: 'string' } },
            { type: 'object', additionalProperties: { type: 'string' } },
          ],
        },
        details: {
          description:
            "rest_invalid_param: {code, message, path, params} per argument; rest_setting_value_invalid: the value's issues [{path, code, message}].",
          anyOf: [
            {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['code', 'message', 'path', 'params'],
                properties: {
                  code: { type: 'string' },
                  message: { type: 'string' },
                  path: { type: 'array', items: { type: ['string', 'integer'] } },
                  params: { type: 'object' },
                },
              },
            },
            { type: 'array', items: toJsonSchema(VALUE_ISSUE_SCHEMA) },
          ],
        },
      },
      additionalProperties: true,
    },
  },
};

/** `{success: false, message}`: the reference envelope of a failure with a message (404 and others). */
const FAILURE_MESSAGE_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The envelope of a failure: what went wrong, for a human.',
  required: ['success', 'message'],
  properties: { success: { type: 'boolean', const: false }, message: { type: 'string' } },
};

/** `{success: false, errors}` with the schema of one error. */
export function validationFailureSchema(items: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description: 'The envelope of a validation failure found by the handler: one entry per problem.',
    required: ['success', 'errors'],
    properties: { success: { type: 'boolean', const: false }, errors: { type: 'array', items } },
  };
}

/** The names of the schemas the generator itself provides. */
export const BUILT_IN_SCHEMAS = {
  Error: ERROR_SCHEMA,
  FailureMessage: FAILURE_MESSAGE_SCHEMA,
  ValidationFailure: validationFailureSchema({}),
} as const;

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(SCHEMA_PREFIX)) {
        into.add(decodeURIComponent(item.slice(SCHEMA_PREFIX.length).split('/')[0]!));
      } else collectRefs(item, into);
    }
  }
}

/**
 * The document's `components.schemas`: the built-in ones and those endpoints declare
 * (`EndpointDocs.schemas`), each converted once. Only the schemas the operations refer to,
 * directly or through other schemas, end up in the document.
 */
export class ComponentSchemas {
  readonly #schemas = new Map<string, { source: DocSchema; schema: JsonSchema }>();

  constructor() {
    for (const [name, schema] of Object.entries(BUILT_IN_SCHEMAS)) {
      this.#schemas.set(name, { source: schema, schema });
    }
  }

  /**
   * Adds a schema an endpoint declares.
   *
   * @throws {@link Framework_Plugin_Exception} (400) for an invalid name, or a name already
   *   declared with another schema
   */
  add(name: string, source: DocSchema, where: string): void {
    if (!COMPONENT_NAME.test(name)) {
      throw new Framework_Plugin_Exception(
        `${where}: schema name ${JSON.stringify(name)} must match [A-Za-z0-9._-]+`,
        400,
      );
    }
    const existing = this.#schemas.get(name);
    if (existing === undefined) {
      this.#schemas.set(name, { source, schema: toJsonSchema(source) });
      return;
    }
    if (existing.source !== source && !sameJson(existing.schema, toJsonSchema(source))) {
      throw new Framework_Plugin_Exception(
        `${where}: the schema ${JSON.stringify(name)} is declared twice with different contents`,
        400,
      );
    }
  }

  /** The names of the schemas declared (the built-in ones included), whether referred to or not. */
  names(): Set<string> {
    return new Set(this.#schemas.keys());
  }

  /**
   * The schemas `parts` (the paths and the shared responses, parameters…) refer to, directly or
   * through other schemas, in declaration order.
   */
  referencedBy(parts: object): Record<string, JsonSchema> {
    const wanted = new Set<string>();
    collectRefs(parts, wanted);
    const queue = [...wanted];
    while (queue.length > 0) {
      const entry = this.#schemas.get(queue.pop()!);
      if (entry === undefined) continue;
      const inner = new Set<string>();
      collectRefs(entry.schema, inner);
      for (const name of inner) {
        if (!wanted.has(name)) {
          wanted.add(name);
          queue.push(name);
        }
      }
    }
    const result: Record<string, JsonSchema> = {};
    for (const [name, { schema }] of this.#schemas) if (wanted.has(name)) result[name] = schema;
    return result;
  }
}

/** The security schemes of the document. */
export function securitySchemes(): OpenApiDocument['components']['securitySchemes'] {
  return {
    [BEARER_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      description: "The host's token; the server's `authenticate` decides who it stands for.",
    },
  };
}
