/**
 * Cross-site writes with the site's cookies (CSRF) through `server.fetch`: what a browser page
 * on another site can send without a CORS preflight — a form post, `fetch` with
 * `mode: 'no-cors'`, `navigator.sendBeacon` — must not change anything.
 */
import {
  createRestServer,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  type RestServer,
  type RestServerOptions,
  type RestUser,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { itemsPlugin } from '../../../examples/items-plugin';
import { ADMIN_TOKEN, authenticate as bearer, call, GatewayPlugin } from '../support/fixtures';

const SESSION = 'cookie-session-0123';
const ORIGIN = 'https://shop.example';
const WEBHOOK = '/api/commerce/v3/acme/settings/webhook_url';

/** Bearer tokens, or the admin's session cookie (what a browser attaches by itself). */
function authenticate(request: Request): RestUser | null {
  const user = bearer(request);
  if (user !== null) return user;
  const cookie = request.headers.get('cookie') ?? '';
  return cookie.includes(`session=${SESSION}`) ? { id: 1, capabilities: ['manage_commerce'] } : null;
}

function shop(options: Partial<RestServerOptions> = {}) {
  const store = new MemoryOptionStore();
  const server = createRestServer({ plugins: [new GatewayPlugin(store)], authenticate, ...options });
  return { server, store };
}

/** Sends a request the way a browser would, with the session cookie. */
async function send(
  server: RestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  const response = await server.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers: { cookie: `session=${SESSION}`, ...headers }, body }),
  );
  return {
    status: response.status,
    json: (await response.json()) as { code: string; data: { params?: unknown } },
  };
}

const stored = (store: MemoryOptionStore) => store.get('framework_acme_webhook_url');

describe('query arguments of writes', () => {
  it('are ignored on POST, PUT and PATCH without a JSON Content-Type (no-cors fetch, sendBeacon, forms)', async () => {
    const { server, store } = shop();
    const query = `${WEBHOOK}?value=${encodeURIComponent('https://evil.example/hook')}`;
    for (const method of ['POST', 'PUT', 'PATCH']) {
      for (const headers of [
        {} as Record<string, string>,
        { 'content-type': 'text/plain;charset=UTF-8' },
        { 'content-type': 'application/x-www-form-urlencoded' },
      ]) {
        const answer = await send(server, method, query, headers);
        expect([answer.status, answer.json.code], `${method} ${JSON.stringify(headers)}`).toEqual([
          400,
          'rest_missing_callback_param',
        ]);
        expect(answer.json.data.params).toEqual(['value']);
      }
    }
    expect(await stored(store)).toBeUndefined();
  });

  it('are read on writes with a JSON Content-Type (which needs a preflight cross-site), and on DELETE', async () => {
    const { server, store } = shop();
    const query = `${WEBHOOK}?value=${encodeURIComponent('https://hooks.example/1')}`;
    const answer = await send(server, 'PUT', query, { 'content-type': 'application/json' });
    expect(answer.status).toBe(200);
    expect(await stored(store)).toBe('https://hooks.example/1');
    // DELETE keeps its query arguments (`force`, …), with no Content-Type.
    const items = createRestServer({ plugins: [itemsPlugin()], authenticate });
    await call(items, 'POST', '/api/acme/v1/items', { token: ADMIN_TOKEN, body: { name: 'Mug', price: 1 } });
    const deleted = await call(items, 'DELETE', '/api/acme/v1/items/1?force=true', { token: ADMIN_TOKEN });
    expect([deleted.status, deleted.json.data.deleted]).toEqual([200, true]);
  });
});

describe('writes from another site that rely on cookies', () => {
  const beacon = { 'content-type': 'text/plain;charset=UTF-8' };

  it('are refused with 403 rest_cross_site_request when Sec-Fetch-Site is cross-site or same-site', async () => {
    const { server, store } = shop();
    for (const site of ['cross-site', 'same-site']) {
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const answer = await send(
          server,
          method,
          WEBHOOK,
          {
            ...beacon,
            'sec-fetch-site': site,
            'sec-fetch-mode': 'no-cors',
            origin: 'https://evil.example',
          },
          '{"value":"https://evil.example/hook"}',
        );
        expect([answer.status, answer.json.code], `${method} ${site}`).toEqual([
          403,
          'rest_cross_site_request',
        ]);
      }
    }
    // A cross-site DELETE (which a browser only sends after a preflight) is refused the same way.
    const items = createRestServer({ plugins: [itemsPlugin()], authenticate });
    const remove = await send(items, 'DELETE', '/api/acme/v1/items/1?force=true', {
      'sec-fetch-site': 'cross-site',
    });
    expect([remove.status, remove.json.code]).toEqual([403, 'rest_cross_site_request']);
    // Even a JSON body that would otherwise be valid: the check comes before the body is read.
    const json = await send(
      server,
      'PUT',
      WEBHOOK,
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      '{"value":"https://evil.example/hook"}',
    );
    expect(json.status).toBe(403);
    expect(await stored(store)).toBeUndefined();
  });

  it('are refused by Origin when the browser sends no Sec-Fetch-Site (Origin: null too)', async () => {
    const { server } = shop();
    for (const origin of [
      'https://evil.example',
      'null',
      'http://shop.example',
      'https://shop.example:8443',
    ]) {
      const answer = await send(server, 'POST', WEBHOOK, { ...beacon, origin }, 'x');
      expect([answer.status, answer.json.code], origin).toEqual([403, 'rest_cross_site_request']);
    }
  });

  it('pass from the same origin, from the user, and without browser headers', async () => {
    const { server, store } = shop();
    const body = (n: number) => JSON.stringify({ value: `https://hooks.example/${n}` });
    const json = { 'content-type': 'application/json' };
    const cases: Record<string, string>[] = [
      { ...json, 'sec-fetch-site': 'same-origin', origin: ORIGIN },
      { ...json, origin: ORIGIN },
      { ...json, 'sec-fetch-site': 'none' },
      json,
      // A proxy in front rewrote Host: the browser's Sec-Fetch-Site still says same-origin.
      { ...json, 'sec-fetch-site': 'same-origin', origin: 'https://public.example' },
    ];
    for (const [index, headers] of cases.entries()) {
      const answer = await send(server, 'PUT', WEBHOOK, headers, body(index));
      expect(answer.status, JSON.stringify(headers)).toBe(200);
    }
    expect(await stored(store)).toBe(`https://hooks.example/${cases.length - 1}`);
  });

  it('pass with an Authorization header of their own: a bearer-token app on another origin', async () => {
    const { server } = shop();
    const answer = await send(
      server,
      'PUT',
      WEBHOOK,
      {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        'sec-fetch-site': 'cross-site',
        origin: 'https://spa.example',
      },
      '{"value":"https://hooks.example/spa"}',
    );
    expect(answer.status).toBe(200);
    // HTTP authentication the browser remembers is ambient, like a cookie.
    const basic = await send(
      server,
      'POST',
      WEBHOOK,
      { authorization: 'Basic YWRtaW46c2VjcmV0', ...beacon, 'sec-fetch-site': 'cross-site' },
      'x',
    );
    expect(basic.status).toBe(403);
  });

  it('leave reads alone', async () => {
    const { server } = shop();
    const read = await send(server, 'GET', WEBHOOK, {
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    });
    expect(read.status).toBe(200);
  });

  it('pass from trusted origins; "*" switches the check off', async () => {
    const headers = { ...beacon, 'sec-fetch-site': 'cross-site', origin: 'https://admin.example' };
    const trusted = shop({ trustedOrigins: ['https://admin.example'] }).server;
    expect((await send(trusted, 'POST', WEBHOOK, headers, 'x')).json.code).toBe(
      'rest_unsupported_media_type',
    );
    expect(
      (await send(trusted, 'POST', WEBHOOK, { ...headers, origin: 'https://evil.example' }, 'x')).status,
    ).toBe(403);
    const open = shop({ trustedOrigins: '*' }).server;
    expect(
      (await send(open, 'POST', WEBHOOK, { ...headers, origin: 'https://evil.example' }, 'x')).status,
    ).toBe(415);
  });

  it('trustedOrigins must be exact serialised origins', () => {
    const make = (trustedOrigins: unknown) => () =>
      createRestServer({ plugins: [], trustedOrigins: trustedOrigins as never });
    for (const bad of [
      ['https://shop.example/'],
      ['HTTPS://shop.example'],
      ['https://shop.example:443'],
      ['shop.example'],
      ['null'],
      ['ftp://shop.example'],
      [42],
      'https://shop.example',
      {},
    ]) {
      expect(make(bad), JSON.stringify(bad)).toThrow(Framework_Plugin_Exception);
    }
    expect(make(['https://shop.example/'])).toThrow(
      /trustedOrigins\[0\].*did you mean "https:\/\/shop.example"/,
    );
    expect(make(['https://shop.example', 'http://localhost:3000'])).not.toThrow();
  });
});
