/**
 * `commerce-plugin-framework/openapi`: an OpenAPI 3.1 document of a REST server's routes.
 * Runtime-agnostic (no `node:` import).
 *
 * @module commerce-plugin-framework/openapi
 */

export {
  settingComponentName,
  settingObjectSchema,
  settingReadSchema,
  settingValueComponentName,
  settingValueSchema,
} from '../rest/settings-routes/setting-schemas';
export { type SettingsRouteDocs, settingsRouteDocs } from '../rest/settings-routes/settings-docs';
export { generateOpenApiDocument, type OpenApiOptions } from './generate-openapi-document';
export type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiInfo,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiReference,
  OpenApiRequestBody,
  OpenApiResponse,
  OpenApiServer,
} from './openapi-types';
export { toJsonSchema } from './to-json-schema';
