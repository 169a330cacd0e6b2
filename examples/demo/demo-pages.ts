import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from 'commerce-plugin-framework/admin';
import { SESSION_COOKIE } from './demo-auth';

/** What the demo's own pages need to know. */
export interface DemoPagesOptions {
  /** Whether a token is the development token (constant-time). */
  isToken(candidate: string): boolean;
  /** The OpenAPI document, as JSON text. */
  openApiJson: string;
  /** The gateway's plugin id, for the links. */
  gatewayId: string;
}

/** Where `/login` may send the browser afterwards: admin pages only (no open redirect). */
const SAFE_NEXT = /^\/admin\/[A-Za-z0-9_/-]*$/;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#f0f0f1;padding:0 .2em}</style>
</head><body>${body}</body></html>`;
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function loginForm(message: string, next: string): string {
  return page(
    'Sign in — Acme Pay demo',
    `<h1>Sign in</h1>${message}
<form method="get" action="/login">
<label for="token">Development token (printed by <code>npm start</code>)</label><br>
<input id="token" name="token" type="password" autocomplete="off" size="40" required>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Sign in</button>
</form>`,
  );
}

/**
 * The demo's own pages, around the REST server: `/` (links), `/login` (turns the development
 * token into an HttpOnly session cookie for the admin pages), `/logout` and `/openapi.json`.
 *
 * @returns a handler answering `true` when it served the request
 */
export function demoPages(options: DemoPagesOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const home = page(
    'Acme Pay demo',
    `<h1>Acme Pay demo</h1>
<ul>
<li><a href="/admin/settings/${options.gatewayId}">Settings page</a> and <a href="/admin/status">status screen</a> (<a href="/login">sign in</a> first, <a href="/logout">sign out</a>)</li>
<li><a href="/api">REST index</a>, <a href="/api/acme/v1/items">items</a></li>
<li><a href="/openapi.json">OpenAPI 3.1 document</a></li>
</ul>`,
  );
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = new URL(req.url ?? '/', 'http://localhost');
    switch (url.pathname) {
      case '/':
        send(res, 200, 'text/html; charset=utf-8', home);
        return true;
      case '/openapi.json':
        send(res, 200, 'application/json; charset=utf-8', options.openApiJson);
        return true;
      case '/logout':
        send(res, 303, 'text/plain; charset=utf-8', 'Signed out.', {
          location: '/login',
          'set-cookie': `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`,
        });
        return true;
      case '/login': {
        const requested = url.searchParams.get('next') ?? '';
        const next = SAFE_NEXT.test(requested) ? requested : '/admin/status';
        const token = url.searchParams.get('token');
        if (token === null) {
          send(res, 200, 'text/html; charset=utf-8', loginForm('', next));
        } else if (options.isToken(token)) {
          // HttpOnly: scripts cannot read it; SameSite=Strict: other sites cannot post with it.
          // Add `Secure` when serving over HTTPS.
          send(res, 303, 'text/plain; charset=utf-8', 'Signed in.', {
            location: next,
            'set-cookie': `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
          });
        } else {
          send(
            res,
            401,
            'text/html; charset=utf-8',
            loginForm('<p role="alert">That is not the token.</p>', next),
          );
        }
        return true;
      }
      default:
        return false;
    }
  };
}
