import { type Context, Hono, type Next } from 'hono';
import type { RestServer } from '../../rest/server';
import { MountScope } from '../mount-scope';

/**
 * Stands for a body a middleware failed to parse with `c.req.json()` (Hono then keeps only the
 * rejection, not the bytes): text that is not JSON, so the pipeline answers what it answers
 * for any such body — 400 `rest_invalid_json`, or 415 when the content type is not JSON.
 */
const UNPARSABLE_BODY = '{';

/**
 * The request to hand the server: Hono's own request, or, when a middleware already read the
 * body (`c.req.json()`, `c.req.text()`… cache it), a copy carrying the bytes Hono kept, so the
 * pipeline still applies its own checks and limit to them.
 */
async function unreadRequest(c: Context): Promise<Request> {
  const raw = c.req.raw;
  if (!raw.bodyUsed) return raw;
  let body: ArrayBuffer | string;
  try {
    body = await c.req.arrayBuffer();
  } catch {
    body = UNPARSABLE_BODY;
  }
  return new Request(raw.url, { method: raw.method, headers: raw.headers, body, signal: raw.signal });
}

/**
 * A Hono app serving a REST server: mount it with `app.route('/', restApp)`. It answers every
 * request under the server's `restRoot` (404, 405… included) exactly as `server.fetch` would,
 * and the admin pages when the server has them; other requests go on to the app's next
 * handlers. Runs wherever Hono runs (Node, Bun, Deno, edge), like `server.fetch` itself.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { toHonoApp } from 'commerce-plugin-framework/hono';
 *
 * const app = new Hono();
 * app.route('/', toHonoApp(server));
 * export default app;
 * ```
 */
export function toHonoApp(server: RestServer): Hono {
  const app = new Hono();
  const scope = new MountScope(server.info.restRoot, server.adminPathPrefix);
  const serve = async (c: Context, next: Next): Promise<Response | undefined> => {
    const claim = scope.claim(new URL(c.req.url).pathname);
    if (claim === 'pass') {
      await next();
      return undefined;
    }
    const request = await unreadRequest(c);
    const response = await server.fetch(request);
    if (claim === 'admin' && response.status === 404 && !request.bodyUsed) {
      await response.body?.cancel();
      await next();
      return undefined;
    }
    return response;
  };
  const { restRoot } = server.info;
  if (restRoot === '') app.all('*', serve);
  else {
    app.all(restRoot, serve);
    app.all(`${restRoot}/*`, serve);
  }
  if (server.adminPathPrefix !== null) app.all(`${server.adminPathPrefix}*`, serve);
  return app;
}
