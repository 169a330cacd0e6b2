import type { AdminPage, AdminRequestContext } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, GatewayPlugin, makeServer, PlainPlugin } from './support/fixtures';

/** A minimal page implementing the admin hook, answering one path. */
class RecordingPage implements AdminPage {
  readonly seen: AdminRequestContext[] = [];
  constructor(
    private readonly path: string,
    private readonly body: string,
  ) {}
  async handleAdminRequest(request: Request, context: AdminRequestContext): Promise<Response | null> {
    if (new URL(request.url).pathname !== this.path) return null;
    this.seen.push(context);
    return new Response(this.body, { headers: { 'content-type': 'text/html' } });
  }
}

describe('admin hook', () => {
  it('offers /admin/ requests to each page in order; the first answer wins', async () => {
    const first = new RecordingPage('/admin/settings/acme', 'settings page');
    const second = new RecordingPage('/admin/settings/acme', 'never');
    const status = new RecordingPage('/admin/status', 'status page');
    const server = makeServer({
      plugins: [new GatewayPlugin(), new PlainPlugin()],
      admin: { pages: [first, second, status], csrfSecret: 'a-secret-of-enough-length' },
    });
    const res = await call(server, 'GET', '/admin/settings/acme', { token: ADMIN_TOKEN });
    expect([res.status, res.text]).toEqual([200, 'settings page']);
    expect(second.seen).toHaveLength(0);
    expect((await call(server, 'GET', '/admin/status')).text).toBe('status page');

    const context = first.seen[0]!;
    expect(context.user).toEqual({ id: 1, capabilities: ['manage_commerce', 'edit_shop_orders'] });
    expect(context.csrfSecret).toBe('a-secret-of-enough-length');
    expect(context.managementCapability).toBe('manage_commerce');
    expect(context.commercePrefix).toBe('commerce');
    expect(context.plugins).toEqual([
      {
        id: 'acme',
        name: 'Acme Payments',
        // The status screen's labels of the settings: the control's name, else the setting's.
        settingLabels: expect.objectContaining({ title: 'Title', mode: 'Mode', api_key: 'API key' }),
      },
      { id: 'plain', name: 'Plain' },
    ]);
    expect(Object.keys(await context.getSystemStatus())).toEqual(['commerce_acme', 'commerce_plain']);
    expect(status.seen[0]!.user).toBeNull();
    expect(server.servesAdminPages).toBe(true);
    expect(server.adminPathPrefix).toBe('/admin/');
  });

  it('says whether it serves admin pages, and under which prefix', () => {
    expect(makeServer().servesAdminPages).toBe(false);
    expect(makeServer().adminPathPrefix).toBeNull();
    const noPages = makeServer({ admin: { pages: [], csrfSecret: 'a-secret-of-enough-length' } });
    expect([noPages.servesAdminPages, noPages.adminPathPrefix]).toEqual([false, null]);
  });

  it('answers 404 HTML when no page answers, and leaves REST routes alone', async () => {
    const server = makeServer({ admin: { pages: [], csrfSecret: 'a-secret-of-enough-length' } });
    const res = await call(server, 'GET', '/admin/nothing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await call(server, 'GET', '/api/commerce/v3/acme/settings', { token: ADMIN_TOKEN })).status).toBe(
      200,
    );
  });

  it('answers a failing page with 500 HTML without details, reported to onError', async () => {
    const errors: unknown[] = [];
    const failing: AdminPage = {
      handleAdminRequest: async () => {
        throw new Error('template missing at /srv/views/admin.html');
      },
    };
    const server = makeServer({
      admin: { pages: [failing], csrfSecret: 'a-secret-of-enough-length' },
      onError: (error) => errors.push(error),
    });
    const res = await call(server, 'GET', '/admin/status');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('srv');
    expect(errors).toHaveLength(1);
  });

  it('does not serve /admin/ without admin pages', async () => {
    const res = await call(makeServer(), 'GET', '/admin/status');
    expect([res.status, res.json.code]).toEqual([404, 'rest_no_route']);
  });
});
