import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import { ADMIN_PATH_PREFIX, DEFAULT_CSRF_MAX_AGE_MS } from './admin-hook';
import type { HeaderAuthenticator } from './bearer-token-auth';
import { compileTrustedOrigins } from './http/cross-site';
import { FetchExchange, type RestExchange } from './http/exchange';
import type { RestServerInfo } from './http/rest-request';
import { type RestResult, toFetchResponse } from './http/rest-result';
import { DEFAULT_MANAGEMENT_CAPABILITY, requireManagement } from './permissions';
import { RestPipeline } from './pipeline/rest-pipeline';
import { libraryRouteDocs } from './registry/library-route-docs';
import { DEFAULT_HOST_NAMESPACE, DEFAULT_REST_ROOT, RouteRegistry } from './registry/route-registry';
import type { RouteDescriptor } from './registry/types';
import type { RestUser } from './rest-user';
import { adminPluginInfo, createAdminDispatch } from './server/admin-dispatch';
import { warnAboutPlainSecrets } from './server/plain-secrets-warning';
import {
  assertPlugins,
  checkAdminOptions,
  checkLogger,
  checkMaxBatchItems,
  checkMaxBodyBytes,
  checkText,
  DEFAULT_COMMERCE_PREFIX,
  type RestServerOptions,
} from './server/server-options';
import { assertNoReservedSettingIds } from './settings-routes/reserved-setting-ids';
import { buildSystemStatus } from './status-report';
import { pluginsVisibleTo } from './status-visibility';
import { assertDistinctStorageKeys } from './storage-keys';

export type { RestServerLogger } from './server/plain-secrets-warning';
export {
  DEFAULT_COMMERCE_PREFIX,
  DEFAULT_MAX_BODY_BYTES,
  type RestServerOptions,
} from './server/server-options';

/** A REST server: one `fetch` function any host can call. */
export interface RestServer {
  /** Answers a WHATWG Fetch `Request` (Node 20+, Bun, Deno, edge runtimes); `this`-free, so it may be passed on alone. */
  fetch(request: Request): Promise<Response>;
  /** Every registered route, with full path, namespace, methods and arguments. */
  getRoutes(): readonly RouteDescriptor[];
  /**
   * The system-status report (see `buildSystemStatus`). Without a user it holds every plugin's
   * block; with one, only the blocks of the plugins whose global level `canAccessScope(user, '',
   * pluginId)` allows (every block when the server has no `canAccessScope`), as
   * `GET …/system_status` and the admin status screen answer that user.
   */
  getSystemStatus(user?: RestUser): Promise<Record<string, unknown>>;
  /** The server's REST root, host namespace and management capability. */
  readonly info: RestServerInfo;
  /** Whether admin pages are served under `/admin/` (`createRestServer({ admin })` with at least one page). */
  readonly servesAdminPages: boolean;
  /**
   * The path prefix under which the server answers admin pages, `/admin/` (every path below it
   * is offered to the pages, a host's own pages included), or `null` when it serves none.
   * Adapters route everything below it to the server.
   */
  readonly adminPathPrefix: string | null;
  /**
   * For host adapters: answers a light {@link RestExchange} without a Fetch `Request`, and
   * returns the result unserialised (`kind: 'json'`: status, headers, JSON text) so the
   * adapter can write it to its own response. Admin pages are served too (`kind: 'response'`).
   */
  handleExchange(exchange: RestExchange): Promise<RestResult>;
}

/**
 * Creates the REST server of a set of plugins: their settings routes (when they have a
 * settings handler), their own routes, the system-status route, the namespace indexes and,
 * with `admin`, the admin pages. Everything is compiled here, once; requests then run through
 * one pipeline.
 *
 * @example
 * ```ts
 * const server = createRestServer({
 *   plugins: [new GatewayPlugin()],
 *   authenticate: bearerTokenAuth({ 'dev-token-0123456789': { id: 1, capabilities: ['manage_commerce'] } }),
 * });
 * const response = await server.fetch(new Request('http://localhost/api/commerce/v3/acme/settings'));
 * ```
 * @throws {@link Framework_Plugin_Exception} (400) for invalid options, duplicate plugin ids,
 *   a settings handler whose id differs from its plugin's, two settings sharing a storage key,
 *   a malformed `trustedOrigins` entry, or any route registration error
 */
export function createRestServer(options: RestServerOptions): RestServer {
  const { plugins } = options;
  assertPlugins(plugins);
  assertDistinctStorageKeys(plugins);
  assertNoReservedSettingIds(plugins);
  if (options.canAccessScope !== undefined && typeof options.canAccessScope !== 'function') {
    throw new Framework_Plugin_Exception('createRestServer: canAccessScope must be a function', 400);
  }
  const canAccessScope = options.canAccessScope?.bind(options);
  const logger = checkLogger(options.logger);
  const registry = new RouteRegistry({
    restRoot: options.restRoot ?? DEFAULT_REST_ROOT,
    hostNamespace: options.hostNamespace ?? DEFAULT_HOST_NAMESPACE,
  });
  const info: RestServerInfo = Object.freeze({
    restRoot: registry.getRestRoot(),
    hostNamespace: registry.getHostNamespace(),
    managementCapability: checkText(
      'managementCapability',
      options.managementCapability,
      DEFAULT_MANAGEMENT_CAPABILITY,
    ),
    maxBatchItems: checkMaxBatchItems(options.maxBatchItems),
    ...(canAccessScope === undefined ? {} : { canAccessScope }),
  });
  const commercePrefix = checkText('commercePrefix', options.commercePrefix, DEFAULT_COMMERCE_PREFIX);
  const maxBodyBytes = checkMaxBodyBytes(options.maxBodyBytes);
  const trustedOrigins = compileTrustedOrigins(options.trustedOrigins, 'createRestServer: trustedOrigins');
  const pluginList = Object.freeze([...plugins]);
  const getSystemStatus = async (user?: RestUser): Promise<Record<string, unknown>> => {
    const shown = user === undefined ? pluginList : await pluginsVisibleTo(pluginList, user, canAccessScope);
    return buildSystemStatus(shown, commercePrefix);
  };

  registry.register(info.hostNamespace, '/system_status', {
    methods: 'GET',
    permission: requireManagement(),
    // The permission passed, so there is a user: the report holds the blocks it may see.
    handler: (request) => getSystemStatus(request.user ?? undefined),
    docs: () =>
      libraryRouteDocs((docs) =>
        docs.systemStatus(pluginList, commercePrefix, { filtered: canAccessScope !== undefined }),
      ),
  });
  for (const plugin of pluginList) plugin.getRestApiHandler().registerRoutes(registry);
  registry.seal();

  const authenticate = options.authenticate?.bind(options);
  const fromHeader = (options.authenticate as Partial<HeaderAuthenticator> | undefined)?.fromHeader;
  const pipeline = new RestPipeline(registry.entries(), registry.getNamespaces(), {
    info,
    maxBodyBytes,
    authenticate,
    authenticateFromHeader:
      typeof fromHeader === 'function' ? fromHeader.bind(options.authenticate) : undefined,
    onError: options.onError?.bind(options),
    trustedOrigins,
  });
  // Described on first call: a server that is never asked for its routes does not build them.
  let routes: readonly RouteDescriptor[] | undefined;
  warnAboutPlainSecrets(pluginList, logger);

  const admin = options.admin;
  checkAdminOptions(admin);
  const adminPages = admin === undefined ? [] : [...admin.pages];
  const loginUrl = admin?.loginUrl;
  const adminDispatch =
    admin === undefined
      ? null
      : createAdminDispatch({
          context: {
            csrfSecret: admin.csrfSecret,
            csrfMaxAgeMs: admin.csrfMaxAgeMs ?? DEFAULT_CSRF_MAX_AGE_MS,
            managementCapability: info.managementCapability,
            plugins: pluginList.map(adminPluginInfo),
            commercePrefix,
            ...(canAccessScope === undefined ? {} : { canAccessScope }),
            ...(loginUrl === undefined ? {} : { loginUrl }),
          },
          pages: adminPages,
          systemStatusFor: getSystemStatus,
          restRoot: info.restRoot,
          trustedOrigins,
          authenticate,
          sessionId: admin.sessionId?.bind(admin),
          reportError: (error, exchange) => pipeline.reportError(error, exchange),
        });
  const servesAdminPages = adminPages.length > 0;
  const isAdminPath = (pathname: string) => adminDispatch?.isAdminPath(pathname);
  const serveAdmin = (exchange: RestExchange): Promise<Response> => adminDispatch!.serve(exchange);

  const handleExchange = async (exchange: RestExchange): Promise<RestResult> => {
    if (isAdminPath(exchange.pathname)) return { kind: 'response', response: await serveAdmin(exchange) };
    return pipeline.dispatch(exchange);
  };

  const respond = (result: RestResult, exchange: RestExchange): Response => {
    try {
      return toFetchResponse(result);
    } catch (error) {
      // A handler's header that Fetch refuses (e.g. with CR/LF) is a server error, not a crash.
      pipeline.reportError(error, exchange);
      return toFetchResponse(pipeline.internalErrorResult(exchange));
    }
  };

  return {
    info,
    servesAdminPages,
    adminPathPrefix: servesAdminPages ? ADMIN_PATH_PREFIX : null,
    fetch(request: Request): Promise<Response> {
      let exchange: FetchExchange;
      try {
        exchange = new FetchExchange(request);
      } catch (error) {
        return Promise.reject(error);
      }
      if (isAdminPath(exchange.pathname)) return serveAdmin(exchange);
      const result = pipeline.dispatch(exchange);
      if (result instanceof Promise) return result.then((settled) => respond(settled, exchange));
      return Promise.resolve(respond(result, exchange));
    },
    getRoutes: () => {
      routes ??= Object.freeze(registry.getRoutes());
      return routes;
    },
    getSystemStatus,
    handleExchange,
  };
}
