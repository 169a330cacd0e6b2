import type { RestServer } from 'commerce-plugin-framework';
import { fastifyPlugin } from 'commerce-plugin-framework/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viaHttp } from './support/answers';
import { fixtureServer } from './support/fixture-server';
import { describeParity, type Listening } from './support/parity-suite';

async function listenFastify(app: FastifyInstance): Promise<Listening> {
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return { origin, close: () => app.close() };
}

/** A Fastify app with its default JSON parser and its own routes next to the plugin. */
async function fastifyHost(server: RestServer): Promise<Listening> {
  const app = Fastify({ forceCloseConnections: true });
  await app.register(fastifyPlugin(server));
  app.post('/echo', async (request) => ({ echoed: request.body }));
  app.get('/admin/dashboard', async () => 'host dashboard');
  return listenFastify(app);
}

// Fastify answers methods it does not know (PROPFIND…) with its own 404 before any route runs
// (`app.addHttpMethod` teaches it more; the plugin then registers them too).
describeParity('fastifyPlugin answers as server.fetch', fastifyHost, { skip: ['405 for an unknown method'] });

describe('fastifyPlugin inside a host app', () => {
  let host: Listening;
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ forceCloseConnections: true });
    await app.register(fastifyPlugin(fixtureServer()));
    app.post('/echo', async (request) => ({ echoed: request.body }));
    app.get('/admin/dashboard', async () => 'host dashboard');
    host = await listenFastify(app);
  });
  afterAll(() => host.close());

  it('registers native routes from the descriptors, not one catch-all', () => {
    const has = (method: 'GET' | 'HEAD' | 'PUT' | 'DELETE' | 'OPTIONS', url: string) =>
      app.hasRoute({ method, url });
    for (const url of [
      '/api',
      '/api/commerce/v3',
      '/api/acme/v1',
      '/api/commerce/v3/system_status',
      '/api/commerce/v3/shop/settings',
      '/api/commerce/v3/shop/settings/:setting_id',
      '/api/acme/v1/items',
      '/api/acme/v1/items/:id',
      '/admin/*',
    ]) {
      expect(has('GET', url), url).toBe(true);
      expect(has('HEAD', url), url).toBe(true);
      expect(has('OPTIONS', url), url).toBe(true);
      expect(has('DELETE', url), url).toBe(true); // answered 405 + Allow by the pipeline
    }
    expect(has('PUT', '/api/*')).toBe(true); // the REST 404 for every other path under the root
  });

  it('leaves methods Fastify does not know, and Content-Types that are not media types, to Fastify', async () => {
    const propfind = await viaHttp(host.origin, { name: '', method: 'PROPFIND', path: '/api/acme/v1/items' });
    expect(propfind.status).toBe(404);
    const malformed = await viaHttp(host.origin, {
      name: '',
      method: 'PUT',
      path: '/api/commerce/v3/shop/settings/retries',
      body: { text: '{"value":1}', type: 'nonsense' },
    });
    expect(malformed).toMatchObject({ status: 415, body: { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' } });
  });

  it('registers the methods taught with app.addHttpMethod() before it', async () => {
    const taught = Fastify({ forceCloseConnections: true });
    taught.addHttpMethod('PROPFIND', { hasBody: true });
    await taught.register(fastifyPlugin(fixtureServer()));
    const listening = await listenFastify(taught);
    try {
      const propfind = await viaHttp(listening.origin, {
        name: '',
        method: 'PROPFIND',
        path: '/api/acme/v1/items',
      });
      expect(propfind).toMatchObject({
        status: 405,
        headers: { allow: 'GET, HEAD, POST, OPTIONS' },
        body: { code: 'rest_method_not_allowed' },
      });
    } finally {
      await listening.close();
    }
  });

  it("keeps the app's own JSON parser and routes outside the plugin's scope", async () => {
    const echo = await viaHttp(host.origin, {
      name: '',
      method: 'POST',
      path: '/echo',
      body: { json: { a: 1 } },
    });
    expect(echo.body).toEqual({ echoed: { a: 1 } });
    const invalid = await viaHttp(host.origin, {
      name: '',
      method: 'POST',
      path: '/echo',
      body: { text: '{', type: 'application/json' },
    });
    expect(invalid.body).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    const dashboard = await viaHttp(host.origin, { name: '', method: 'GET', path: '/admin/dashboard' });
    expect(dashboard.body).toBe('host dashboard');
  });

  it('does not register admin routes for a server without admin pages', async () => {
    const { createRestServer } = await import('commerce-plugin-framework');
    const { itemsPlugin } = await import('../../examples/items-plugin/index');
    const bare = Fastify();
    await bare.register(fastifyPlugin(createRestServer({ plugins: [itemsPlugin()] })));
    await bare.ready();
    expect(bare.hasRoute({ method: 'GET', url: '/admin/*' })).toBe(false);
    expect(bare.hasRoute({ method: 'GET', url: '/api/acme/v1/items/:id' })).toBe(true);
    await bare.close();
  });

  it('serves the routes below a registration prefix', async () => {
    const prefixed = Fastify({ forceCloseConnections: true });
    await prefixed.register(fastifyPlugin(fixtureServer()), { prefix: '/shop' });
    const listening = await listenFastify(prefixed);
    try {
      const items = await viaHttp(listening.origin, {
        name: '',
        method: 'GET',
        path: '/shop/api/acme/v1/items',
      });
      expect(items).toMatchObject({ status: 200, body: { success: true, data: [] } });
      const missing = await viaHttp(listening.origin, { name: '', method: 'GET', path: '/shop/api/nope' });
      expect(missing.body).toMatchObject({ code: 'rest_no_route' });
    } finally {
      await listening.close();
    }
  });
});
