/**
 * The REST layer: plugins, route registry, typed arguments, the dispatch pipeline behind
 * `createRestServer`, the settings and item controllers, permission and auth helpers.
 *
 * @module
 */
export type { AdminPage, AdminPluginInfo, AdminRequestContext } from './admin-hook';
export type {
  ArgFailure,
  ArgFailureCode,
  ArgFailureDetail,
  ArgFailureParams,
  ArgPath,
} from './args/arg-failure';
export type { ArgFormat, ArgSchema, ArgType } from './args/arg-schema';
export { formatArgFailure } from './args/failure-messages';
export {
  type BearerTokens,
  bearerTokenAuth,
  type HeaderAuthenticator,
  readBearerToken,
} from './bearer-token-auth';
export { constantTimeEqual } from './constant-time';
export type { ControllerAnswerKind, ControllerAnswerOptions } from './controller-docs';
export {
  notFoundResponse,
  type SuccessEnvelope,
  successMessageResponse,
  successResponse,
  validationFailedResponse,
} from './envelope';
export { REST_ERROR_CATALOGUE, type RestErrorCode, type RestErrorEntry } from './errors/error-catalogue';
export type { BatchItemError, NoErrorData, RestErrorData, RuleItemError } from './errors/error-data';
export {
  type RestErrorArgs,
  type RestErrorOptions,
  type RestErrorStatus,
  restError,
} from './errors/rest-error-factory';
export type { TrustedOrigins } from './http/cross-site';
export { UnmappedPluginException } from './http/error-mapping';
export { RestError, type RestErrorBody } from './http/rest-error';
export type { RestRequest, RestServerInfo } from './http/rest-request';
export { RestResponse } from './http/rest-response';
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
  componentRef,
  type DocSchema,
  type EndpointDocs,
  type EndpointDocsDeclaration,
  type EndpointVariant,
  type ErrorBodyKind,
  type ErrorDoc,
  type HeaderDoc,
  type ResponseDoc,
} from './registry/endpoint-docs';
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
export { collectionParams, Framework_REST_Controller, type ItemLinks } from './rest-controller';
export type { RestUser } from './rest-user';
export { MASKED_VALUE } from './secret-keys';
export {
  createRestServer,
  DEFAULT_COMMERCE_PREFIX,
  DEFAULT_MAX_BODY_BYTES,
  type RestServer,
  type RestServerLogger,
  type RestServerOptions,
} from './server';
export { Framework_REST_API_Settings, JSON_SCHEMA_DRAFT_04 } from './settings-routes/settings-controller';
export {
  DefinedPlugin,
  type DefinedPluginContext,
  type DefinedSettings,
  definePlugin,
  type PluginDefinition,
} from './typed-routes/define-plugin';
export type { ArgValue, InferParams, PathParamNames, ValueOfSchema } from './typed-routes/infer-params';
export { type ItemRoutes, type ItemRoutesOptions, itemRoutes } from './typed-routes/item-routes';
export {
  type HandlerResult,
  type MethodShortcut,
  type ResponseDeclaration,
  RouteBuilder,
  type TypedEndpoint,
} from './typed-routes/route-builder';
