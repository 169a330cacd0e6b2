import {
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type RestServer,
  type RestUser,
  type SettingsDocument,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

class Shop extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Shop' });
    this.registerSetting('fee', 'float');
    this.registerSetting('api_key', 'string', { secret: true });
  }
}

const BASE = 'http://shop.test/api/commerce/v3/acme/settings';

function server(
  options: { canAccessScope?: (user: RestUser, scope: string) => boolean; settings?: SettingsOptions } = {},
) {
  const store = new MemoryOptionStore();
  const settings = new Shop('acme', store, options.settings ?? {});
  class Plugin extends Framework_Plugin {
    override getSettingsHandler(): Shop {
      return settings;
    }
  }
  const rest: RestServer = createRestServer({
    plugins: [new Plugin({ id: 'acme', name: 'Acme', version: '1.0.0' })],
    authenticate: (request) =>
      request.headers.get('authorization') === 'Bearer admin-token-0123456789'
        ? { id: 7, capabilities: ['manage_commerce'] }
        : null,
    ...(options.canAccessScope ? { canAccessScope: options.canAccessScope } : {}),
  });
  return { rest, settings, store };
}

async function call(
  rest: RestServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await rest.fetch(
    new Request(`${BASE}${path}`, {
      method,
      headers: {
        authorization: 'Bearer admin-token-0123456789',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are asserted by the tests themselves.
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const doc = (levels: SettingsDocument['levels']): SettingsDocument => ({
  format: 'commerce-plugin-settings',
  version: 1,
  plugin: 'acme',
  schema_version: 1,
  levels,
});

describe('GET …/settings/export', () => {
  it('answers the document, leaving out the levels the user may not reach', async () => {
    const { rest, settings } = server({ canAccessScope: (_user, scope) => scope !== 'us' });
    await settings.updateValue('title', 'Acme');
    await settings.updateValue('api_key', 'sk_rest_secret');
    await settings.scope('eu').updateValue('fee', 2);
    await settings.scope('us').updateValue('fee', 3);
    const answer = await call(rest, 'GET', '/export');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme',
      schema_version: 1,
      levels: { '': { title: 'Acme', api_key: { $secret: expect.any(String) } }, eu: { fee: 2 } },
    });
    expect(JSON.stringify(answer.json)).not.toContain('sk_rest_secret');
  });
});

describe('POST …/settings/import', () => {
  it('dry_run answers the plan (200 even with errors); without it the plan is made and applied', async () => {
    const { rest, settings } = server();
    const dry = await call(rest, 'POST', '/import', {
      document: doc({ '': { title: 'New', fee: 'x' } }),
      dry_run: true,
    });
    expect(dry.status).toBe(200);
    expect(dry.json.errors).toEqual([expect.objectContaining({ id: 'fee', code: 'value_invalid' })]);
    const refused = await call(rest, 'POST', '/import', {
      document: doc({ '': { title: 'New', fee: 'x' } }),
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      code: 'rest_plan_invalid',
      data: { errors: [{ id: 'fee', code: 'value_invalid' }] },
    });
    const applied = await call(rest, 'POST', '/import', { document: doc({ '': { title: 'New' } }) });
    expect(applied.status).toBe(200);
    expect(applied.json).toMatchObject({ applied: 1, plan: { changes: [{ id: 'title', new: 'New' }] } });
    expect(await settings.getValue('title')).toBe('New');
    const [entry] = await settings.getHistory({ limit: 1 });
    expect(entry).toMatchObject({ via: 'import', actor: { id: 7 } });
  });

  it('plan_id not the fresh plan’s: 412 rest_precondition_failed with the fresh plan, nothing stored', async () => {
    const { rest, settings } = server();
    const document = doc({ '': { title: 'Planned' } });
    const reviewed = await call(rest, 'POST', '/import', { document, dry_run: true });
    await settings.updateValue('title', 'Changed meanwhile');
    const stale = await call(rest, 'POST', '/import', { document, plan_id: reviewed.json.id });
    expect(stale.status).toBe(412);
    expect(stale.json.code).toBe('rest_precondition_failed');
    expect(stale.json.data.plan.changes).toEqual([
      { scope: null, id: 'title', action: 'set', old: 'Changed meanwhile', new: 'Planned' },
    ]);
    expect(await settings.getValue('title')).toBe('Changed meanwhile');
    const fresh = await call(rest, 'POST', '/import', { document, plan_id: stale.json.data.plan.id });
    expect(fresh.status).toBe(200);
  });

  it('a missing document is 400 rest_missing_callback_param; one refused as a whole, rest_invalid_param', async () => {
    const { rest } = server();
    const missing = await call(rest, 'POST', '/import', {});
    expect([missing.status, missing.json.code]).toEqual([400, 'rest_missing_callback_param']);
    for (const body of [
      { document: { ...doc({}), plugin: 'other' } },
      { document: { ...doc({}), schema_version: 5 } },
    ]) {
      const answer = await call(rest, 'POST', '/import', body);
      expect([answer.status, answer.json.code]).toEqual([400, 'rest_invalid_param']);
    }
  });

  it('canAccessScope applies to every level the plan touches; cross-site writes are refused like the others', async () => {
    const { rest, store } = server({ canAccessScope: (_user, scope) => scope !== 'us' });
    const forbidden = await call(rest, 'POST', '/import', {
      document: doc({ eu: { fee: 1 }, us: { fee: 2 } }),
    });
    expect([forbidden.status, forbidden.json.code]).toEqual([403, 'rest_forbidden']);
    const dry = await call(rest, 'POST', '/import', { document: doc({ us: { fee: 2 } }), dry_run: true });
    expect(dry.status).toBe(403);
    expect(await store.listKeys('framework_acme_')).toEqual([]);
    const crossSite = await rest.fetch(
      new Request(`${BASE}/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: 'session=1' },
        body: JSON.stringify({ document: doc({ '': { title: 'x' } }) }),
      }),
    );
    expect(crossSite.status).toBe(403);
  });
});

describe('POST …/settings/restore', () => {
  it('plans and applies a restore; an unknown target is 404 rest_history_not_found', async () => {
    const { rest, settings } = server();
    await settings.updateValue('title', 'Before');
    const [entry] = await settings.getHistory({ limit: 1 });
    await settings.updateValue('title', 'After');
    const dry = await call(rest, 'POST', '/restore', { to: entry!.id, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.json.changes).toEqual([
      { scope: null, id: 'title', action: 'set', old: 'After', new: 'Before' },
    ]);
    const applied = await call(rest, 'POST', '/restore', {
      to: entry!.id,
      scope: null,
      setting_ids: ['title'],
    });
    expect(applied.json).toMatchObject({ applied: 1 });
    expect(await settings.getValue('title')).toBe('Before');
    const unknown = await call(rest, 'POST', '/restore', { to: 'yesterday' });
    expect([unknown.status, unknown.json.code]).toEqual([404, 'rest_history_not_found']);
  });
});

describe('reserved setting ids', () => {
  it('createRestServer refuses a plugin with a setting named export, import or restore', () => {
    for (const id of ['export', 'import', 'restore']) {
      class Named extends Framework_Abstract_Settings {
        protected registerSettings(): void {
          this.registerSetting(id, 'string');
        }
      }
      const settings = new Named('acme', new MemoryOptionStore());
      class Plugin extends Framework_Plugin {
        override getSettingsHandler(): Named {
          return settings;
        }
      }
      expect(() =>
        createRestServer({ plugins: [new Plugin({ id: 'acme', name: 'A', version: '1' })] }),
      ).toThrow(id);
    }
  });
});
