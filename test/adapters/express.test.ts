import { createServer } from 'node:http';
import type { RestServer } from 'commerce-plugin-framework';
import { toExpressRouter } from 'commerce-plugin-framework/express';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viaHttp } from './support/answers';
import { fixtureServer } from './support/fixture-server';
import { listenOn } from './support/listen';
import { describeParity, type Listening } from './support/parity-suite';

/** The app's own routes, around the router: they must keep working. */
function withHostRoutes(app: Express): Express {
  app.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  app.post('/echo', (req, res) => {
    res.json({ echoed: req.body ?? null });
  });
  app.get('/admin/dashboard', (_req, res) => {
    res.type('text').send('host dashboard');
  });
  return app;
}

function routerFirst(server: RestServer): Promise<Listening> {
  const app = express();
  app.use(toExpressRouter(server));
  app.use(express.json());
  return listenOn(createServer(withHostRoutes(app)));
}

function parsersFirst(server: RestServer): Promise<Listening> {
  const app = express();
  app.use(express.json(), express.urlencoded({ extended: false }));
  app.use(toExpressRouter(server));
  return listenOn(createServer(withHostRoutes(app)));
}

describeParity('toExpressRouter, mounted before express.json()', routerFirst);
describeParity('toExpressRouter, after express.json() and express.urlencoded()', parsersFirst, {
  hostParserFirst: true,
});

describe.each([
  ['before the body parsers', routerFirst],
  ['after the body parsers', parsersFirst],
])('toExpressRouter %s, inside a host app', (_name, listen) => {
  let host: Listening;
  beforeAll(async () => {
    host = await listen(fixtureServer());
  });
  afterAll(() => host.close());

  it("passes requests outside the REST root to the app's routes", async () => {
    expect((await viaHttp(host.origin, { name: '', method: 'GET', path: '/hello' })).body).toEqual({
      hello: 'world',
    });
    const echo = await viaHttp(host.origin, {
      name: '',
      method: 'POST',
      path: '/echo',
      body: { json: { a: 1 } },
    });
    expect(echo.body).toEqual({ echoed: { a: 1 } });
  });

  it("passes admin paths without an admin page to the app, and unknown paths to the app's 404", async () => {
    const dashboard = await viaHttp(host.origin, { name: '', method: 'GET', path: '/admin/dashboard' });
    expect(dashboard).toMatchObject({ status: 200, body: 'host dashboard' });
    const missing = await viaHttp(host.origin, { name: '', method: 'GET', path: '/nowhere' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/); // Express's own 404 page
  });
});

describe('toExpressRouter mounted under a path', () => {
  it('serves the admin pages with links, form and redirect that keep the mount prefix', async () => {
    const app = express();
    app.use('/shop', toExpressRouter(fixtureServer()));
    const host = await listenOn(createServer(app));
    const as = 'session' as const;
    try {
      const pageUrl = new URL('/shop/admin/settings/shop', host.origin);
      const page = await viaHttp(host.origin, { name: '', method: 'GET', path: pageUrl.pathname, as });
      expect(page.status).toBe(200);
      const html = page.body as string;
      const resolve = (href: string, base: URL) => new URL(href.replaceAll('&amp;', '&'), base);
      const action = resolve(/<form[^>]* action="([^"]*)"/.exec(html)![1]!, pageUrl);
      expect(action.pathname).toBe('/shop/admin/settings/shop');
      const links = [...html.matchAll(/<li><a href="([^"]*)"/g)].map(
        (match) => resolve(match[1]!, pageUrl).pathname,
      );
      expect(links).toEqual(['/shop/admin/settings/shop', '/shop/admin/status']);

      const token = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
      const posted = await viaHttp(host.origin, {
        name: '',
        method: 'POST',
        path: action.pathname,
        as,
        body: {
          text: new URLSearchParams({ _csrf: token, framework_shop_title: 'Mounted' }).toString(),
          type: 'application/x-www-form-urlencoded',
        },
      });
      expect(posted.status).toBe(303);
      const back = resolve(posted.headers.location!, action);
      expect(`${back.pathname}${back.search}`).toBe('/shop/admin/settings/shop?settings-updated=true');
      const saved = await viaHttp(host.origin, {
        name: '',
        method: 'GET',
        path: `${back.pathname}${back.search}`,
        as,
      });
      expect(saved.body).toContain('Settings saved');
      expect(saved.body).toContain('value="Mounted"');

      const status = await viaHttp(host.origin, { name: '', method: 'GET', path: '/shop/admin/status', as });
      const statusLinks = [...(status.body as string).matchAll(/<li><a href="([^"]*)"/g)].map(
        (match) => resolve(match[1]!, new URL('/shop/admin/status', host.origin)).pathname,
      );
      expect(statusLinks).toEqual(['/shop/admin/settings/shop', '/shop/admin/status']);
    } finally {
      await host.close();
    }
  });

  it('serves the REST root relative to the mount point', async () => {
    const app = express();
    app.use('/shop', toExpressRouter(fixtureServer()));
    const host = await listenOn(createServer(app));
    try {
      const index = await viaHttp(host.origin, { name: '', method: 'GET', path: '/shop/api/acme/v1/items' });
      expect(index).toMatchObject({ status: 200, body: { success: true, data: [] } });
    } finally {
      await host.close();
    }
  });
});
