/** Values made from a document's schemas: a valid one, and one of another type. */
import type { JsonSchema, OpenApiDocument } from 'commerce-plugin-framework/openapi';

const PREFIX = '#/components/schemas/';

function resolve(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(PREFIX)
    ? resolve(document.components.schemas[ref.slice(PREFIX.length)]!, document)
    : schema;
}

function firstType(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? (schema.type[0] as string) : (schema.type as string | undefined);
}

/** A value `schema` accepts: its default, its first option, or a plain value of its type. */
export function sampleOf(source: JsonSchema, document: OpenApiDocument): unknown {
  const schema = resolve(source, document);
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return sampleOf(variants[0]!, document);
  switch (firstType(schema)) {
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 7) : 7;
    case 'number':
      return 2.5;
    case 'boolean':
      return true;
    case 'array':
      return [sampleOf((schema.items as JsonSchema | undefined) ?? {}, document)];
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      if (required.length === 0) return { sample: 1 };
      return Object.fromEntries(required.map((name) => [name, sampleOf(properties[name] ?? {}, document)]));
    }
    default:
      if (schema.format === 'uri') return 'https://shop.example/sample';
      if (schema.format === 'email') return 'desk@shop.example';
      if (schema.format === 'date-time') return '2024-05-01T10:00:00Z';
      return 'sample';
  }
}

/**
 * A value `schema` refuses by its type: a number for text, text for anything else, `null`
 * where any JSON value but `null` is accepted.
 */
export function wrongTypeOf(source: JsonSchema, document: OpenApiDocument): unknown {
  const schema = resolve(source, document);
  // A secret's schema is the value's or the mask: the value's type decides.
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return wrongTypeOf(variants[0]!, document);
  if (Array.isArray(schema.type) && schema.type.includes('string')) return null;
  return firstType(schema) === 'string' ? 42 : 'not-the-type';
}
