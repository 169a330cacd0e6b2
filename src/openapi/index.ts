/**
 * `commerce-plugin-framework/openapi`: an OpenAPI 3.1 document of a REST server's routes.
 * Runtime-agnostic (no `node:` import).
 *
 * @module commerce-plugin-framework/openapi
 */

export {
  type SettingsRouteDocs,
  settingComponentName,
  settingObjectSchema,
  settingReadSchema,
  settingsRouteDocs,
  settingValueSchema,
} from '../rest/settings-routes/settings-docs';
export { generateOpenApiDocument, type OpenApiOptions } from './generate-openapi-document';
export type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiInfo,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
  OpenApiServer,
} from './openapi-types';
export { toJsonSchema } from './to-json-schema';
