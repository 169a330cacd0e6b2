import type { JsonSchema } from './openapi-types';

/** Keywords copied as they are (their meaning is the same in draft-04 and 2020-12), when their value is JSON. */
const COPIED = [
  '$ref',
  'title',
  'description',
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'dependentRequired',
  'examples',
  'deprecated',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
] as const;

/** Keywords holding one schema. */
const ONE_SCHEMA = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;

/** Keywords holding a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/** Keywords holding schemas by name (`properties` is handled apart, for `required: true`). */
const SCHEMA_MAPS = ['patternProperties', 'dependentSchemas', '$defs'] as const;

function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value === 'object') return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  return false;
}

function copyValue(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

const isSchema = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** A schema keyword value that is a schema or `true`/`false` (allowed in 2020-12). */
function convertOne(value: unknown): JsonSchema | boolean | undefined {
  if (typeof value === 'boolean') return value;
  return isSchema(value) && !Array.isArray(value) ? toJsonSchema(value) : undefined;
}

function declaresType(schema: JsonSchema, type: string): boolean {
  const declared = schema.type;
  return declared === type || (Array.isArray(declared) && declared.includes(type));
}

/**
 * Converts a draft-04-style schema — an `ArgSchema` of a route, an item schema such as the
 * settings controller's `getItemSchema()`, or a schema declared in an endpoint's docs — to the
 * JSON Schema of OpenAPI 3.1 (2020-12):
 *
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form;
 * - `required: true` on properties becomes the object's `required` list;
 * - `readonly` becomes `readOnly`;
 * - `$schema`, `context`, the custom `validate`/`sanitize` steps and anything that is not a
 *   JSON Schema keyword with a JSON value are dropped (`x-…` extensions are kept);
 * - 2020-12 keywords (`const`, `oneOf`, `anyOf`, `allOf`, `$ref`, `prefixItems`, `writeOnly`,
 *   `examples`…) are kept, and every keyword holding schemas is converted recursively;
 * - an array schema without `items` gets `items: {}` and an object schema without
 *   `properties` or `additionalProperties` gets `additionalProperties: true` (what they mean
 *   anyway), so that generated clients see any JSON there rather than nothing.
 */
export function toJsonSchema(source: object): JsonSchema {
  const input = source as Record<string, unknown>;
  const schema: JsonSchema = {};
  for (const keyword of COPIED) {
    const value = input[keyword];
    if (value !== undefined && isJsonValue(value)) schema[keyword] = copyValue(value);
  }
  for (const [keyword, value] of Object.entries(input)) {
    if (keyword.startsWith('x-') && isJsonValue(value)) schema[keyword] = copyValue(value);
  }
  if ('default' in input && input.default !== undefined && isJsonValue(input.default)) {
    schema.default = copyValue(input.default);
  }
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = input;
  if (typeof minimum === 'number') {
    if (exclusiveMinimum === true) schema.exclusiveMinimum = minimum;
    else schema.minimum = minimum;
  }
  if (typeof exclusiveMinimum === 'number') schema.exclusiveMinimum = exclusiveMinimum;
  if (typeof maximum === 'number') {
    if (exclusiveMaximum === true) schema.exclusiveMaximum = maximum;
    else schema.maximum = maximum;
  }
  if (typeof exclusiveMaximum === 'number') schema.exclusiveMaximum = exclusiveMaximum;
  if (input.readonly === true || input.readOnly === true) schema.readOnly = true;

  for (const keyword of ONE_SCHEMA) {
    const converted = convertOne(input[keyword]);
    if (converted !== undefined) schema[keyword] = converted;
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = input[keyword];
    if (Array.isArray(list)) schema[keyword] = list.map((item) => convertOne(item) ?? {});
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = input[keyword];
    if (!isSchema(map)) continue;
    const converted: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(map)) converted[name] = convertOne(item) ?? {};
    schema[keyword] = converted;
  }

  const required = new Set<string>(
    Array.isArray(input.required) ? input.required.filter((name) => typeof name === 'string') : [],
  );
  if (isSchema(input.properties)) {
    const properties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(input.properties as Record<string, unknown>)) {
      properties[name] = convertOne(property) ?? {};
      if (isSchema(property) && (property as { required?: unknown }).required === true) required.add(name);
    }
    schema.properties = properties;
  }
  if (required.size > 0) schema.required = [...required];

  if (declaresType(schema, 'array') && schema.items === undefined && schema.prefixItems === undefined) {
    schema.items = {};
  }
  if (
    declaresType(schema, 'object') &&
    schema.properties === undefined &&
    schema.additionalProperties === undefined &&
    schema.patternProperties === undefined
  ) {
    schema.additionalProperties = true;
  }
  return schema;
}
