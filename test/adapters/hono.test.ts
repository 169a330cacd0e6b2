import { createServer } from 'node:http';
import type { RestServer } from 'commerce-plugin-framework';
import { toHonoApp } from 'commerce-plugin-framework/hono';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeListener } from '../../examples/hono/node-listener';
import { viaHttp } from './support/answers';
import { fixtureServer } from './support/fixture-server';
import { listenOn } from './support/listen';
import { describeParity, type Listening } from './support/parity-suite';

function honoHost(server: RestServer, readBodyFirst = false): Promise<Listening> {
  const app = new Hono();
  if (readBodyFirst) {
    // A middleware that reads every body before the REST app (as a logger or validator might).
    app.use('*', async (c, next) => {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
        if ((c.req.header('content-type') ?? '').includes('json')) await c.req.json().catch(() => undefined);
        else await c.req.text();
      }
      await next();
    });
  }
  app.route('/', toHonoApp(server));
  app.get('/hello', (c) => c.json({ hello: 'world' }));
  app.get('/admin/dashboard', (c) => c.text('host dashboard'));
  return listenOn(createServer(nodeListener(app.fetch)));
}

describeParity('toHonoApp answers as server.fetch', (server) => honoHost(server));

describe('toHonoApp inside a host app', () => {
  let host: Listening;
  beforeAll(async () => {
    host = await honoHost(fixtureServer());
  });
  afterAll(() => host.close());

  it("passes other paths to the app's routes", async () => {
    expect((await viaHttp(host.origin, { name: '', method: 'GET', path: '/hello' })).body).toEqual({
      hello: 'world',
    });
    expect((await viaHttp(host.origin, { name: '', method: 'GET', path: '/admin/dashboard' })).body).toBe(
      'host dashboard',
    );
    expect((await viaHttp(host.origin, { name: '', method: 'GET', path: '/nowhere' })).status).toBe(404);
  });
});

describe('toHonoApp after a middleware that read the body', () => {
  let host: Listening;
  beforeAll(async () => {
    host = await honoHost(fixtureServer(), true);
  });
  afterAll(() => host.close());

  const put = (text: string, type = 'application/json') => ({
    name: '',
    method: 'PUT',
    path: '/api/commerce/v3/shop/settings/retries',
    as: 'admin' as const,
    body: { text, type },
  });

  it('hands the server the bytes Hono kept', async () => {
    expect(await viaHttp(host.origin, put('{"value": 9}'))).toMatchObject({
      status: 200,
      body: { value: 9 },
    });
    expect(await viaHttp(host.origin, put('value=9', 'text/plain'))).toMatchObject({
      status: 415,
      body: { code: 'rest_unsupported_media_type' },
    });
    const large = await viaHttp(host.origin, put(JSON.stringify({ value: 'x'.repeat(2000) })));
    expect(large).toMatchObject({ status: 413, body: { code: 'rest_body_too_large' } });
  });

  it('answers a body the middleware failed to parse as invalid JSON', async () => {
    expect(await viaHttp(host.origin, put('{"value":'))).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_json' },
    });
  });
});

describe('toHonoApp under a prefix', () => {
  it('works with app.mount(prefix, restApp.fetch), which strips the prefix', async () => {
    const app = new Hono();
    app.mount('/shop', toHonoApp(fixtureServer()).fetch);
    const host = await listenOn(createServer(nodeListener(app.fetch)));
    try {
      const items = await viaHttp(host.origin, { name: '', method: 'GET', path: '/shop/api/acme/v1/items' });
      expect(items).toMatchObject({ status: 200, body: { success: true, data: [] } });
    } finally {
      await host.close();
    }
  });
});
