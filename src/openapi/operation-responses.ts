import type { ErrorDoc, HeaderDoc, ResponseDoc } from '../rest/registry/endpoint-docs';
import type { JsonSchema, OpenApiHeader, OpenApiResponse } from './openapi-types';
import { schemaRef, validationFailureSchema } from './shared-components';
import { toJsonSchema } from './to-json-schema';

/** The JSON body of a response. */
export function jsonContent(schema: JsonSchema): NonNullable<OpenApiResponse['content']> {
  return { 'application/json': { schema } };
}

/** A documented header: its description, whether it is always there, its schema (default a string). */
export function toOpenApiHeader(header: HeaderDoc): OpenApiHeader {
  const result: OpenApiHeader = {
    description: header.description,
    schema: header.schema === undefined ? { type: 'string' } : toJsonSchema(header.schema),
  };
  if (header.required === true) result.required = true;
  return result;
}

function headers(
  docs: readonly (Readonly<Record<string, HeaderDoc>> | undefined)[],
): Record<string, OpenApiHeader> | undefined {
  const result: Record<string, OpenApiHeader> = {};
  for (const group of docs) {
    for (const [name, header] of Object.entries(group ?? {})) result[name] ??= toOpenApiHeader(header);
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** The default success answer of an endpoint that declares none. */
const ANY_SUCCESS: OpenApiResponse = {
  description: "Success: the handler's JSON answer.",
  content: jsonContent({}),
};

/** The non-error answers an endpoint declares (`EndpointDocs.responses`), or a `2XX` of any JSON. */
export function successResponses(
  responses: readonly ResponseDoc[] | undefined,
): Record<string, OpenApiResponse> {
  if (responses === undefined || responses.length === 0) return { '2XX': { ...ANY_SUCCESS } };
  const result: Record<string, OpenApiResponse> = {};
  for (const response of responses) {
    const documented: OpenApiResponse = { description: response.description };
    const responseHeaders = headers([response.headers]);
    if (responseHeaders) documented.headers = responseHeaders;
    if (response.schema !== undefined) documented.content = jsonContent(toJsonSchema(response.schema));
    result[String(response.status)] = documented;
  }
  return result;
}

/** The `{code, data}` part of an error body: `code` as an enum of the codes when known, `data`'s schema. */
function errorMembers(codes: readonly string[] | undefined, data: JsonSchema | undefined): JsonSchema | null {
  const properties: Record<string, JsonSchema> = {};
  if (codes !== undefined && codes.length > 0) properties.code = { type: 'string', enum: [...codes] };
  if (data !== undefined) properties.data = data;
  return Object.keys(properties).length === 0 ? null : { type: 'object', properties };
}

/** The body schema of the envelope answers of one error (`message`, `errors`). */
function envelopeBody(error: ErrorDoc): JsonSchema {
  if (error.body === 'message') return schemaRef('FailureMessage');
  return error.items === undefined
    ? schemaRef('ValidationFailure')
    : validationFailureSchema(toJsonSchema(error.items));
}

/**
 * The body schemas of the cases of one status: the framework's error body once per `data`
 * schema, with `code` as an enum of every code those cases name (no enum when one of them
 * names none: a plugin's own error may have any code), then each envelope body.
 */
function errorBodies(cases: readonly ErrorDoc[]): JsonSchema[] {
  const groups = new Map<string, { data: JsonSchema | undefined; codes: Set<string> | null }>();
  const bodies = new Map<string, JsonSchema>();
  for (const error of cases) {
    if (error.body === 'message' || error.body === 'errors') {
      const body = envelopeBody(error);
      bodies.set(JSON.stringify(body), body);
      continue;
    }
    const data = error.data === undefined ? undefined : toJsonSchema(error.data);
    const key = `error:${JSON.stringify(data ?? null)}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { data, codes: new Set() };
      groups.set(key, group);
      bodies.set(key, {});
    }
    if (error.codes === undefined || error.codes.length === 0) group.codes = null;
    else for (const code of error.codes) group.codes?.add(code);
  }
  for (const [key, group] of groups) {
    const members = errorMembers(group.codes === null ? undefined : [...group.codes], group.data);
    bodies.set(key, members === null ? schemaRef('Error') : { allOf: [schemaRef('Error'), members] });
  }
  return [...bodies.values()];
}

function describe(error: ErrorDoc): string {
  if (error.body === 'message' || error.body === 'errors') {
    const shape = `\`{success: false, ${error.body}}\``;
    return error.description === undefined ? shape : `${shape}: ${error.description}`;
  }
  if (error.description !== undefined) return error.description;
  return error.codes !== undefined && error.codes.length > 0 ? error.codes.join(', ') : 'An error.';
}

/**
 * The error answers of an operation, by status: each status lists every case that answers it
 * (one line per case) and, when cases have different bodies, their schemas as `anyOf`.
 */
export function errorResponses(errors: readonly ErrorDoc[]): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, ErrorDoc[]>();
  for (const error of errors) {
    const list = byStatus.get(error.status) ?? [];
    list.push(error);
    byStatus.set(error.status, list);
  }
  const result: Record<string, OpenApiResponse> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const cases = byStatus.get(status)!;
    const descriptions = [...new Set(cases.map(describe))];
    const schemas = errorBodies(cases);
    const response: OpenApiResponse = {
      description:
        descriptions.length === 1 ? descriptions[0]! : descriptions.map((line) => `- ${line}`).join('\n'),
      content: jsonContent(schemas.length === 1 ? schemas[0]! : { anyOf: schemas }),
    };
    const errorHeaders = headers(cases.map((error) => error.headers));
    if (errorHeaders) response.headers = errorHeaders;
    result[String(status)] = response;
  }
  return result;
}
