import type { JsonSchema } from './openapi-types';

/** Keywords copied as they are (their meaning is the same in draft-04 and 2020-12). */
const COPIED = [
  'title',
  'description',
  'type',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
] as const;

function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value === 'object') return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  return false;
}

function copyValue(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * Converts a draft-04-style schema — an `ArgSchema` of a route, or an item schema such as the
 * settings controller's `getItemSchema()` — to the JSON Schema of OpenAPI 3.1 (2020-12):
 *
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form;
 * - `required: true` on properties becomes the object's `required` list;
 * - `readonly` becomes `readOnly`;
 * - `$schema`, `context` and the custom `validate`/`sanitize` steps are dropped;
 * - `items`, `properties` and `additionalProperties` are converted recursively.
 */
export function toJsonSchema(source: object): JsonSchema {
  const input = source as Record<string, unknown>;
  const schema: JsonSchema = {};
  for (const keyword of COPIED) {
    const value = input[keyword];
    if (value !== undefined) schema[keyword] = copyValue(value);
  }
  if ('default' in input && input.default !== undefined && isJsonValue(input.default)) {
    schema.default = copyValue(input.default);
  }
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = input;
  if (typeof minimum === 'number') {
    if (exclusiveMinimum === true) schema.exclusiveMinimum = minimum;
    else schema.minimum = minimum;
  }
  if (typeof maximum === 'number') {
    if (exclusiveMaximum === true) schema.exclusiveMaximum = maximum;
    else schema.maximum = maximum;
  }
  if (input.readonly === true || input.readOnly === true) schema.readOnly = true;
  if (typeof input.items === 'object' && input.items !== null) schema.items = toJsonSchema(input.items);

  const required = new Set<string>(Array.isArray(input.required) ? (input.required as string[]) : []);
  if (typeof input.properties === 'object' && input.properties !== null) {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(input.properties as Record<string, object>)) {
      properties[name] = toJsonSchema(property);
      if ((property as { required?: unknown }).required === true) required.add(name);
    }
    schema.properties = properties;
  }
  if (required.size > 0) schema.required = [...required];
  const additional = input.additionalProperties;
  if (typeof additional === 'boolean') schema.additionalProperties = additional;
  else if (typeof additional === 'object' && additional !== null) {
    schema.additionalProperties = toJsonSchema(additional);
  }
  return schema;
}
