import type { ArgSchema } from '../rest/args/arg-schema';
import type { EndpointDocs } from '../rest/registry/endpoint-docs';
import type { EndpointDescriptor, RouteDescriptor } from '../rest/registry/types';
import { HTTP_METHODS } from '../rest/registry/types';
import type { ComponentPool } from './component-pool';
import { frameworkErrors, type OperationFacts } from './framework-errors';
import type { JsonSchema, OpenApiOperation, OpenApiParameter } from './openapi-types';
import { errorResponses, jsonContent, successResponses, toOpenApiHeader } from './operation-responses';
import { BEARER_SCHEME } from './shared-components';
import { toJsonSchema } from './to-json-schema';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const PATH_PARAM = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Whether a `context` argument offers a context anyone may not ask for (anything but `view` and `embed`). */
function guardsContext(arg: ArgSchema | undefined): boolean {
  return Array.isArray(arg?.enum) && arg.enum.some((context) => context !== 'view' && context !== 'embed');
}

/** Any JSON value but `null`: a required argument without a type (`null` counts as missing). */
const NON_NULL_JSON: JsonSchema = {
  type: ['object', 'array', 'string', 'number', 'boolean'],
  items: {},
  additionalProperties: true,
};

/** One operation to document: an endpoint's method at a path (its template, or a variant's concrete path). */
export interface OperationSource {
  /** The route the endpoint belongs to. */
  readonly route: RouteDescriptor;
  /** The endpoint. */
  readonly endpoint: EndpointDescriptor;
  /** The method. */
  readonly method: string;
  /** The documented path: the route's full path, with a variant's parameters filled in. */
  readonly path: string;
  /** The path inside the namespace, likewise. */
  readonly routePath: string;
  /** The endpoint's docs, with a variant's docs applied. */
  readonly docs: EndpointDocs;
}

/** The names of a path's `{param}` segments, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((match) => match[1]!);
}

function isArrayArg(arg: ArgSchema): boolean {
  return arg.type === 'array' || (Array.isArray(arg.type) && arg.type.includes('array'));
}

function isIntegerArg(arg: ArgSchema | undefined): boolean {
  const type = arg?.type;
  return type === 'integer' || (Array.isArray(type) && type.length === 1 && type[0] === 'integer');
}

/** The documented schema of an argument: the docs' own, else its `ArgSchema` converted. */
function argumentSchema(name: string, arg: ArgSchema | undefined, docs: EndpointDocs): JsonSchema {
  const declared = docs.argSchemas?.[name];
  if (declared !== undefined) return toJsonSchema(declared);
  if (arg === undefined) return { type: 'string' };
  const schema = toJsonSchema(arg);
  return arg.type === undefined && arg.required === true ? { ...schema, ...NON_NULL_JSON } : schema;
}

function parameter(
  name: string,
  location: 'path' | 'query',
  arg: ArgSchema | undefined,
  docs: EndpointDocs,
): OpenApiParameter {
  const schema = argumentSchema(name, arg, docs);
  const result: OpenApiParameter = {
    name,
    in: location,
    required: location === 'path' || arg?.required === true,
    schema,
  };
  if (arg?.description) {
    result.description = arg.description;
    // Said once, by the parameter: its schema does not repeat it.
    if (schema.description === arg.description) delete schema.description;
  }
  // Query arrays are comma lists (`?include=1,2`), also accepted repeated.
  if (location === 'query' && arg !== undefined && isArrayArg(arg)) {
    result.style = 'form';
    result.explode = false;
  }
  return result;
}

/** The JSON object schema of a body made of the given arguments. */
function bodySchema(args: readonly [string, ArgSchema][], docs: EndpointDocs): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, arg] of args) {
    properties[name] = argumentSchema(name, arg, docs);
    if (arg.required === true) required.push(name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/\{([^}]+)\}/g, 'by_$1')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return [method.toLowerCase(), ...words].join('_');
}

/** What a method does, as the names of shared error answers say it. */
function verb(method: string): string {
  if (method === 'GET') return 'read';
  return method === 'DELETE' ? 'delete' : 'write';
}

/**
 * The family of an operation, which names the error ranges it shares: the words of its route
 * inside the namespace without the `{param}` segments, and what the method does — e.g.
 * `['acme_pay', 'settings', 'write']` for `PUT …/acme_pay/settings/{setting_id}`.
 */
function family(route: RouteDescriptor, method: string): string[] {
  const words = route.route
    .split('/')
    .filter((segment) => segment !== '' && !segment.includes('{'))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9_-]+/).filter((word) => word !== ''));
  return [...words, verb(method)];
}

/**
 * The OpenAPI operation of one method of an endpoint at one documented path: path parameters
 * (required), query parameters (GET, DELETE, and `docs.queryArgs`), request headers, the JSON
 * request body (POST, PUT, PATCH) made of the other arguments, the answers the endpoint
 * declares (or a `2XX` of any JSON), and every error it can give: the pipeline's own, merged
 * with the endpoint's by status. Parameters, the body and the answers are offered to `pool`,
 * which shares those that other operations have too.
 */
export function buildOperation(source: OperationSource, pool: ComponentPool): OpenApiOperation {
  const { route, endpoint, method, docs } = source;
  const args = endpoint.args;
  const templateParams = pathParameterNames(route.path);
  const pathNames = pathParameterNames(source.path);
  const queryArgs = new Set(docs.queryArgs ?? []);
  const hasBody = BODY_METHODS.has(method);
  const otherArgs = Object.entries(args).filter(([name]) => !templateParams.includes(name));
  const bodyArgs = hasBody ? otherArgs.filter(([name]) => !queryArgs.has(name)) : [];
  const queryParams = hasBody ? otherArgs.filter(([name]) => queryArgs.has(name)) : otherArgs;

  const parameters: OpenApiParameter[] = [
    ...pathNames.map((name) => parameter(name, 'path', args[name], docs)),
    ...queryParams.map(([name, arg]) => parameter(name, 'query', arg, docs)),
  ];
  for (const [name, header] of Object.entries(docs.requestHeaders ?? {})) {
    const { description, schema, required } = toOpenApiHeader(header);
    parameters.push(
      pool.offer('parameters', header.component ?? name, {
        name,
        in: 'header',
        required: required === true,
        description,
        schema,
      }),
    );
  }

  const id = operationId(method, source.path);
  const operation: OpenApiOperation = {
    operationId: id,
    summary: docs.summary ?? `${method} ${source.routePath}`,
    tags: [route.namespace],
    responses: {},
  };
  // The document's security is a token; a public endpoint takes one too (it may answer more to some users).
  if (endpoint.isPublic) operation.security = [{ [BEARER_SCHEME]: [] }, {}];
  if (docs.description !== undefined) operation.description = docs.description;
  if (parameters.length > 0) {
    operation.parameters = parameters.map((place) =>
      place.in === 'header' ? place : pool.offer('parameters', place.name, place),
    );
  }
  if (bodyArgs.length > 0) {
    operation.requestBody = pool.offer('requestBodies', docs.bodyComponent ?? `${id}_body`, {
      required: bodyArgs.some(([, arg]) => arg.required === true),
      content: jsonContent(bodySchema(bodyArgs, docs)),
    });
  }

  const facts: OperationFacts = {
    hasBody,
    hasArgs: Object.keys(args).some((name) => !templateParams.includes(name) || pathNames.includes(name)),
    hasRequiredArgs: otherArgs.some(([, arg]) => arg.required === true),
    hasIntegerPathParam: pathNames.some((name) => isIntegerArg(args[name])),
    isPublic: endpoint.isPublic,
    answersEveryMethod: HTTP_METHODS.every((candidate) => route.methods.includes(candidate)),
    isWrite: method !== 'GET',
    hasGuardedContext: guardsContext(args.context),
  };
  operation.responses = {
    ...successResponses(docs.responses, pool, id),
    ...errorResponses([...frameworkErrors(facts), ...(docs.errors ?? [])], pool, family(route, method)),
  };
  return operation;
}
