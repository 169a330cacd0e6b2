import type { RestUser } from './rest-user';

/**
 * The path prefix of every admin page (`/admin/status`, `/admin/settings/{pluginId}`, a host's
 * own pages): the one place it is written. Adapters read it from `server.adminPathPrefix`.
 */
export const ADMIN_PATH_PREFIX = '/admin/';

/** How long an admin form's CSRF token is valid by default: 2 hours. */
export const DEFAULT_CSRF_MAX_AGE_MS = 2 * 60 * 60 * 1000;

/**
 * What the REST server hands an admin page when it dispatches a request under `/admin/`.
 * The server authenticates once (through the host's `authenticate`) and passes the result.
 */
export interface AdminRequestContext {
  /** The authenticated user, or `null`. */
  readonly user: RestUser | null;
  /** The secret CSRF tokens are derived from (`createRestServer({ admin: { csrfSecret } })`). */
  readonly csrfSecret: string;
  /** How long a CSRF token is valid after it was issued, in milliseconds (`admin.csrfMaxAgeMs`). */
  readonly csrfMaxAgeMs: number;
  /**
   * The host's session id for this request (`admin.sessionId`), or `null`: CSRF tokens are
   * bound to it, so a token issued in one session is refused in another.
   */
  readonly sessionId: string | null;
  /** The capability the admin pages require (the server's management capability). */
  readonly managementCapability: string;
  /** Every plugin the server serves, in order, with their names (for the status screen). */
  readonly plugins: readonly AdminPluginInfo[];
  /**
   * The system-status report as this request's user may see it, as `server.getSystemStatus(user)`
   * answers it: only the blocks of the plugins whose global level the server's `canAccessScope`
   * allows the user.
   */
  getSystemStatus(): Promise<Record<string, unknown>>;
  /** The key prefix of the status report, `${commercePrefix}_${pluginId}`. */
  readonly commercePrefix: string;
  /**
   * The server's `canAccessScope` (who reaches which scope; `''` for the global level), when it
   * has one: a settings page for a scope asks it as the settings routes do.
   */
  readonly canAccessScope?: (user: RestUser, scope: string, pluginId: string) => boolean | Promise<boolean>;
  /**
   * The host's sign-in page (`admin.loginUrl`), when it has one: a URL, or a function of the
   * path and query to return to. The "Sign in required" page links there.
   */
  readonly loginUrl?: string | ((returnTo: string) => string);
}

/** A plugin as the admin pages see it. */
export interface AdminPluginInfo {
  /** The plugin's id, as in its settings (`acme_pay`): the `{pluginId}` of `/admin/settings/{pluginId}`. */
  readonly id: string;
  /** The plugin's human-readable name, shown as the heading of its block on the status screen. */
  readonly name: string;
  /**
   * Its settings' labels by id (the control's name, else the setting's, else its id): the status
   * screen shows them instead of the ids. Absent for a plugin without settings.
   */
  readonly settingLabels?: Readonly<Record<string, string>>;
}

/**
 * An admin page the REST server can serve (`Framework_Register_Settings` from
 * `commerce-plugin-framework/admin` implements it). The server offers each request under
 * `/admin/` to its pages in order; the first that answers wins, and none answering is 404.
 */
export interface AdminPage {
  /** Answers the request when this page owns its path (its settings page, the status screen), else `null`. */
  handleAdminRequest(request: Request, context: AdminRequestContext): Promise<Response | null>;
}
