/**
 * The REST layer: plugins, route registry, typed arguments, the dispatch pipeline behind
 * `createRestServer`, the settings and item controllers, permission and auth helpers.
 *
 * @module
 */
export type { AdminPage, AdminPluginInfo, AdminRequestContext } from './admin-hook';
export type { ArgFormat, ArgSchema, ArgType } from './args/arg-schema';
export { type ArgsValidator, type CompileArgsOptions, compileArgs } from './args/compile-args';
export { parseQueryString, type QueryRecord, type QueryValues } from './args/query-string';
export {
  type BearerTokens,
  bearerTokenAuth,
  type HeaderAuthenticator,
  readBearerToken,
} from './bearer-token-auth';
export { constantTimeEqual } from './constant-time';
export {
  notFoundResponse,
  type SuccessEnvelope,
  successMessageResponse,
  successResponse,
  validationFailedResponse,
} from './envelope';
export { FetchExchange, type RestExchange, splitRequestUrl } from './http/exchange';
export { MAX_BODY_DEPTH } from './http/parse-json-body';
export { readChunksWithin, readStreamWithin } from './http/read-body';
export { RestError, type RestErrorBody } from './http/rest-error';
export type { RestRequest, RestServerInfo } from './http/rest-request';
export { RestResponse } from './http/rest-response';
export { JSON_CONTENT_TYPE, type RestResult, toFetchResponse } from './http/rest-result';
export { type Page, paginate, paginationHeaders } from './pagination';
export {
  allowPublic,
  DEFAULT_MANAGEMENT_CAPABILITY,
  requireAll,
  requireCapability,
  requireItemAccess,
  requireManagement,
} from './permissions';
export { Framework_Plugin, type PluginOptions } from './plugin';
export {
  DEFAULT_HOST_NAMESPACE,
  DEFAULT_REST_ROOT,
  RouteRegistry,
  type RouteRegistryOptions,
} from './registry/route-registry';
export type {
  EndpointDefinition,
  EndpointDescriptor,
  HttpMethod,
  PermissionCallback,
  RouteDescriptor,
} from './registry/types';
export { Framework_REST_API } from './rest-api';
export { Framework_REST_Controller, type ItemLinks } from './rest-controller';
export type { RestUser } from './rest-user';
export {
  createRestServer,
  DEFAULT_COMMERCE_PREFIX,
  DEFAULT_MAX_BODY_BYTES,
  type RestServer,
  type RestServerOptions,
} from './server';
export { Framework_REST_API_Settings, JSON_SCHEMA_DRAFT_04 } from './settings-controller';
export { buildSystemStatus, MASKED_VALUE } from './status-report';
