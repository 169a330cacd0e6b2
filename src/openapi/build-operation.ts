import type { ArgSchema } from '../rest/args/arg-schema';
import type { RouteDescriptor } from '../rest/registry/types';
import type { JsonSchema, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './openapi-types';
import type { RouteKind } from './route-kind';
import {
  BEARER_SCHEME,
  ERROR_RESPONSES,
  type ErrorResponseName,
  responseRef,
  schemaRef,
} from './shared-components';
import { toJsonSchema } from './to-json-schema';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const PATH_PARAM = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names of a path's `{param}` segments, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((match) => match[1]!);
}

/** The arguments of the endpoint serving `method` (the route's union when none declares it). */
function endpointArgs(route: RouteDescriptor, method: string): Readonly<Record<string, ArgSchema>> {
  return route.endpoints.find((endpoint) => endpoint.methods.includes(method))?.args ?? route.args;
}

function isArrayArg(arg: ArgSchema): boolean {
  return arg.type === 'array' || (Array.isArray(arg.type) && arg.type.includes('array'));
}

function parameter(name: string, location: 'path' | 'query', arg: ArgSchema | undefined): OpenApiParameter {
  const schema = arg === undefined ? { type: 'string' } : toJsonSchema(arg);
  const result: OpenApiParameter = {
    name,
    in: location,
    required: location === 'path' || arg?.required === true,
    schema,
  };
  if (arg?.description) result.description = arg.description;
  // Query arrays are comma lists (`?include=1,2`), also accepted repeated.
  if (location === 'query' && arg !== undefined && isArrayArg(arg)) {
    result.style = 'form';
    result.explode = false;
  }
  return result;
}

/** The JSON object schema of a body made of the given arguments. */
function bodySchema(args: readonly [string, ArgSchema][]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, arg] of args) {
    properties[name] = toJsonSchema(arg);
    if (arg.required === true) required.push(name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

function json(schema: JsonSchema): Record<string, { schema: JsonSchema }> {
  return { 'application/json': { schema } };
}

function successResponse(kind: RouteKind, method: string): [string, OpenApiResponse] {
  switch (kind) {
    case 'settings-list':
      return [
        '200',
        {
          description: 'Every setting, in registration order.',
          content: json({ type: 'array', items: schemaRef('Setting') }),
        },
      ];
    case 'setting':
      return [
        '200',
        {
          description: method === 'GET' ? 'The setting.' : 'The updated setting.',
          content: json(schemaRef('Setting')),
        },
      ];
    case 'system-status':
      return [
        '200',
        {
          description:
            "One member per plugin, keyed `<commercePrefix>_<pluginId>`: is_payment_gateway, settings (password values masked), and the plugin's own data.",
          content: json({ type: 'object', additionalProperties: { type: 'object' } }),
        },
      ];
    default:
      return ['2XX', { description: "Success: the handler's JSON answer.", content: json({}) }];
  }
}

function summary(kind: RouteKind, method: string, route: RouteDescriptor): string {
  const plugin = route.route.split('/')[1] ?? '';
  switch (kind) {
    case 'settings-list':
      return `List the settings of ${plugin}`;
    case 'setting':
      return method === 'GET' ? `Get one setting of ${plugin}` : `Update one setting of ${plugin}`;
    case 'system-status':
      return 'The system-status report';
    default:
      return `${method} ${route.route}`;
  }
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/\{([^}]+)\}/g, 'by_$1')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return [method.toLowerCase(), ...words].join('_');
}

/**
 * The OpenAPI operation of one method of a route: its path parameters (required), its query
 * parameters (GET, DELETE) or JSON request body (POST, PUT, PATCH) from the endpoint's
 * arguments, its success response and the error responses it can produce.
 */
export function buildOperation(route: RouteDescriptor, method: string, kind: RouteKind): OpenApiOperation {
  const args = endpointArgs(route, method);
  const pathNames = pathParameterNames(route.path);
  const parameters: OpenApiParameter[] = pathNames.map((name) => parameter(name, 'path', args[name]));
  const otherArgs = Object.entries(args).filter(([name]) => !pathNames.includes(name));
  const hasBody = BODY_METHODS.has(method);

  const operation: OpenApiOperation = {
    operationId: operationId(method, route.path),
    summary: summary(kind, method, route),
    tags: [route.namespace],
    responses: {},
    // The server's own routes need the management capability; a plugin route's permission is
    // its own business (it may be public), so the token is optional there.
    security: kind === 'plugin' ? [{ [BEARER_SCHEME]: [] }, {}] : [{ [BEARER_SCHEME]: [] }],
  };
  if (!hasBody) for (const [name, arg] of otherArgs) parameters.push(parameter(name, 'query', arg));
  if (parameters.length > 0) operation.parameters = parameters;
  if (hasBody && otherArgs.length > 0) {
    operation.requestBody = {
      required: otherArgs.some(([, arg]) => arg.required === true),
      content: json(bodySchema(otherArgs)),
    };
  }

  const [status, success] = successResponse(kind, method);
  operation.responses[status] = success;
  const errors: ErrorResponseName[] = [];
  if (hasBody || Object.keys(args).length > 0) errors.push('BadRequest');
  errors.push('Unauthorized', 'Forbidden');
  // Only a path with parameters can miss (a parameter of the wrong type, an unknown setting).
  if (pathNames.length > 0) errors.push('NotFound');
  if (hasBody) errors.push('PayloadTooLarge', 'UnsupportedMediaType');
  errors.push('InternalError');
  if (kind !== 'plugin') errors.push('StoreUnavailable');
  for (const name of errors) operation.responses[ERROR_RESPONSES[name].status] = responseRef(name);
  return operation;
}
