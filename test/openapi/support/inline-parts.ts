/**
 * A document's paths with its shared parts put back in place, as a reader of the document sees
 * them: every `$ref` to `components.responses`, `parameters`, `headers` and `requestBodies`
 * replaced by the part, a path item's parameters added to each of its operations (schema
 * references stay references), and each range of error answers (`4XX`, `5XX`) read as the
 * statuses it documents: each its lines of the description and its body.
 */
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiReference,
  OpenApiRequestBody,
  OpenApiResponse,
} from 'commerce-plugin-framework/openapi';

/** An operation whose parts are all in place. */
export interface InlineOperation extends Omit<OpenApiOperation, 'parameters' | 'requestBody' | 'responses'> {
  parameters?: OpenApiParameter[];
  requestBody?: OpenApiRequestBody;
  responses: Record<string, InlineResponse>;
}

/** A response whose headers are all in place. */
export interface InlineResponse extends Omit<OpenApiResponse, 'headers'> {
  headers?: Record<string, OpenApiHeader>;
}

/** The operations of one path, by lower-case method. */
export type InlinePathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', InlineOperation>>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function isReference(value: object): value is OpenApiReference {
  return '$ref' in value && typeof value.$ref === 'string';
}

/** The part a reference names (`#/components/<kind>/<name>`), or the value itself. */
export function resolvePart<T extends object>(document: OpenApiDocument, value: T | OpenApiReference): T {
  if (!isReference(value)) return value;
  const [, , kind, name] = value.$ref.split('/');
  const part = (document.components as Record<string, Record<string, unknown> | undefined>)[kind!]?.[name!];
  if (part === undefined) throw new Error(`unresolved ${value.$ref}`);
  return part as T;
}

function inlineResponse(
  document: OpenApiDocument,
  value: OpenApiResponse | OpenApiReference,
): InlineResponse {
  const response = resolvePart(document, value);
  if (response.headers === undefined) return response as InlineResponse;
  return {
    ...response,
    headers: Object.fromEntries(
      Object.entries(response.headers).map(([name, header]) => [name, resolvePart(document, header)]),
    ),
  };
}

const SCHEMA_PREFIX = '#/components/schemas/';

/** The status a body of a range names (`data.status` a constant), looked up through schema references. */
function bodyStatus(document: OpenApiDocument, schema: JsonSchema): number | undefined {
  let found: number | undefined;
  const visit = (value: unknown): void => {
    if (found !== undefined || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const record = value as Record<string, unknown>;
    const status = (record.status as Record<string, unknown> | undefined)?.const;
    if (typeof status === 'number') found = status;
    if (typeof record.$ref === 'string' && record.$ref !== `${SCHEMA_PREFIX}Error`) {
      visit(document.components.schemas[record.$ref.slice(SCHEMA_PREFIX.length)]);
    }
    for (const item of Object.values(record)) visit(item);
  };
  visit(schema);
  return found;
}

/**
 * An error range (`4XX`) as the statuses it documents: each body of its `anyOf` names its
 * status; each status gets its lines of the description (`- 404 …`) and its body.
 *
 * @throws when a body names no status, or the range documents none
 */
export function rangeAnswers(
  document: OpenApiDocument,
  range: InlineResponse,
): Record<string, InlineResponse> {
  const bodies = (range.content?.['application/json']?.schema.anyOf ?? []) as JsonSchema[];
  const lines = range.description.split('\n');
  const answers: Record<string, InlineResponse> = {};
  for (const body of bodies) {
    const status = bodyStatus(document, body);
    if (status === undefined) throw new Error(`a body of a range names no status: ${JSON.stringify(body)}`);
    const own = lines.filter((line) => line.startsWith(`- ${status} `)).map((line) => line.slice(6));
    answers[String(status)] = {
      description: own.length === 1 ? own[0]! : own.map((line) => `- ${line}`).join('\n'),
      content: { 'application/json': { schema: body } },
    };
  }
  if (Object.keys(answers).length === 0) throw new Error('a range documents no status');
  return answers;
}

/** The answers of an operation by status, each range read as its statuses. */
function inlineResponses(
  document: OpenApiDocument,
  responses: OpenApiOperation['responses'],
): Record<string, InlineResponse> {
  const result: Record<string, InlineResponse> = {};
  for (const [status, value] of Object.entries(responses)) {
    const response = inlineResponse(document, value);
    if (/^[45]XX$/.test(status)) Object.assign(result, rangeAnswers(document, response));
    else result[status] = response;
  }
  return result;
}

/** The paths of `document`, every shared part in place. */
export function inlinePaths(document: OpenApiDocument): Record<string, InlinePathItem> {
  const paths: Record<string, InlinePathItem> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item.parameters ?? []).map((parameter) => resolvePart(document, parameter));
    const inline: InlinePathItem = {};
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const { parameters, requestBody, responses, ...rest } = operation;
      const own = (parameters ?? []).map((parameter) => resolvePart(document, parameter));
      const all = [...shared, ...own];
      inline[method] = {
        ...rest,
        ...(all.length > 0 ? { parameters: all } : {}),
        ...(requestBody === undefined ? {} : { requestBody: resolvePart(document, requestBody) }),
        responses: inlineResponses(document, responses),
      };
    }
    paths[path] = inline;
  }
  return paths;
}
