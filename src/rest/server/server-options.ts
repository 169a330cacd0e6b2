import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { AdminPage } from '../admin-hook';
import type { TrustedOrigins } from '../http/cross-site';
import type { Framework_Plugin } from '../plugin';
import type { RestUser } from '../rest-user';
import { DEFAULT_MAX_BATCH_ITEMS } from '../settings-routes/settings-controller';
import type { RestServerLogger } from './plain-secrets-warning';

/** The default limit of a request body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The default prefix of system-status keys. */
export const DEFAULT_COMMERCE_PREFIX = 'commerce';

/** Options of `createRestServer`. */
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
    /**
     * Where an admin page sends someone who is not signed in: the "Sign in required" page links
     * there. A URL gets `redirect_to=<path and query of the page asked for>` added to its query
     * (`'/login'` → `/login?redirect_to=%2Fadmin%2Fstatus`); a function gets that path and
     * returns the whole URL (`(returnTo) => '/account/sign-in?next=' + encodeURIComponent(returnTo)`).
     * The path is the one the server saw: add a mount prefix your host strips yourself. Without
     * it, the page asks to sign in and reload.
     */
    loginUrl?: string | ((returnTo: string) => string);
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
  /**
   * Where the server's warnings go; default `console`. At creation it warns once per plugin
   * whose settings have secret settings and no cipher (`settings.hasSecretCipher()` false):
   * their secrets are stored in plain text. Messages name the plugin id, never a value.
   */
  logger?: RestServerLogger;
}

/** @throws {@link Framework_Plugin_Exception} (400) unless `plugins` is a list of plugins with distinct ids whose settings ids match */
export function assertPlugins(plugins: unknown): asserts plugins is readonly Framework_Plugin[] {
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

/** `logger`, checked; `console` when absent. */
export function checkLogger(logger: unknown): RestServerLogger {
  if (logger === undefined) return console;
  if (
    typeof logger !== 'object' ||
    logger === null ||
    typeof (logger as RestServerLogger).warn !== 'function'
  ) {
    throw new Framework_Plugin_Exception('createRestServer: logger must have a warn(message) method', 400);
  }
  return logger as RestServerLogger;
}

/** `maxBodyBytes`, checked; the default when absent. */
export function checkMaxBodyBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_BODY_BYTES;
  if (!(Number.isSafeInteger(value) && value >= 0)) {
    throw new Framework_Plugin_Exception(
      `createRestServer: maxBodyBytes must be a non-negative integer, got ${value}`,
      400,
    );
  }
  return value;
}

/** `maxBatchItems`, checked; the default when absent. */
export function checkMaxBatchItems(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_BATCH_ITEMS;
  if (!(Number.isSafeInteger(value) && value >= 1)) {
    throw new Framework_Plugin_Exception(
      `createRestServer: maxBatchItems must be a positive integer, got ${value}`,
      400,
    );
  }
  return value;
}

/** A text option without white space (`managementCapability`, `commercePrefix`), checked; `fallback` when absent. */
export function checkText(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '' || /[\s\p{Cc}]/u.test(value)) {
    throw new Framework_Plugin_Exception(
      `createRestServer: ${name} must be a non-empty string without white space`,
      400,
    );
  }
  return value;
}

/** @throws {@link Framework_Plugin_Exception} (400) for malformed `admin` options */
export function checkAdminOptions(admin: RestServerOptions['admin']): void {
  if (admin === undefined) return;
  if (
    !Array.isArray(admin.pages) ||
    admin.pages.some((page) => typeof page?.handleAdminRequest !== 'function')
  ) {
    throw new Framework_Plugin_Exception('createRestServer: admin.pages must be a list of admin pages', 400);
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
  const login: unknown = admin.loginUrl;
  if (
    login !== undefined &&
    typeof login !== 'function' &&
    !(typeof login === 'string' && login.trim() !== '')
  ) {
    throw new Framework_Plugin_Exception(
      'createRestServer: admin.loginUrl must be a non-empty URL or a function (returnTo) => URL',
      400,
    );
  }
  const maxAge = admin.csrfMaxAgeMs;
  if (maxAge !== undefined && !(Number.isSafeInteger(maxAge) && maxAge > 0)) {
    throw new Framework_Plugin_Exception(
      `createRestServer: admin.csrfMaxAgeMs must be a positive integer (milliseconds), got ${maxAge}`,
      400,
    );
  }
}
