import { Framework_Plugin_Exception, MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  authenticate,
  CLERK_TOKEN,
  call,
  GatewayPlugin,
  GatewaySettings,
  makeServer,
} from './support/fixtures';

const BASE = '/api/commerce/v3/acme/settings';

describe('settings routes', () => {
  it('lists every setting in registration order with defaults applied', async () => {
    const server = makeServer();
    const res = await call(server, 'GET', BASE, { token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json.map((s: { id: string }) => s.id)).toEqual([
      'title',
      'webhook_url',
      'contact',
      'retries',
      'fee',
      'enabled',
      'meta',
      'methods',
      'mode',
      'api_key',
      'secret',
    ]);
    expect(res.json[0]).toEqual({
      id: 'title',
      type: 'string',
      name: 'Title',
      description: 'Shown at checkout',
      is_multi: false,
      options: [],
      default: 'Card',
      value: 'Card',
      control: null,
    });
    const mode = res.json.find((s: { id: string }) => s.id === 'mode');
    expect(mode.control).toEqual({
      type: 'select',
      name: 'Mode',
      description: '',
      options: { live: 'Live', test: 'Test' },
    });
    expect(mode.options).toEqual(['live', 'test']);
    expect(res.json.find((s: { id: string }) => s.id === 'meta').default).toBeNull();
  });

  it('gets one setting', async () => {
    const server = makeServer();
    const res = await call(server, 'GET', `${BASE}/retries`, { token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 'retries', type: 'integer', value: 3, default: 3 });
  });

  const updates: [string, unknown][] = [
    ['title', 'Credit card'],
    ['webhook_url', 'https://example.com/hook?x=1'],
    ['contact', 'ops@example.com'],
    ['retries', 7],
    ['fee', 1.25],
    ['fee', 2],
    ['enabled', true],
    ['enabled', false],
    ['meta', { nested: { list: [1, 'two', null, true] } }],
    ['meta', [1, 2, 3]],
    ['methods', ['sepa', 'card']],
    ['mode', 'live'],
  ];
  for (const [id, value] of updates) {
    it(`updates ${id} to ${JSON.stringify(value)} over HTTP and reads it back`, async () => {
      const store = new MemoryOptionStore();
      const server = makeServer({ plugins: [new GatewayPlugin(store)] });
      const res = await call(server, 'PUT', `${BASE}/${id}`, { token: ADMIN_TOKEN, body: { value } });
      expect(res.status).toBe(200);
      expect(res.json.value).toEqual(value);
      // A fresh server on the same store reads the stored value.
      const fresh = makeServer({ plugins: [new GatewayPlugin(store)] });
      const read = await call(fresh, 'GET', `${BASE}/${id}`, { token: ADMIN_TOKEN });
      expect(read.json.value).toEqual(value);
    });
  }

  it('accepts POST and PATCH like PUT', async () => {
    const server = makeServer();
    expect(
      (await call(server, 'POST', `${BASE}/retries`, { token: ADMIN_TOKEN, body: { value: 1 } })).json.value,
    ).toBe(1);
    expect(
      (await call(server, 'PATCH', `${BASE}/retries`, { token: ADMIN_TOKEN, body: { value: 2 } })).json.value,
    ).toBe(2);
  });

  const rejected: [string, unknown][] = [
    ['retries', '7'],
    ['retries', 1.5],
    ['fee', '1.25'],
    ['enabled', 'true'],
    ['enabled', 1],
    ['title', 5],
    ['webhook_url', 'ftp://example.com'],
    ['contact', 'not-an-email'],
    ['methods', 'card'],
    ['methods', ['card', 'bitcoin']],
    ['mode', 'staging'],
    ['meta', 'x\u0000y'],
  ];
  for (const [id, value] of rejected) {
    it(`rejects ${JSON.stringify(value)} for ${id} with 400 rest_setting_value_invalid`, async () => {
      const store = new MemoryOptionStore();
      const server = makeServer({ plugins: [new GatewayPlugin(store)] });
      const res = await call(server, 'PUT', `${BASE}/${id}`, { token: ADMIN_TOKEN, body: { value } });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('rest_setting_value_invalid');
      expect(res.json.data.status).toBe(400);
      expect(res.json.message).toContain(id);
      expect(await store.getMany([`framework_acme_${id}`])).toEqual(new Map());
    });
  }

  it("answers a subclass's own rejection with its 4xx code as rest_setting_value_invalid", async () => {
    class StrictSettings extends GatewaySettings {
      override async updateValue(id: string, value: unknown): Promise<void> {
        if (id === 'retries' && value === 13) {
          throw new Framework_Plugin_Exception('Setting "retries": 13 is unlucky', 422);
        }
        return super.updateValue(id, value);
      }
    }
    class StrictPlugin extends GatewayPlugin {
      override readonly settings = new StrictSettings('acme', new MemoryOptionStore());
    }
    const server = makeServer({ plugins: [new StrictPlugin()] });
    const res = await call(server, 'PUT', `${BASE}/retries`, { token: ADMIN_TOKEN, body: { value: 13 } });
    expect([res.status, res.json.code, res.json.data.status]).toEqual([
      422,
      'rest_setting_value_invalid',
      422,
    ]);
    expect(res.json.message).toBe('Setting "retries": 13 is unlucky');
    expect(
      (await call(server, 'PUT', `${BASE}/retries`, { token: ADMIN_TOKEN, body: { value: 12 } })).status,
    ).toBe(200);
  });

  it("answers an override's exception without a code (0) as 400 rest_setting_value_invalid", async () => {
    class RequiredPrefix extends GatewaySettings {
      override async updateValue(id: string, value: unknown): Promise<void> {
        if (id === 'title' && !String(value).startsWith('Card')) {
          throw new Framework_Plugin_Exception('The title must start with "Card".');
        }
        return super.updateValue(id, value);
      }
    }
    class PrefixPlugin extends GatewayPlugin {
      override readonly settings = new RequiredPrefix('acme', new MemoryOptionStore());
    }
    const server = makeServer({ plugins: [new PrefixPlugin()] });
    const res = await call(server, 'PUT', `${BASE}/title`, { token: ADMIN_TOKEN, body: { value: 'Pay' } });
    expect([res.status, res.json.code, res.json.data.status]).toEqual([
      400,
      'rest_setting_value_invalid',
      400,
    ]);
    expect(res.json.message).toBe('The title must start with "Card".');
  });

  it('requires value: absent or null is 400 rest_missing_callback_param', async () => {
    const server = makeServer();
    for (const body of [{}, { value: null }, undefined]) {
      const res = await call(server, 'PUT', `${BASE}/retries`, { token: ADMIN_TOKEN, body });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('rest_missing_callback_param');
      expect(res.json.data.params).toEqual(['value']);
    }
  });

  it('treats an empty or white-space-only body as no body', async () => {
    const server = makeServer();
    for (const rawBody of ['', '  \n\t ']) {
      const res = await call(server, 'PUT', `${BASE}/retries`, {
        token: ADMIN_TOKEN,
        rawBody,
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('rest_missing_callback_param');
    }
  });

  it('answers 404 rest_setting_not_found for an unknown id, only to a permitted user', async () => {
    const server = makeServer();
    expect((await call(server, 'GET', `${BASE}/nope`, { token: ADMIN_TOKEN })).json.code).toBe(
      'rest_setting_not_found',
    );
    const put = await call(server, 'PUT', `${BASE}/nope`, { token: ADMIN_TOKEN, body: { value: 1 } });
    expect([put.status, put.json.code]).toEqual([404, 'rest_setting_not_found']);
    expect((await call(server, 'GET', `${BASE}/nope`)).status).toBe(401);
    expect((await call(server, 'GET', `${BASE}/nope`, { token: CLERK_TOKEN })).status).toBe(403);
    const badValue = await call(server, 'PUT', `${BASE}/retries`, {
      token: CLERK_TOKEN,
      body: { value: 'x' },
    });
    expect([badValue.status, badValue.json.code]).toEqual([403, 'rest_forbidden']);
  });

  it('requires the management capability', async () => {
    const server = makeServer();
    const anonymous = await call(server, 'GET', BASE);
    expect([anonymous.status, anonymous.json]).toEqual([
      401,
      { code: 'rest_forbidden', message: expect.any(String), data: { status: 401 } },
    ]);
    expect((await call(server, 'GET', BASE, { token: CLERK_TOKEN })).status).toBe(403);
    const custom = makeServer({ managementCapability: 'edit_shop_orders' });
    expect((await call(custom, 'GET', BASE, { token: CLERK_TOKEN })).status).toBe(200);
  });

  it('lists with one store round trip when cold and none when warm', async () => {
    const inner = new MemoryOptionStore({ framework_acme_retries: '9' });
    const counts = { getMany: 0, get: 0 };
    const store = {
      get: (key: string) => {
        counts.get++;
        return inner.get(key);
      },
      getMany: (keys: readonly string[]) => {
        counts.getMany++;
        return inner.getMany(keys);
      },
      set: (key: string, value: string) => inner.set(key, value),
      delete: (key: string) => inner.delete(key),
    };
    const server = makeServer({ plugins: [new GatewayPlugin(store)] });
    const first = await call(server, 'GET', BASE, { token: ADMIN_TOKEN });
    expect(first.json.find((s: { id: string }) => s.id === 'retries').value).toBe(9);
    expect(counts).toEqual({ getMany: 1, get: 0 });
    await call(server, 'GET', BASE, { token: ADMIN_TOKEN });
    await call(server, 'GET', `${BASE}/retries`, { token: ADMIN_TOKEN });
    expect(counts).toEqual({ getMany: 1, get: 0 });
  });

  it('answers 503 rest_store_unavailable without internals when the store fails', async () => {
    const errors: unknown[] = [];
    const failing = {
      get: async () => {
        throw new Error('connection refused at 10.0.0.1:5432 password=hunter2');
      },
      getMany: async () => {
        throw new Error('connection refused at 10.0.0.1:5432 password=hunter2');
      },
      set: async () => {
        throw new Error('connection refused at 10.0.0.1:5432 password=hunter2');
      },
      delete: async () => false,
    };
    const server = makeServer({
      plugins: [new GatewayPlugin(failing)],
      onError: (error) => errors.push(error),
    });
    for (const [method, path, body] of [
      ['GET', BASE, undefined],
      ['GET', `${BASE}/retries`, undefined],
      ['PUT', `${BASE}/retries`, { value: 4 }],
    ] as const) {
      const res = await call(server, method, path, { token: ADMIN_TOKEN, body });
      expect(res.status).toBe(503);
      expect(res.json.code).toBe('rest_store_unavailable');
      expect(res.text).not.toMatch(/10\.0\.0\.1|hunter2|connection|at /);
    }
    expect(errors).toHaveLength(3);
  });

  it('uses the settings id as the {pluginId} segment and a custom host namespace and root', async () => {
    const server = makeServer({ restRoot: '/rest/', hostNamespace: 'shop/v9' });
    const res = await call(server, 'GET', '/rest/shop/v9/acme/settings/mode', { token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.json.value).toBe('test');
  });

  it('works with authenticate omitted: everyone is anonymous', async () => {
    const server = makeServer({ authenticate: undefined });
    expect((await call(server, 'GET', BASE, { token: ADMIN_TOKEN })).status).toBe(401);
  });

  it('keeps the bearer helper usable as authenticate', () => {
    expect(typeof authenticate).toBe('function');
  });
});
