import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { EndpointDocs, EndpointDocsDeclaration } from '../rest/registry/endpoint-docs';
import type { RouteDescriptor } from '../rest/registry/types';
import type { RestServer } from '../rest/server';
import { buildOperation, type OperationSource } from './build-operation';
import { ComponentPool } from './component-pool';
import type {
  OpenApiDocument,
  OpenApiInfo,
  OpenApiOperation,
  OpenApiPathItem,
  OpenApiServer,
} from './openapi-types';
import { BEARER_SCHEME, ComponentSchemas, securitySchemes } from './shared-components';

/** Options of {@link generateOpenApiDocument}. */
export interface OpenApiOptions {
  /**
   * Where the API is served, e.g. `[{ url: 'https://shop.example' }]`. Paths are absolute, so
   * give origins. Default `[{ url: '/' }]`: the origin the document is read from (what OpenAPI
   * assumes without `servers`).
   */
  servers?: OpenApiServer[];
}

function resolveDocs(declared: EndpointDocsDeclaration | undefined): EndpointDocs {
  return (typeof declared === 'function' ? declared() : declared) ?? {};
}

function fillParams(template: string, params: Readonly<Record<string, string>>, where: string): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    if (value === '' || value.includes('/')) {
      throw new Framework_Plugin_Exception(
        `${where}: variant value ${JSON.stringify(value)} of {${name}} is not one path segment`,
        400,
      );
    }
    return encodeURIComponent(value);
  });
}

/** Every operation of a route: per endpoint and method, at its template or at each variant's path. */
function operationSources(route: RouteDescriptor, schemas: ComponentSchemas): OperationSource[] {
  const sources: OperationSource[] = [];
  for (const endpoint of route.endpoints) {
    const where = `Route ${route.namespace} ${route.route} ${endpoint.methods.join(',')}`;
    const { variants, ...docs } = resolveDocs(endpoint.docs);
    const places =
      variants === undefined
        ? [{ path: route.path, routePath: route.route, docs }]
        : variants.map((variant) => ({
            path: fillParams(route.path, variant.params, where),
            routePath: fillParams(route.route, variant.params, where),
            docs: { ...docs, ...variant.docs },
          }));
    for (const place of places) {
      for (const [name, schema] of Object.entries(place.docs.schemas ?? {})) schemas.add(name, schema, where);
      for (const method of endpoint.methods) sources.push({ route, endpoint, method, ...place });
    }
  }
  return sources;
}

function uniqueId(candidate: string, taken: Set<string>): string {
  let id = candidate;
  for (let n = 2; taken.has(id); n++) id = `${candidate}_${n}`;
  taken.add(id);
  return id;
}

/**
 * Describes a REST server as an OpenAPI 3.1 document, from its route descriptors and what
 * their endpoints declare in `docs` (`EndpointDefinition.docs`):
 *
 * - every route under its full path in `{param}` form, one operation per method; an endpoint
 *   with `variants` at one concrete path per variant instead: each setting of a plugin has its
 *   own path (`…/settings/max_retries`) whose request body and answer are typed by that
 *   setting (type, formats, `enum` of its options, array for multi, default);
 * - path parameters (required); query parameters (GET, DELETE, and `docs.queryArgs`) and a
 *   JSON object request body (POST, PUT, PATCH) from the endpoint's arguments, each with the
 *   JSON Schema of its argument (`docs.argSchemas` replacing it); request headers
 *   (`docs.requestHeaders`);
 * - the answers the endpoint declares (`docs.responses`: status, schema, headers), or a `2XX`
 *   of any JSON;
 * - every error the endpoint can give, with the body it really has: the pipeline's own (400
 *   for the body and arguments, 401/403 unless the permission is `allowPublic()`, 404 for an
 *   integer path parameter, 405 with `Allow`, 413 and 415 for bodies, 500) as the error body
 *   `{code, message, data: {status, …}}` (`components.schemas.Error`), merged by status with the
 *   endpoint's own (`docs.errors`: the error body, or the envelopes `{success: false, message}`
 *   and `{success: false, errors}`); the statuses of one class whose cases all have the error
 *   body (without headers) as one range, `4XX` or `5XX`, listing each status with its codes,
 *   each body's `data.status` a constant, when other operations give the same range;
 * - `components.schemas`: the schemas the operations refer to (the built-in ones and those
 *   endpoints declare in `docs.schemas`), and the error bodies two answers or more have (an
 *   error body used once is written in place);
 * - a bearer security scheme (`bearerAuth`): required, or optional on public endpoints.
 *
 * HEAD and OPTIONS, which every route answers, are not listed. The document is plain data:
 * serve it as JSON (`JSON.stringify(document)`), e.g. at `/openapi.json`.
 *
 * @example
 * ```ts
 * import { generateOpenApiDocument } from 'commerce-plugin-framework/openapi';
 *
 * const document = generateOpenApiDocument(server, { title: 'Acme shop API', version: '1.0.0' });
 * ```
 * @throws `Framework_Plugin_Exception` (400) when endpoints declare two different schemas
 *   under one name, or a variant's parameter value is not one path segment
 */
export function generateOpenApiDocument(
  server: RestServer,
  info: OpenApiInfo,
  options: OpenApiOptions = {},
): OpenApiDocument {
  const { hostNamespace } = server.info;
  const paths: Record<string, OpenApiPathItem> = {};
  const namespaces = new Set<string>();
  const schemas = new ComponentSchemas();
  // A concrete path of a variant is not documented where a route has that very path: the
  // server matches the route's own path first.
  const fromTemplate = new Set<string>();
  const operationIds = new Set<string>();
  const pool = new ComponentPool();
  for (const route of server.getRoutes()) {
    namespaces.add(route.namespace);
    for (const source of operationSources(route, schemas)) {
      const key = source.method.toLowerCase() as keyof OpenApiPathItem;
      const slot = `${key} ${source.path}`;
      const isTemplate = source.path === route.path;
      if (paths[source.path]?.[key] !== undefined && (!isTemplate || fromTemplate.has(slot))) continue;
      if (isTemplate) fromTemplate.add(slot);
      const operation: OpenApiOperation = buildOperation(source, pool);
      operation.operationId = uniqueId(operation.operationId, operationIds);
      paths[source.path] = { ...paths[source.path], [key]: operation };
    }
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { ...info },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags: [...namespaces].map((name) => ({
      name,
      description:
        name === hostNamespace
          ? 'Settings and system status of the plugins.'
          : `The routes of the namespace ${name}.`,
    })),
    servers: (options.servers ?? [{ url: '/' }]).map((server) => ({ ...server })),
    security: [{ [BEARER_SCHEME]: [] }],
    paths,
    components: { schemas: {}, securitySchemes: securitySchemes() },
  };
  const shared = pool.share(paths);
  const errorBodies = pool.sharedSchemas(schemas.names(), { paths, shared });
  document.components = {
    schemas: { ...schemas.referencedBy({ paths, shared, errorBodies }), ...errorBodies },
    ...shared,
    securitySchemes: securitySchemes(),
  };
  return document;
}
