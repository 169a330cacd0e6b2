/**
 * A host's own admin page (an `AdminPage` of its own, next to the settings page) works under
 * every adapter: each routes every path under the server's `adminPathPrefix` to the server.
 */
import type { AdminPage, AdminRequestContext } from 'commerce-plugin-framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viaHttp } from './support/answers';
import { fixtureServer } from './support/fixture-server';
import { ADAPTER_HOSTS } from './support/hosts';
import type { Listening } from './support/parity-suite';

/** Daily reports under `/admin/reports/…`, for managers. */
class ReportsPage implements AdminPage {
  async handleAdminRequest(request: Request, context: AdminRequestContext): Promise<Response | null> {
    const { pathname } = new URL(request.url);
    const match = /^\/admin\/reports\/([a-z-]+)$/.exec(pathname);
    if (match === null) return null;
    if (!context.user?.capabilities.includes(context.managementCapability)) {
      return new Response('<h1>Sign in</h1>', { status: 401, headers: { 'content-type': 'text/html' } });
    }
    return new Response(`<h1>Report ${match[1]}</h1>`, {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
}

describe.each(Object.entries(ADAPTER_HOSTS))(
  "a host's own admin page through the %s adapter",
  (_name, listen) => {
    let host: Listening;
    beforeAll(async () => {
      host = await listen(fixtureServer([new ReportsPage()]));
    });
    afterAll(() => host.close());

    /** GETs an admin path as the signed-in admin (or anonymously). */
    const get = (path: string, anonymous = false) =>
      viaHttp(host.origin, { name: '', method: 'GET', path, as: anonymous ? undefined : 'session' });

    it('is served at any depth under /admin/, next to the built-in pages', async () => {
      const report = await get('/admin/reports/daily-sales');
      expect(report).toMatchObject({ status: 200, body: '<h1>Report daily-sales</h1>' });
      expect((await get('/admin/reports/daily-sales', true)).status).toBe(401);
      expect((await get('/admin/settings/shop')).status).toBe(200);
      expect((await get('/admin/status')).status).toBe(200);
    });

    it('answers 404 for admin paths no page serves', async () => {
      expect((await get('/admin/reports/Bad_Name')).status).toBe(404);
    });
  },
);
