import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import {
  ADMIN_PATH_PREFIX,
  type AdminPage,
  type AdminRequestContext,
  DEFAULT_CSRF_MAX_AGE_MS,
} from './admin-hook';
import type { HeaderAuthenticator } from './bearer-token-auth';
import { compileTrustedOrigins, isCrossSiteWrite, type TrustedOrigins } from './http/cross-site';
import { toRestError } from './http/error-mapping';
import { FetchExchange, type RestExchange } from './http/exchange';
import type { RestServerInfo } from './http/rest-request';
import { type RestResult, toFetchResponse } from './http/rest-result';
import { DEFAULT_MANAGEMENT_CAPABILITY, requireManagement } from './permissions';
import { RestPipeline } from './pipeline/rest-pipeline';
import type { Framework_Plugin } from './plugin';
import { DEFAULT_HOST_NAMESPACE, DEFAULT_REST_ROOT, RouteRegistry } from './registry/route-registry';
import type { RouteDescriptor } from './registry/types';
import { checkUser, type RestUser } from './rest-user';
import { assertNoReservedSettingIds } from './settings-routes/reserved-setting-ids';
import { DEFAULT_MAX_BATCH_ITEMS } from './settings-routes/settings-controller';
import { systemStatusDocs } from './status-docs';
import { buildSystemStatus } from './status-report';
import { assertDistinctStorageKeys } from './storage-keys';

/** The default limit of a request body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The default prefix of system-status keys. */
export const DEFAULT_COMMERCE_PREFIX = 'commerce';

/** Options of {@link createRestServer}. */
export interface RestServerOptions {
  /** The plugins to serve, each with its settings routes and its own routes. */
  plugins: readonly Framework_Plugin[];
  /** The path prefix of every REST route; default `/api`. */
  restRoot?: string;
  /** The namespace of the settings and status routes; default `commerce/v3`. */
  hostNamespace?: string;
  /** The prefix of the system-status keys, `${commercePrefix}_${pluginId}`; default `commerce`. */
  commercePrefix?: string;
  /** The capability the settings, status and admin routes require; default `manage_commerce`. */
  managementCapability?: string;
  /**
   * Who is calling: the host's session or token check. `null` is anonymous. Called once per
   * request that reached a route (after route, method and body checks). A thrown `RestError`
   * is answered as it is, at the permission step. A function that also has a
   * `fromHeader(header)` method (a `HeaderAuthenticator`, as `bearerTokenAuth` returns) is
   * called through that method for REST routes, without building a Fetch `Request`.
   */
  authenticate?(request: Request): RestUser | null | Promise<RestUser | null>;
  /** The largest accepted request body, counted in bytes while reading; default 1 MiB. */
  maxBodyBytes?: number;
  /** The most items `POST …/settings/batch` accepts; default 100. */
  maxBatchItems?: number;
  /**
   * Who reaches which scope through the settings routes (CONTRACT §10), e.g. a manager of the
   * EU shop reaches `eu` and `eu/de` but not `us`. Asked after the route's permission, with the
   * `scope` argument — or `''` when there is none (the global level, whose values every scope
   * inherits); false answers 403 `rest_forbidden`. Default: whoever passes the permission
   * reaches every level.
   */
  canAccessScope?(user: RestUser, scope: string, pluginId: string): boolean | Promise<boolean>;
  /**
   * Admin pages to serve under `/admin/` (`Framework_Register_Settings` from
   * `commerce-plugin-framework/admin`), and the secret their CSRF tokens derive from.
   */
  admin?: {
    /** The pages, asked in order; the first that answers a request under `/admin/` wins (at least one). */
    pages: readonly AdminPage[];
    /** The HMAC key of the forms' CSRF tokens (non-empty; keep it secret and stable across restarts). */
    csrfSecret: string;
    /**
     * The id of the session a request belongs to (read from your session cookie, say), or
     * `null` when it has none. The forms' CSRF tokens are bound to it: a token issued in one
     * session is refused in another, e.g. after signing out and in again. Without it, tokens
     * are bound to the user and their age only.
     */
    sessionId?(request: Request): string | null | undefined | Promise<string | null | undefined>;
    /** How long a form's CSRF token is valid after the page was shown, in milliseconds; default 2 hours. */
    csrfMaxAgeMs?: number;
  };
  /**
   * Origins whose cookie-authenticated writes are accepted besides each request's own, as
   * browsers send them in `Origin` (`['https://admin.shop.example']`), or `'*'` to accept
   * every origin. By default, a write (POST, PUT, PATCH, DELETE; REST routes and admin pages)
   * that carries no `Authorization` header of its own — so can only be authenticated by
   * cookies — is refused with 403 `rest_cross_site_request` when `Sec-Fetch-Site` says
   * `cross-site` or `same-site`, or, without that header, when `Origin` differs from the
   * request's own origin. A bearer-token client on another origin keeps working. Behind a
   * proxy that rewrites `Host` or the scheme, list the public origin here for browsers that do
   * not send `Sec-Fetch-Site`.
   */
  trustedOrigins?: TrustedOrigins;
  /**
   * Called with every error answered as 500 `rest_internal_error` or 503
   * `rest_store_unavailable` (the client sees no details): log it here. A
   * `Framework_Plugin_Exception` that reached the pipeline outside the settings routes arrives
   * as an `UnmappedPluginException` saying so, the original as its `cause`.
   */
  onError?(error: unknown, request: Request): void;
}

/** A REST server: one `fetch` function any host can call. */
export interface RestServer {
  /** Answers a WHATWG Fetch `Request` (Node 20+, Bun, Deno, edge runtimes); `this`-free, so it may be passed on alone. */
  fetch(request: Request): Promise<Response>;
  /** Every registered route, with full path, namespace, methods and arguments. */
  getRoutes(): readonly RouteDescriptor[];
  /** The system-status report (see `buildSystemStatus`). */
  getSystemStatus(): Promise<Record<string, unknown>>;
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

function assertPlugins(plugins: unknown): asserts plugins is readonly Framework_Plugin[] {
  if (!Array.isArray(plugins))
    throw new Framework_Plugin_Exception('createRestServer: "plugins" must be an array', 400);
  const ids = new Set<string>();
  for (const plugin of plugins) {
    // Duck-typed rather than `instanceof`, so that plugins built against the other module
    // format (ESM/CJS) of this package are accepted too.
    if (
      typeof plugin !== 'object' ||
      plugin === null ||
      typeof (plugin as Framework_Plugin).getId !== 'function' ||
      typeof (plugin as Framework_Plugin).getRestApiHandler !== 'function' ||
      typeof (plugin as Framework_Plugin).getSettingsHandler !== 'function'
    ) {
      throw new Framework_Plugin_Exception(
        'createRestServer: every plugin must extend Framework_Plugin',
        400,
      );
    }
    const id = plugin.getId();
    if (ids.has(id))
      throw new Framework_Plugin_Exception(`createRestServer: two plugins have the id "${id}"`, 400);
    ids.add(id);
    const settings = plugin.getSettingsHandler();
    if (settings !== null && settings.getId() !== id) {
      throw new Framework_Plugin_Exception(
        `createRestServer: plugin "${id}" has a settings handler with the id "${settings.getId()}"; ` +
          'the settings id is the {pluginId} of its routes and must equal the plugin id',
        400,
      );
    }
  }
}

function checkMaxBodyBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_BODY_BYTES;
  if (!(Number.isSafeInteger(value) && value >= 0)) {
    throw new Framework_Plugin_Exception(
      `createRestServer: maxBodyBytes must be a non-negative integer, got ${value}`,
      400,
    );
  }
  return value;
}

function checkMaxBatchItems(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_BATCH_ITEMS;
  if (!(Number.isSafeInteger(value) && value >= 1)) {
    throw new Framework_Plugin_Exception(
      `createRestServer: maxBatchItems must be a positive integer, got ${value}`,
      400,
    );
  }
  return value;
}

function checkText(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '' || /[\s\p{Cc}]/u.test(value)) {
    throw new Framework_Plugin_Exception(
      `createRestServer: ${name} must be a non-empty string without white space`,
      400,
    );
  }
  return value;
}

/** What the host's `admin.sessionId` gave: a session id, or `null` for none. */
function checkSessionId(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') {
    throw new TypeError(
      `admin.sessionId returned a ${typeof value}: it must return a string, null or undefined`,
    );
  }
  return value;
}

/** Headers of the server's own admin fallback pages: no script, no style, no framing, no caching. */
const ADMIN_FALLBACK_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

/**
 * A minimal admin page for what no admin page answers (404), what failed before one could, or
 * what the server refused itself (`title` and `message` are fixed text).
 */
function adminHtml(status: number, title: string, message?: string): Response {
  const paragraph = message === undefined ? '' : `<p>${message}</p>`;
  const text = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${paragraph}</body></html>`;
  return new Response(text, { status, headers: ADMIN_FALLBACK_HEADERS });
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
 *   authenticate: bearerTokenAuth({ 'dev-token': { id: 1, capabilities: ['manage_commerce'] } }),
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
  const getSystemStatus = () => buildSystemStatus(pluginList, commercePrefix);

  registry.register(info.hostNamespace, '/system_status', {
    methods: 'GET',
    permission: requireManagement(),
    handler: getSystemStatus,
    docs: () => systemStatusDocs(pluginList, commercePrefix),
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
  const routes = Object.freeze(registry.getRoutes());

  const admin = options.admin;
  if (admin !== undefined) {
    if (
      !Array.isArray(admin.pages) ||
      admin.pages.some((page) => typeof page?.handleAdminRequest !== 'function')
    ) {
      throw new Framework_Plugin_Exception(
        'createRestServer: admin.pages must be a list of admin pages',
        400,
      );
    }
    if (typeof admin.csrfSecret !== 'string' || admin.csrfSecret === '') {
      throw new Framework_Plugin_Exception(
        'createRestServer: admin.csrfSecret must be a non-empty string',
        400,
      );
    }
    if (admin.sessionId !== undefined && typeof admin.sessionId !== 'function') {
      throw new Framework_Plugin_Exception('createRestServer: admin.sessionId must be a function', 400);
    }
    const maxAge = admin.csrfMaxAgeMs;
    if (maxAge !== undefined && !(Number.isSafeInteger(maxAge) && maxAge > 0)) {
      throw new Framework_Plugin_Exception(
        `createRestServer: admin.csrfMaxAgeMs must be a positive integer (milliseconds), got ${maxAge}`,
        400,
      );
    }
  }
  const adminContext: Omit<AdminRequestContext, 'user' | 'sessionId'> | null =
    admin === undefined
      ? null
      : {
          csrfSecret: admin.csrfSecret,
          csrfMaxAgeMs: admin.csrfMaxAgeMs ?? DEFAULT_CSRF_MAX_AGE_MS,
          managementCapability: info.managementCapability,
          plugins: pluginList.map((plugin) => Object.freeze({ id: plugin.getId(), name: plugin.getName() })),
          getSystemStatus,
          commercePrefix,
          ...(canAccessScope === undefined ? {} : { canAccessScope }),
        };
  const adminPages = admin === undefined ? [] : [...admin.pages];
  const servesAdminPages = adminPages.length > 0;
  const restPrefix = `${info.restRoot}/`;

  const isAdminPath = (pathname: string) =>
    adminContext !== null &&
    pathname.startsWith(ADMIN_PATH_PREFIX) &&
    (info.restRoot === '' || !(pathname === info.restRoot || pathname.startsWith(restPrefix)));

  const serveAdmin = async (exchange: RestExchange): Promise<Response> => {
    // Every admin page, the host's own included, gets the REST routes' cross-site check.
    if (isCrossSiteWrite(exchange, trustedOrigins)) {
      return adminHtml(
        403,
        'Request refused',
        'This form was sent from another site, so nothing was changed. Open the page on this site and send it again.',
      );
    }
    const request = exchange.toRequest();
    try {
      const user = authenticate === undefined ? null : checkUser(await authenticate(request));
      const sessionId =
        admin?.sessionId === undefined ? null : checkSessionId(await admin.sessionId(request));
      const context: AdminRequestContext = { ...adminContext!, user, sessionId };
      for (const page of adminPages) {
        const response = await page.handleAdminRequest(request, context);
        if (response !== null) return response;
      }
      return adminHtml(404, 'Not Found');
    } catch (error) {
      const { error: restError, internal, reported } = toRestError(error);
      if (internal) pipeline.reportError(reported, exchange);
      return adminHtml(restError.status, restError.status === 500 ? 'Internal Server Error' : 'Error');
    }
  };

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
    getRoutes: () => routes,
    getSystemStatus,
    handleExchange,
  };
}
