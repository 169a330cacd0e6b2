import type { ErrorDoc, HeaderDoc, ResponseDoc } from '../rest/registry/endpoint-docs';
import type { ComponentPool } from './component-pool';
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

/** The headers of an answer, each offered to the pool under its `component` name, or its own. */
function headers(
  docs: readonly (Readonly<Record<string, HeaderDoc>> | undefined)[],
  pool: ComponentPool,
): Record<string, OpenApiHeader> | undefined {
  const result: Record<string, OpenApiHeader> = {};
  for (const group of docs) {
    for (const [name, header] of Object.entries(group ?? {})) {
      result[name] ??= pool.offer('headers', header.component ?? name, toOpenApiHeader(header));
    }
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

const SCHEMA_PREFIX = '#/components/schemas/';

/** The default success answer of an endpoint that declares none. */
const ANY_SUCCESS: OpenApiResponse = {
  description: "Success: the handler's JSON answer.",
  content: jsonContent({}),
};

/** The one schema an answer's body refers to (e.g. `acme.v1.items` in its envelope), if exactly one. */
function answerSubject(response: OpenApiResponse): string | undefined {
  const names = new Set<string>();
  JSON.stringify(response.content ?? {}, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_PREFIX)) {
      names.add(value.slice(SCHEMA_PREFIX.length));
    }
    return value;
  });
  return names.size === 1 ? [...names][0] : undefined;
}

/**
 * The non-error answers an endpoint declares (`EndpointDocs.responses`), or a `2XX` of any JSON;
 * each offered to the pool under its `component` name, else after the one schema its body
 * refers to (`acme.v1.items_200`), else after the operation (`<operationId>_<status>`).
 */
export function successResponses(
  responses: readonly ResponseDoc[] | undefined,
  pool: ComponentPool,
  operationId: string,
): Record<string, OpenApiResponse> {
  if (responses === undefined || responses.length === 0) return { '2XX': { ...ANY_SUCCESS } };
  const result: Record<string, OpenApiResponse> = {};
  for (const response of responses) {
    const documented: OpenApiResponse = { description: response.description };
    const responseHeaders = headers([response.headers], pool);
    if (responseHeaders) documented.headers = responseHeaders;
    if (response.schema !== undefined) documented.content = jsonContent(toJsonSchema(response.schema));
    const name = response.component ?? `${answerSubject(documented) ?? operationId}_${response.status}`;
    result[String(response.status)] = pool.offer('responses', name, documented);
  }
  return result;
}

/**
 * `data`'s schema bound to one status: `data.status` a constant, so that a body documented in
 * a range (`4XX`) says which status it is answered with.
 */
function dataAtStatus(data: JsonSchema | undefined, status: number): JsonSchema {
  const properties = (data?.properties ?? {}) as Record<string, JsonSchema>;
  return { ...data, properties: { ...properties, status: { const: status } } };
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

/** One body of a status's answer, and the name it is shared under (its codes, or its envelope, and the status). */
interface NamedBody {
  readonly name: string;
  readonly schema: JsonSchema;
}

/**
 * The body schemas of the cases of one status: the framework's error body once per `data`
 * schema, with `code` as an enum of every code those cases name (no enum when one of them
 * names none: a plugin's own error may have any code) and `data.status` the status, then
 * each envelope body.
 */
function errorBodies(cases: readonly ErrorDoc[], status: number): NamedBody[] {
  const groups = new Map<string, { data: JsonSchema | undefined; codes: Set<string> | null }>();
  const bodies = new Map<string, NamedBody>();
  for (const error of cases) {
    if (error.body === 'message' || error.body === 'errors') {
      const schema = envelopeBody(error);
      bodies.set(JSON.stringify(schema), { name: `${caseNames(error).join('.')}_${status}`, schema });
      continue;
    }
    const data = error.data === undefined ? undefined : toJsonSchema(error.data);
    const key = `error:${JSON.stringify(data ?? null)}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { data, codes: new Set() };
      groups.set(key, group);
      bodies.set(key, { name: '', schema: {} });
    }
    if (error.codes === undefined || error.codes.length === 0) group.codes = null;
    else for (const code of error.codes) group.codes?.add(code);
  }
  for (const [key, group] of groups) {
    const data = dataAtStatus(group.data, status);
    const codes = group.codes === null ? undefined : [...group.codes];
    const members = errorMembers(codes, data);
    bodies.set(key, {
      name: `${codes?.join('.') ?? 'error'}_${status}`,
      schema: members === null ? schemaRef('Error') : { allOf: [schemaRef('Error'), members] },
    });
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

/** What an error case is named after: its codes, or the envelope it answers. */
function caseNames(error: ErrorDoc): string[] {
  if (error.body === 'message') return ['failure_message'];
  if (error.body === 'errors') return ['validation_failure'];
  return error.codes !== undefined && error.codes.length > 0 ? [...error.codes] : ['error'];
}

/**
 * Whether the cases of a status may be documented in their class's range (`4XX`, `5XX`): each
 * has the error body, whose `data.status` then names the status, and no header (a range's
 * headers would apply to all its statuses).
 */
function fitsRange(cases: readonly ErrorDoc[]): boolean {
  return cases.every((error) => (error.body ?? 'error') === 'error' && error.headers === undefined);
}

/** The name of the answer (and body) of one status: its codes and status, e.g. `rest_forbidden.rest_cross_site_request_403`. */
function statusName(status: number, cases: readonly ErrorDoc[]): string {
  return `${[...new Set(cases.flatMap(caseNames))].join('.')}_${status}`;
}

/**
 * The body of one status, in `components.schemas` (ranges and the answers of single statuses
 * share it), and when it has several bodies (`anyOf`) each of them too, named after its codes
 * (e.g. `rest_setting_rules_failed_400`, which several 400 answers have); the error body alone
 * stays as it is. A schema the document ends up referring to once is put back in place (see
 * {@link ComponentPool.sharedSchemas}).
 */
function statusBody(status: number, cases: readonly ErrorDoc[], pool: ComponentPool): JsonSchema {
  const bodies = errorBodies(cases, status);
  // Several bodies: each in components.schemas too (other statuses' answers may have the same one).
  const shared = (body: NamedBody) =>
    '$ref' in body.schema ? body.schema : pool.schema(body.name, body.schema);
  const body = bodies.length === 1 ? bodies[0]!.schema : { anyOf: bodies.map(shared) };
  return '$ref' in body ? body : pool.schema(statusName(status, cases), body);
}

/** The answer of one status: one line per case, and its body. */
function statusResponse(status: number, cases: readonly ErrorDoc[], pool: ComponentPool): OpenApiResponse {
  const descriptions = [...new Set(cases.map(describe))];
  const response: OpenApiResponse = {
    description:
      descriptions.length === 1 ? descriptions[0]! : descriptions.map((line) => `- ${line}`).join('\n'),
    content: jsonContent(statusBody(status, cases, pool)),
  };
  const errorHeaders = headers(
    cases.map((error) => error.headers),
    pool,
  );
  if (errorHeaders) response.headers = errorHeaders;
  return response;
}

/**
 * The answer of a range: one line per status and case (`- 404 rest_scope_not_found: …`), and
 * the body of each status (whose `data.status` names it) as `anyOf`.
 */
function rangeResponse(
  byStatus: ReadonlyMap<number, readonly ErrorDoc[]>,
  pool: ComponentPool,
): OpenApiResponse {
  const lines: string[] = [];
  const schemas: JsonSchema[] = [];
  for (const [status, cases] of byStatus) {
    for (const line of new Set(cases.map(describe))) lines.push(`- ${status} ${line}`);
    schemas.push(statusBody(status, cases, pool));
  }
  return { description: lines.join('\n'), content: jsonContent({ anyOf: schemas }) };
}

/**
 * The error answers of an operation, by status. The statuses of one class (4xx, 5xx) whose
 * cases all have the error body without headers are documented together under the class's
 * range (`4XX`, `5XX`) when there are two or more of them: the range lists each status with
 * its cases, and each body's `data.status` is a constant, so status and codes stay bound.
 * Every other status is documented alone: each case on a line and, when cases have different
 * bodies, their schemas as `anyOf`.
 *
 * Each answer is offered to the pool: a status named after its codes and status (e.g.
 * `rest_forbidden_401`, `rest_method_not_allowed_405`), a range after the operation's
 * `family` (e.g. `acme_pay.settings.write_4XX`, see
 * {@link ComponentPool.offerRange}); a range no other operation gives is documented status
 * by status instead.
 */
export function errorResponses(
  errors: readonly ErrorDoc[],
  pool: ComponentPool,
  family: readonly string[],
): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, ErrorDoc[]>();
  for (const error of errors) {
    const list = byStatus.get(error.status) ?? [];
    list.push(error);
    byStatus.set(error.status, list);
  }
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  const ranges = new Map<number, Map<number, ErrorDoc[]>>();
  for (const status of statuses) {
    if (!fitsRange(byStatus.get(status)!)) continue;
    const range = ranges.get(Math.floor(status / 100)) ?? new Map<number, ErrorDoc[]>();
    range.set(status, byStatus.get(status)!);
    ranges.set(Math.floor(status / 100), range);
  }
  const named = (status: number) => {
    const cases = byStatus.get(status)!;
    return { name: statusName(status, cases), response: statusResponse(status, cases, pool) };
  };
  const result: Record<string, OpenApiResponse> = {};
  for (const status of statuses) {
    const range = ranges.get(Math.floor(status / 100));
    if (range !== undefined && range.size >= 2 && range.has(status)) {
      const key = `${Math.floor(status / 100)}XX`;
      result[key] ??= pool.offerRange(
        family,
        `_${key}`,
        rangeResponse(range, pool),
        Object.fromEntries([...range.keys()].map((member) => [String(member), named(member)])),
      );
      continue;
    }
    const { name, response } = named(status);
    result[String(status)] = pool.offer('responses', name, response);
  }
  return result;
}
