import {
  bearerTokenAuth,
  createAesGcmCipher,
  createRestServer,
  Framework_REST_API,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, authenticate, CLERK_TOKEN, call, GatewayPlugin, PlainPlugin } from './support/fixtures';

class ReportingApi extends Framework_REST_API {
  override async getSystemStatusData() {
    return { webhook_ok: true, settings_extra: 1, is_payment_gateway: 'overridden by the plugin' };
  }
}
class ReportingPlugin extends PlainPlugin {
  protected override initRestApiHandler(): void {
    this.restApiHandler = new ReportingApi(this);
  }
}

describe('system status', () => {
  it('reports one member per plugin with settings, defaults applied and passwords masked', async () => {
    const store = new MemoryOptionStore({
      framework_acme_api_key: 'sk_live_123',
      framework_acme_retries: '5',
    });
    const server = createRestServer({ plugins: [new GatewayPlugin(store), new PlainPlugin()], authenticate });
    const report = await server.getSystemStatus();
    expect(Object.keys(report)).toEqual(['commerce_acme', 'commerce_plain']);
    expect(report.commerce_acme).toEqual({
      is_payment_gateway: true,
      settings: {
        title: 'Card',
        webhook_url: null,
        contact: null,
        retries: 5,
        fee: 0.5,
        enabled: false,
        meta: null,
        methods: null,
        mode: 'test',
        api_key: '********',
        secret: '********',
      },
      schema_version: { stored: 1, code: 1 },
      secrets_encrypted: false,
      unreadable_secrets: [],
    });
    expect(report.commerce_plain).toEqual({ is_payment_gateway: false, settings: {} });
    expect(JSON.stringify(report)).not.toContain('sk_live_123');
  });

  it('leaves an unset password without default as null', async () => {
    const report = await createRestServer({ plugins: [new GatewayPlugin()] }).getSystemStatus();
    expect((report.commerce_acme as { settings: Record<string, unknown> }).settings.api_key).toBeNull();
  });

  it("puts the plugin's own members last", async () => {
    const report = await createRestServer({
      plugins: [new ReportingPlugin()],
      commercePrefix: 'shop',
    }).getSystemStatus();
    expect(Object.keys(report)).toEqual(['shop_plain']);
    const entry = report.shop_plain as Record<string, unknown>;
    expect(Object.keys(entry)).toEqual(['is_payment_gateway', 'settings', 'webhook_ok', 'settings_extra']);
    expect(entry.is_payment_gateway).toBe('overridden by the plugin');
  });

  it("masks the plugin's own members under secret keys, over REST as on the admin screen", async () => {
    class LeakyApi extends Framework_REST_API {
      override getSystemStatusData() {
        return {
          webhook_secret: 'whsec_live_1',
          gateway: { apiKey: 'ak_live_2', accessToken: 'at_3', pin_code: 1234, ok: true, key: 'public' },
          tokens: ['tk_4', 'tk_5'],
          client_secret: '',
          password: null,
          webhook_url: 'https://hooks.example/x',
        };
      }
    }
    class LeakyPlugin extends PlainPlugin {
      protected override initRestApiHandler(): void {
        this.restApiHandler = new LeakyApi(this);
      }
    }
    const server = createRestServer({ plugins: [new LeakyPlugin()], authenticate });
    const expected = {
      is_payment_gateway: false,
      settings: {},
      webhook_secret: '********',
      gateway: { apiKey: '********', accessToken: '********', pin_code: 1234, ok: true, key: 'public' },
      tokens: ['********', '********'],
      client_secret: '',
      password: null,
      webhook_url: 'https://hooks.example/x',
    };
    expect((await server.getSystemStatus()).commerce_plain).toEqual(expected);
    const res = await call(server, 'GET', '/api/commerce/v3/system_status', { token: ADMIN_TOKEN });
    expect(res.json.commerce_plain).toEqual(expected);
    expect(res.text).not.toMatch(/whsec_live_1|ak_live_2|at_3|tk_4|tk_5/);
  });

  it('is served at GET {restRoot}/{hostNamespace}/system_status for managers only', async () => {
    const store = new MemoryOptionStore({ framework_acme_api_key: 'sk_live_123' });
    const server = createRestServer({ plugins: [new GatewayPlugin(store)], authenticate });
    const res = await call(server, 'GET', '/api/commerce/v3/system_status', { token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(await server.getSystemStatus());
    expect(res.json.commerce_acme.settings.api_key).toBe('********');
    expect((await call(server, 'GET', '/api/commerce/v3/system_status')).status).toBe(401);
    expect((await call(server, 'GET', '/api/commerce/v3/system_status', { token: CLERK_TOKEN })).status).toBe(
      403,
    );
  });

  it('reflects updates made over HTTP', async () => {
    const server = createRestServer({ plugins: [new GatewayPlugin()], authenticate });
    await call(server, 'PUT', '/api/commerce/v3/acme/settings/enabled', {
      token: ADMIN_TOKEN,
      body: { value: true },
    });
    await call(server, 'PUT', '/api/commerce/v3/acme/settings/api_key', {
      token: ADMIN_TOKEN,
      body: { value: 'k' },
    });
    const report = (await server.getSystemStatus()).commerce_acme as { settings: Record<string, unknown> };
    expect(report.settings.enabled).toBe(true);
    expect(report.settings.api_key).toBe('********');
  });

  it('answers 503 when the store fails', async () => {
    const failing = {
      get: () => Promise.reject(new Error('down')),
      getMany: () => Promise.reject(new Error('down')),
      set: () => Promise.reject(new Error('down')),
      delete: () => Promise.reject(new Error('down')),
    };
    const server = createRestServer({ plugins: [new GatewayPlugin(failing)], authenticate });
    const res = await call(server, 'GET', '/api/commerce/v3/system_status', { token: ADMIN_TOKEN });
    expect([res.status, res.json.code]).toEqual([503, 'rest_store_unavailable']);
  });
});

describe('the secrets and schema members of a block (third round)', () => {
  it('with a cipher: plain text planted lists in plaintext_secrets and secrets_encrypted turns false; an unreadable scope secret is id@scope', async () => {
    const key = btoa(String.fromCharCode(...new Uint8Array(32).fill(4)));
    const store = new MemoryOptionStore({
      framework_acme_api_key: 'sk_planted',
      'framework_acme_api_key@eu': 'enc:v1:gone:AAAA',
    });
    const plugin = new GatewayPlugin(store, 'acme', { secrets: createAesGcmCipher([{ id: 'k', key }]) });
    const server = createRestServer({ plugins: [plugin], authenticate });
    const block = (await server.getSystemStatus()).commerce_acme as Record<string, unknown>;
    expect(block).toMatchObject({
      schema_version: { stored: 1, code: 1 },
      secrets_encrypted: false,
      unreadable_secrets: ['api_key@eu'],
      plaintext_secrets: ['api_key'],
    });
    await plugin.getSettingsHandler().rotateSecrets();
    const after = (await server.getSystemStatus()).commerce_acme as Record<string, unknown>;
    expect(after).toMatchObject({ secrets_encrypted: true, plaintext_secrets: [] });
    // Without a cipher there is no plaintext_secrets member at all.
    const plain = (
      await createRestServer({
        plugins: [new GatewayPlugin(new MemoryOptionStore())],
        authenticate,
      }).getSystemStatus()
    ).commerce_acme as Record<string, unknown>;
    expect(plain).not.toHaveProperty('plaintext_secrets');
  });
});

describe('system status filtered by canAccessScope (third round)', () => {
  const EU_MANAGER_TOKEN = 'eu-manager-token-0123456789';
  const NO_PLUGIN_TOKEN = 'no-plugin-token-0123456789';
  const manager = (id: number) => ({ id, capabilities: ['manage_commerce'] });
  const filteredAuth = bearerTokenAuth({
    [ADMIN_TOKEN]: manager(1),
    [EU_MANAGER_TOKEN]: manager(2),
    [NO_PLUGIN_TOKEN]: manager(3),
  });
  const asked: [unknown, string, string][] = [];
  /** User 1 reaches everything; user 2 only the plugin without settings (asynchronously); user 3 nothing. */
  const canAccessScope = (user: { id: string | number }, scope: string, pluginId: string) => {
    asked.push([user.id, scope, pluginId]);
    if (user.id === 1) return true;
    if (user.id === 2) return Promise.resolve(pluginId === 'plain');
    return false;
  };
  const filteredServer = () =>
    createRestServer({
      plugins: [new GatewayPlugin(), new PlainPlugin()],
      authenticate: filteredAuth,
      canAccessScope,
    });

  it("keeps a plugin's block only when the user may access its global level, with or without settings", async () => {
    const server = filteredServer();
    asked.length = 0;
    const all = await call(server, 'GET', '/api/commerce/v3/system_status', { token: ADMIN_TOKEN });
    expect(Object.keys(all.json)).toEqual(['commerce_acme', 'commerce_plain']);
    expect(asked).toEqual([
      [1, '', 'acme'],
      [1, '', 'plain'],
    ]);
    const some = await call(server, 'GET', '/api/commerce/v3/system_status', { token: EU_MANAGER_TOKEN });
    expect([some.status, Object.keys(some.json)]).toEqual([200, ['commerce_plain']]);
    expect(some.text).not.toContain('acme');
    const none = await call(server, 'GET', '/api/commerce/v3/system_status', { token: NO_PLUGIN_TOKEN });
    expect([none.status, none.json]).toEqual([200, {}]);
  });

  it('keeps every block without a user, and filters with one', async () => {
    const server = filteredServer();
    expect(Object.keys(await server.getSystemStatus())).toEqual(['commerce_acme', 'commerce_plain']);
    expect(Object.keys(await server.getSystemStatus(manager(2)))).toEqual(['commerce_plain']);
    expect(await server.getSystemStatus(manager(3))).toEqual({});
    // Without canAccessScope, a user sees every block.
    const open = createRestServer({ plugins: [new GatewayPlugin(), new PlainPlugin()] });
    expect(Object.keys(await open.getSystemStatus(manager(3)))).toEqual(['commerce_acme', 'commerce_plain']);
  });

  it('filters the admin status screen the same way', async () => {
    const { Framework_Register_Settings, Framework_Register_Settings_Fields } = await import(
      'commerce-plugin-framework/admin'
    );
    const gateway = new GatewayPlugin();
    const page = new Framework_Register_Settings(gateway, {
      fields: new Framework_Register_Settings_Fields(gateway.getSettingsHandler()),
    });
    const server = createRestServer({
      plugins: [gateway, new PlainPlugin()],
      authenticate: filteredAuth,
      canAccessScope,
      admin: { pages: [page], csrfSecret: 'a-secret-of-enough-length' },
    });
    const all = await call(server, 'GET', '/admin/status', { token: ADMIN_TOKEN });
    expect(all.text).toContain('Acme Payments');
    expect(all.text).toContain('commerce_plain');
    const some = await call(server, 'GET', '/admin/status', { token: EU_MANAGER_TOKEN });
    expect(some.status).toBe(200);
    expect(some.text).toContain('commerce_plain');
    expect(some.text).not.toContain('commerce_acme');
    expect(some.text).not.toContain('********');
    const none = await call(server, 'GET', '/admin/status', { token: NO_PLUGIN_TOKEN });
    expect(none.status).toBe(200);
    expect(none.text).toContain('Your account may not see the status of any plugin.');
    expect(none.text).not.toMatch(/commerce_acme|commerce_plain/);
  });
});
