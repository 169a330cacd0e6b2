import type { RestServer } from '../rest/server';
import { buildOperation } from './build-operation';
import type { OpenApiDocument, OpenApiInfo, OpenApiPathItem, OpenApiServer } from './openapi-types';
import { routeKind } from './route-kind';
import { sharedComponents } from './shared-components';

/** Options of {@link generateOpenApiDocument}. */
export interface OpenApiOptions {
  /** Where the API is served, e.g. `[{ url: 'https://shop.example' }]`. Paths are absolute, so give origins. */
  servers?: OpenApiServer[];
}

/**
 * Describes a REST server as an OpenAPI 3.1 document, from its route descriptors:
 *
 * - every route under its full path in `{param}` form, with one operation per method;
 * - path parameters (required) and, for GET and DELETE, query parameters, each with the JSON
 *   Schema of its argument; for POST, PUT and PATCH a JSON object request body made of the
 *   other arguments;
 * - the Setting object (`components.schemas.Setting`, from the settings controller's item
 *   schema) for the settings routes, and the error body `{code, message, data: {status}}`
 *   (`components.schemas.Error`) for the error statuses each route can produce;
 * - a bearer security scheme (`bearerAuth`): required on the settings and status routes,
 *   optional on plugin routes (their permission decides).
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
 */
export function generateOpenApiDocument(
  server: RestServer,
  info: OpenApiInfo,
  options: OpenApiOptions = {},
): OpenApiDocument {
  const { hostNamespace } = server.info;
  const paths: Record<string, OpenApiPathItem> = {};
  const namespaces = new Set<string>();
  for (const route of server.getRoutes()) {
    namespaces.add(route.namespace);
    const kind = routeKind(route, hostNamespace);
    const item: OpenApiPathItem = paths[route.path] ?? {};
    for (const method of route.methods) {
      const key = method.toLowerCase() as keyof OpenApiPathItem;
      item[key] = buildOperation(route, method, kind);
    }
    paths[route.path] = item;
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { ...info },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags: [...namespaces].map((name) => ({
      name,
      ...(name === hostNamespace ? { description: 'Settings and system status of the plugins.' } : {}),
    })),
    paths,
    components: sharedComponents(),
  };
  if (options.servers) document.servers = options.servers.map((server) => ({ ...server }));
  return document;
}
