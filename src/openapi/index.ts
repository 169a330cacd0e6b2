/**
 * `commerce-plugin-framework/openapi`: an OpenAPI 3.1 document of a REST server's routes.
 * Runtime-agnostic (no `node:` import).
 *
 * @module commerce-plugin-framework/openapi
 */

export { generateOpenApiDocument, type OpenApiOptions } from './generate-openapi-document';
export type {
  JsonSchema,
  OpenApiDocument,
  OpenApiInfo,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
  OpenApiServer,
} from './openapi-types';
export { toJsonSchema } from './to-json-schema';
