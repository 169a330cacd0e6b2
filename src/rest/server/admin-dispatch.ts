import {
  ADMIN_PATH_PREFIX,
  type AdminPage,
  type AdminPluginInfo,
  type AdminRequestContext,
} from '../admin-hook';
import { isCrossSiteWrite, type TrustedOriginSet } from '../http/cross-site';
import { toRestError } from '../http/error-mapping';
import type { RestExchange } from '../http/exchange';
import type { Framework_Plugin } from '../plugin';
import { checkUser, type RestUser } from '../rest-user';

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

/** A plugin as the admin pages see it: id, name and its settings' labels (the admin form's). */
export function adminPluginInfo(plugin: Framework_Plugin): AdminPluginInfo {
  const settings = plugin.getSettingsHandler();
  const info = { id: plugin.getId(), name: plugin.getName() };
  if (settings === null) return Object.freeze(info);
  const labels: Record<string, string> = {};
  for (const [id, setting] of settings.getSettings()) {
    labels[id] = setting.getControl()?.getName() || setting.getName() || id;
  }
  return Object.freeze({ ...info, settingLabels: Object.freeze(labels) });
}

/** What the admin dispatch needs from the server. */
export interface AdminDispatchOptions {
  /** The context every admin request gets, besides its user, session and status report. */
  readonly context: Omit<AdminRequestContext, 'user' | 'sessionId' | 'getSystemStatus'>;
  /** The system-status report as `user` may see it (`server.getSystemStatus(user)`). */
  readonly systemStatusFor: (user: RestUser) => Promise<Record<string, unknown>>;
  /** The pages, asked in order. */
  readonly pages: readonly AdminPage[];
  readonly restRoot: string;
  readonly trustedOrigins: TrustedOriginSet;
  readonly authenticate: ((request: Request) => RestUser | null | Promise<RestUser | null>) | undefined;
  readonly sessionId: ((request: Request) => unknown) | undefined;
  /** Reports an internal error to the host's `onError`. */
  readonly reportError: (error: unknown, exchange: RestExchange) => void;
}

/** The admin side of a server: which paths are admin pages, and how they are answered. */
export interface AdminDispatch {
  /** Whether `pathname` is an admin path (under `/admin/`, not under the REST root). */
  isAdminPath(pathname: string): boolean;
  /** Answers an admin request as HTML: a page's answer, or the server's own fallback page. */
  serve(exchange: RestExchange): Promise<Response>;
}

/**
 * The dispatch of admin pages under `/admin/`: the cross-site check, `authenticate` and the
 * session id, then each page in order; a fallback page for what none answers or what failed.
 */
export function createAdminDispatch(options: AdminDispatchOptions): AdminDispatch {
  const { context, pages, restRoot, trustedOrigins, authenticate, sessionId, reportError, systemStatusFor } =
    options;
  const restPrefix = `${restRoot}/`;
  return {
    isAdminPath: (pathname) =>
      pathname.startsWith(ADMIN_PATH_PREFIX) &&
      (restRoot === '' || !(pathname === restRoot || pathname.startsWith(restPrefix))),
    async serve(exchange) {
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
        const session = sessionId === undefined ? null : checkSessionId(await sessionId(request));
        const full: AdminRequestContext = {
          ...context,
          user,
          sessionId: session,
          // Only the blocks this user may see; an anonymous request sees none (the pages refuse it anyway).
          getSystemStatus: () => (user === null ? Promise.resolve({}) : systemStatusFor(user)),
        };
        for (const page of pages) {
          const response = await page.handleAdminRequest(request, full);
          if (response !== null) return response;
        }
        return adminHtml(404, 'Not Found');
      } catch (error) {
        const { error: restError, internal, reported } = toRestError(error);
        if (internal) reportError(reported, exchange);
        return adminHtml(restError.status, restError.status === 500 ? 'Internal Server Error' : 'Error');
      }
    },
  };
}
