import {
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  ScopeNotFoundError,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Shop' });
    this.registerSetting('retries', 'integer');
  }
}

/** Settings whose `scopeExists` knows `eu` and `eu/de`, answering asynchronously, and the paths it was asked. */
function knownScopes(store = new MemoryOptionStore()) {
  const asked: string[] = [];
  const settings = new ShopSettings('acme', store, {
    scopeExists: async (path) => {
      asked.push(path);
      return path === 'eu' || path === 'eu/de';
    },
  });
  return { settings, asked, store };
}

describe('the scopeExists option', () => {
  it('every operation on a refused scope rejects with 404 and stores nothing; scope(path) itself does not throw', async () => {
    const { settings, store } = knownScopes();
    const typo = settings.scope('EU');
    const operations: [string, () => Promise<unknown>][] = [
      ['getValue', () => typo.getValue('title')],
      ['getOwnValue', () => typo.getOwnValue('title')],
      ['getOrigin', () => typo.getOrigin('title')],
      ['updateValue', () => typo.updateValue('title', 'x')],
      ['deleteValue', () => typo.deleteValue('title')],
      ['updateValues', () => typo.updateValues([{ id: 'title', value: 'x' }])],
      ['getETag', () => typo.getETag('title')],
      ['getListETag', () => typo.getListETag()],
      ['getSettingObjects', () => typo.getSettingObjects()],
      ['getHistory', () => typo.getHistory()],
      ['container.getHistory', () => settings.getHistory({ scope: 'EU' })],
    ];
    for (const [name, operation] of operations) {
      const error = await operation().catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(ScopeNotFoundError);
      expect(error, name).toMatchObject({ code: 404, scope: 'EU' });
    }
    expect(await store.listKeys('')).toEqual([]);
  });

  it('is asked for the path itself only, never for its parents or the global level', async () => {
    const { settings, asked } = knownScopes();
    await settings.scope('eu/de').updateValue('retries', 3);
    await settings.updateValue('title', 'Global');
    expect(await settings.scope('eu/de').getValue('title')).toBe('Global');
    expect(new Set(asked)).toEqual(new Set(['eu/de']));
  });

  it('without it, every valid path exists', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.scope('EU').updateValue('title', 'typo');
    expect(await settings.scope('EU').getValue('title')).toBe('typo');
  });

  it('must be a function', () => {
    expect(
      () =>
        new ShopSettings('acme', new MemoryOptionStore(), {
          scopeExists: true as unknown as () => boolean,
        }),
    ).toThrow(expect.objectContaining({ code: 400 }));
  });
});

describe('the scopeExists option over REST', () => {
  function server(canAccessScope?: (user: unknown, scope: string) => boolean) {
    const known = knownScopes();
    class Plugin extends Framework_Plugin {
      override getSettingsHandler(): ShopSettings {
        return known.settings;
      }
    }
    const rest = createRestServer({
      plugins: [new Plugin({ id: 'acme', name: 'Acme', version: '1.0.0' })],
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer admin'
          ? { id: 1, capabilities: ['manage_commerce'] }
          : null,
      ...(canAccessScope ? { canAccessScope } : {}),
    });
    return { rest, ...known };
  }
  const send = async (
    rest: ReturnType<typeof createRestServer>,
    method: string,
    path: string,
    body?: unknown,
    token = 'admin',
  ) => {
    const response = await rest.fetch(
      new Request(`http://shop.test/api/commerce/v3/acme/settings${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: response.status, json: (await response.json()) as { code: string; data: unknown } };
  };

  it('answers 404 rest_scope_not_found on every route, before an unknown setting id, and stores nothing', async () => {
    const { rest, store } = server();
    const requests: [string, string, unknown?][] = [
      ['GET', '?scope=EU'],
      ['GET', '/title?scope=EU'],
      ['GET', '/no_such_setting?scope=EU'],
      ['PUT', '/title?scope=EU', { value: 'x' }],
      ['PUT', '/no_such_setting?scope=EU', { value: 'x' }],
      ['DELETE', '/title?scope=EU'],
      ['POST', '/batch?scope=EU', { update: [{ id: 'title', value: 'x' }] }],
      ['GET', '/history?scope=EU'],
      ['GET', '/title/history?scope=EU'],
    ];
    for (const [method, path, body] of requests) {
      const answer = await send(rest, method, path, body);
      expect([method, path, answer.status, answer.json.code]).toEqual([
        method,
        path,
        404,
        'rest_scope_not_found',
      ]);
      expect(answer.json.data).toMatchObject({ status: 404, scope: 'EU' });
    }
    expect(await store.listKeys('')).toEqual([]);
  });

  it('asks scopeExists once per request', async () => {
    const { rest, asked } = server();
    expect((await send(rest, 'PUT', '/title?scope=eu', { value: 'EU shop' })).status).toBe(200);
    expect((await send(rest, 'GET', '?scope=eu')).status).toBe(200);
    expect((await send(rest, 'GET', '/title?scope=eu/de')).status).toBe(200);
    expect(asked).toEqual(['eu', 'eu', 'eu/de']);
  });

  it('is asked after authentication, the permission and canAccessScope (401/403 first)', async () => {
    const { rest, asked } = server((_user, scope) => scope !== 'EU/fr');
    expect((await send(rest, 'GET', '/title?scope=EU', undefined, '')).status).toBe(401);
    expect((await send(rest, 'GET', '/title?scope=EU/fr')).status).toBe(403);
    expect(asked).toEqual([]);
  });
});
