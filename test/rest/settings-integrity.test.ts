/**
 * The settings routes of CONTRACT §7–§10 over `server.fetch`: entity tags and conditional
 * requests, DELETE, the atomic batch, history, scopes with `canAccessScope`, secrets.
 */
import {
  createAesGcmCipher,
  createRestServer,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  type OptionStore,
  type StoreCommit,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  authenticate,
  call,
  GatewayPlugin,
  GatewaySettings,
  makeServer,
  NOBODY_TOKEN,
  plainStore,
} from './support/fixtures';

const BASE = '/api/commerce/v3/acme/settings';
const TAG = /^"[A-Za-z0-9_-]{22}"$/;

const admin = { token: ADMIN_TOKEN };

describe('entity tags and conditional requests', () => {
  it('GET one and GET all answer a strong ETag; If-None-Match with it answers 304 without a body', async () => {
    const server = makeServer();
    const one = await call(server, 'GET', `${BASE}/retries`, admin);
    expect(one.headers.get('etag')).toMatch(TAG);
    const notModified = await call(server, 'GET', `${BASE}/retries`, {
      ...admin,
      headers: { 'if-none-match': one.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.get('etag')).toBe(one.headers.get('etag'));
    const all = await call(server, 'GET', BASE, admin);
    expect(all.headers.get('etag')).toMatch(TAG);
    expect(all.headers.get('etag')).not.toBe(one.headers.get('etag'));
    expect(
      (await call(server, 'GET', BASE, { ...admin, headers: { 'if-none-match': all.headers.get('etag')! } }))
        .status,
    ).toBe(304);
    // A HEAD is conditional too.
    expect(
      (await call(server, 'HEAD', `${BASE}/retries`, { ...admin, headers: { 'if-none-match': '*' } })).status,
    ).toBe(304);
  });

  it('every successful write of one setting answers the new tag; If-Match decides, 412 carries the current tag', async () => {
    const server = makeServer();
    const before = (await call(server, 'GET', `${BASE}/retries`, admin)).headers.get('etag')!;
    const put = await call(server, 'PUT', `${BASE}/retries`, {
      ...admin,
      body: { value: 5 },
      headers: { 'if-match': before },
    });
    expect(put.status).toBe(200);
    const after = put.headers.get('etag')!;
    expect(after).toMatch(TAG);
    expect(after).not.toBe(before);
    const stale = await call(server, 'PATCH', `${BASE}/retries`, {
      ...admin,
      body: { value: 6 },
      headers: { 'if-match': before },
    });
    expect(stale.status).toBe(412);
    expect(stale.json).toEqual({
      code: 'rest_precondition_failed',
      message: expect.any(String),
      data: { status: 412, etag: after },
    });
    expect((await call(server, 'GET', `${BASE}/retries`, admin)).json.value).toBe(5);
    // The list's tag changed as well.
    expect((await call(server, 'GET', BASE, { ...admin, headers: { 'if-none-match': before } })).status).toBe(
      200,
    );
  });

  it('If-Match * matches only when a value is stored', async () => {
    const server = makeServer();
    const none = await call(server, 'PUT', `${BASE}/retries`, {
      ...admin,
      body: { value: 1 },
      headers: { 'if-match': '*' },
    });
    expect(none.status).toBe(412);
    await call(server, 'PUT', `${BASE}/retries`, { ...admin, body: { value: 1 } });
    const some = await call(server, 'PUT', `${BASE}/retries`, {
      ...admin,
      body: { value: 2 },
      headers: { 'if-match': '*' },
    });
    expect(some.status).toBe(200);
  });

  it('of concurrent writes with the same If-Match through two servers on one store, exactly one succeeds', async () => {
    const data = new MemoryOptionStore();
    const one = createRestServer({ plugins: [new GatewayPlugin(data)], authenticate });
    const two = createRestServer({ plugins: [new GatewayPlugin(data.share())], authenticate });
    const tag = (await call(one, 'GET', `${BASE}/title`, admin)).headers.get('etag')!;
    expect((await call(two, 'GET', `${BASE}/title`, admin)).headers.get('etag')).toBe(tag);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(index % 2 === 0 ? one : two, 'PUT', `${BASE}/title`, {
          ...admin,
          body: { value: `writer ${index}` },
          headers: { 'if-match': tag },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 412)).toHaveLength(19);
  });

  it('a store without conditional writes answers If-Match with 501 and stores nothing', async () => {
    const server = makeServer({ plugins: [new GatewayPlugin(plainStore())] });
    const answer = await call(server, 'PUT', `${BASE}/retries`, {
      ...admin,
      body: { value: 9 },
      headers: { 'if-match': '*' },
    });
    expect(answer.status).toBe(501);
    expect(answer.json).toMatchObject({
      code: 'rest_unsupported_by_store',
      data: { status: 501, feature: 'conditional writes' },
    });
    expect((await call(server, 'GET', `${BASE}/retries`, admin)).json.value).toBe(3);
    // ETags and plain writes still work.
    expect(
      (await call(server, 'PUT', `${BASE}/retries`, { ...admin, body: { value: 9 } })).headers.get('etag'),
    ).toMatch(TAG);
  });
});

describe('DELETE …/settings/{setting_id}', () => {
  it('removes the stored value and answers the setting as it then reads, with its tag; If-Match applies', async () => {
    const store = new MemoryOptionStore({ framework_acme_retries: '7' });
    const server = makeServer({ plugins: [new GatewayPlugin(store)] });
    const stale = await call(server, 'DELETE', `${BASE}/retries`, {
      ...admin,
      headers: { 'if-match': '"x"' },
    });
    expect(stale.status).toBe(412);
    const removed = await call(server, 'DELETE', `${BASE}/retries`, admin);
    expect(removed.status).toBe(200);
    expect(removed.json).toMatchObject({ id: 'retries', value: 3, default: 3 });
    expect(removed.headers.get('etag')).toMatch(TAG);
    expect(await store.get('framework_acme_retries')).toBeUndefined();
    expect((await call(server, 'DELETE', `${BASE}/retries`, admin)).status).toBe(200);
    expect((await call(server, 'DELETE', `${BASE}/nope`, admin)).status).toBe(404);
    expect((await call(server, 'DELETE', `${BASE}/retries`, { token: NOBODY_TOKEN })).status).toBe(403);
  });
});

describe('POST …/settings/batch', () => {
  it('stores every item in one step and answers the Setting objects in request order', async () => {
    const store = new MemoryOptionStore();
    const server = makeServer({ plugins: [new GatewayPlugin(store)] });
    const answer = await call(server, 'POST', `${BASE}/batch`, {
      ...admin,
      body: {
        update: [
          { id: 'mode', value: 'live' },
          { id: 'retries', value: 4 },
          { id: 'enabled', value: true },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.update.map((item: { id: string; value: unknown }) => [item.id, item.value])).toEqual([
      ['mode', 'live'],
      ['retries', 4],
      ['enabled', true],
    ]);
    expect(await store.getMany(['framework_acme_mode', 'framework_acme_retries'])).toEqual(
      new Map([
        ['framework_acme_mode', 'live'],
        ['framework_acme_retries', '4'],
      ]),
    );
  });

  it('reports every failing item with the code a single write would answer, and stores nothing', async () => {
    class Checked extends GatewaySettings {
      override updateValue(id: string, value: unknown): Promise<void> {
        if (id === 'title' && value === 'forbidden') {
          return Promise.reject(new Framework_Plugin_Exception('That title is taken', 409));
        }
        return super.updateValue(id, value);
      }
    }
    class CheckedPlugin extends GatewayPlugin {
      readonly checked: Checked;
      constructor(store: OptionStore) {
        super(store);
        this.checked = new Checked('acme', store);
      }
      override getSettingsHandler(): Checked {
        return this.checked;
      }
    }
    const store = new MemoryOptionStore();
    const server = makeServer({ plugins: [new CheckedPlugin(store)] });
    const answer = await call(server, 'POST', `${BASE}/batch`, {
      ...admin,
      body: {
        update: [
          { id: 'mode', value: 'live' },
          { id: 'retries', value: 'four' },
          { id: 'nope', value: 1 },
          { id: 'title', value: 'forbidden' },
          { id: 'fee', value: null },
        ],
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('rest_batch_rejected');
    expect(
      answer.json.data.errors.map((error: { id: string; code: string }) => [error.id, error.code]),
    ).toEqual([
      ['retries', 'rest_setting_value_invalid'],
      ['nope', 'rest_setting_not_found'],
      ['title', 'rest_setting_value_invalid'],
      ['fee', 'rest_missing_callback_param'],
    ]);
    expect(await store.get('framework_acme_mode')).toBeUndefined();
  });

  it('needs 1 to maxBatchItems items with distinct ids, the management capability, and a store with commit', async () => {
    const server = makeServer({ maxBatchItems: 2 });
    const post = (update: unknown, token = ADMIN_TOKEN) =>
      call(server, 'POST', `${BASE}/batch`, { token, body: { update } });
    expect((await post([])).json.code).toBe('rest_invalid_param');
    const three = [
      { id: 'mode', value: 'live' },
      { id: 'retries', value: 1 },
      { id: 'fee', value: 1 },
    ];
    expect((await post(three)).status).toBe(400);
    const twice = await post([
      { id: 'mode', value: 'live' },
      { id: 'mode', value: 'test' },
    ]);
    expect(twice.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { update: expect.stringContaining('more than once') } },
    });
    expect((await post([{ id: 'mode', value: 'live' }], NOBODY_TOKEN)).status).toBe(403);
    // No item at all (neither list): 400 rest_invalid_param (CONTRACT, third round).
    expect((await post(undefined)).json.code).toBe('rest_invalid_param');
    const plain = makeServer({ plugins: [new GatewayPlugin(plainStore())] });
    const unsupported = await call(plain, 'POST', `${BASE}/batch`, {
      ...admin,
      body: { update: [{ id: 'mode', value: 'live' }] },
    });
    expect(unsupported.status).toBe(501);
    expect(() => makeServer({ maxBatchItems: 0 })).toThrow(/maxBatchItems/);
  });

  it('takes "delete" besides "update": checked and stored in the same atomic step, answered with both lists', async () => {
    const store = new MemoryOptionStore();
    const server = makeServer({ plugins: [new GatewayPlugin(store)], maxBatchItems: 3 });
    await call(server, 'PUT', `${BASE}/title`, { ...admin, body: { value: 'Shop' } });
    const batch = (body: unknown) => call(server, 'POST', `${BASE}/batch`, { ...admin, body });
    const both = await batch({ update: [{ id: 'retries', value: 4 }], delete: ['title'] });
    expect(both.status).toBe(200);
    expect(both.json.update).toEqual([expect.objectContaining({ id: 'retries', value: 4 })]);
    expect(both.json.delete).toEqual([expect.objectContaining({ id: 'title', value: 'Card' })]);
    expect(await store.get('framework_acme_title')).toBeUndefined();
    const history = (await call(server, 'GET', `${BASE}/history`, admin)).json as { action: string }[];
    expect(
      history
        .slice(0, 2)
        .map((entry) => entry.action)
        .sort(),
    ).toEqual(['delete', 'update']);
    // Only deletes: update may be left out; the answer still has both lists.
    const deletesOnly = await batch({ delete: ['retries'] });
    expect(deletesOnly.json).toEqual({ update: [], delete: [expect.objectContaining({ id: 'retries' })] });
    // An id in both lists, repeated, or not a list; an unknown id; too many items in all.
    for (const body of [
      { update: [{ id: 'mode', value: 'live' }], delete: ['mode'] },
      { delete: ['mode', 'mode'] },
      { delete: 'mode' },
      { update: [], delete: [] },
      { update: [{ id: 'mode', value: 'live' }], delete: ['title', 'retries', 'fee'] },
    ]) {
      const answer = await batch(body);
      expect([JSON.stringify(body), answer.status, answer.json.code]).toEqual([
        JSON.stringify(body),
        400,
        'rest_invalid_param',
      ]);
    }
    const unknown = await batch({ delete: ['nope'] });
    expect(unknown.json).toMatchObject({
      code: 'rest_batch_rejected',
      data: { errors: [{ id: 'nope', code: 'rest_setting_not_found' }] },
    });
  });

  it('If-Match on a batch compares with the ETag of GET …/settings at the same scope; * always matches', async () => {
    const store = new MemoryOptionStore();
    const server = makeServer({ plugins: [new GatewayPlugin(store)] });
    const list = await call(server, 'GET', `${BASE}?scope=eu`, admin);
    const tag = list.headers.get('etag')!;
    const batch = (ifMatch: string, value: number) =>
      call(server, 'POST', `${BASE}/batch?scope=eu`, {
        ...admin,
        headers: { 'if-match': ifMatch },
        body: { update: [{ id: 'retries', value }] },
      });
    expect((await batch(tag, 1)).status).toBe(200);
    // Stale now: 412 with the list's current tag, nothing stored.
    const stale = await batch(tag, 2);
    expect(stale.status).toBe(412);
    expect(stale.json.code).toBe('rest_precondition_failed');
    const current = (await call(server, 'GET', `${BASE}?scope=eu`, admin)).headers.get('etag');
    expect(stale.json.data.etag).toBe(current);
    expect(await store.get('framework_acme_retries@eu')).toBe('1');
    // A change of an inherited (global) value changes the scope's list tag too.
    await call(server, 'PUT', `${BASE}/title`, { ...admin, body: { value: 'Global' } });
    expect((await batch(current!, 3)).status).toBe(412);
    expect((await batch('*', 3)).status).toBe(200);
  });

  it('createRestServer refuses a plugin with a setting named batch or history', () => {
    for (const id of ['batch', 'history']) {
      class Named extends GatewaySettings {
        protected override registerSettings(): void {
          this.registerSetting(id, 'string');
        }
      }
      class NamedPlugin extends GatewayPlugin {
        override getSettingsHandler(): GatewaySettings {
          return new Named('acme', new MemoryOptionStore());
        }
      }
      expect(() => makeServer({ plugins: [new NamedPlugin()] })).toThrow(new RegExp(`setting "${id}"`));
    }
  });
});

describe('history routes', () => {
  it('list every accepted change newest first with actor and via, paged with X-Total and X-Total-Pages', async () => {
    const server = makeServer();
    for (let retries = 1; retries <= 12; retries++) {
      await call(server, 'PUT', `${BASE}/retries`, { ...admin, body: { value: retries } });
    }
    await call(server, 'PUT', `${BASE}/mode`, { ...admin, body: { value: 'live' } });
    const first = await call(server, 'GET', `${BASE}/history`, admin);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total')).toBe('13');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.json).toHaveLength(10);
    expect(first.json[0]).toMatchObject({
      setting_id: 'mode',
      scope: null,
      action: 'update',
      old: null,
      new: 'live',
      actor: { id: 1 },
      via: 'rest',
    });
    const one = await call(server, 'GET', `${BASE}/retries/history?page=2&per_page=5`, admin);
    expect(one.headers.get('x-total')).toBe('12');
    expect(one.json.map((entry: { new: number }) => entry.new)).toEqual([7, 6, 5, 4, 3]);
    expect((await call(server, 'GET', `${BASE}/nope/history`, admin)).status).toBe(404);
    expect((await call(server, 'GET', `${BASE}/history?per_page=101`, admin)).status).toBe(400);
    expect((await call(server, 'GET', `${BASE}/history`, { token: NOBODY_TOKEN })).status).toBe(403);
  });

  it('masks secrets and answer 501 on a store that keeps none', async () => {
    const server = makeServer();
    await call(server, 'PUT', `${BASE}/api_key`, { ...admin, body: { value: 'sk_live_1' } });
    const history = await call(server, 'GET', `${BASE}/api_key/history`, admin);
    expect(history.json[0]).toMatchObject({ old: null, new: '********' });
    expect(history.text).not.toContain('sk_live_1');
    const plain = makeServer({ plugins: [new GatewayPlugin(plainStore())] });
    expect((await call(plain, 'GET', `${BASE}/history`, admin)).status).toBe(501);
  });
});

describe('scopes over REST', () => {
  it('every settings route takes scope: values resolved, objects with scope and origin, writes and deletes at the scope', async () => {
    const store = new MemoryOptionStore();
    const server = makeServer({ plugins: [new GatewayPlugin(store)] });
    await call(server, 'PUT', `${BASE}/title`, { ...admin, body: { value: 'Global' } });
    const put = await call(server, 'PUT', `${BASE}/title?scope=eu`, { ...admin, body: { value: 'Europe' } });
    expect(put.json).toMatchObject({ id: 'title', value: 'Europe', scope: 'eu', origin: 'eu' });
    expect(await store.get('framework_acme_title@eu')).toBe('Europe');
    expect(await store.get('framework_acme_title')).toBe('Global');
    const de = await call(server, 'GET', `${BASE}/title?scope=eu%2Fde`, admin);
    expect(de.json).toMatchObject({ value: 'Europe', scope: 'eu/de', origin: 'eu' });
    const list = await call(server, 'GET', `${BASE}?scope=eu/de`, admin);
    expect(list.json.find((item: { id: string }) => item.id === 'retries')).toMatchObject({
      value: 3,
      origin: null,
    });
    const batch = await call(server, 'POST', `${BASE}/batch?scope=eu/de`, {
      ...admin,
      body: { update: [{ id: 'retries', value: 9 }] },
    });
    expect(batch.json.update[0]).toMatchObject({ value: 9, scope: 'eu/de', origin: 'eu/de' });
    const history = await call(server, 'GET', `${BASE}/history?scope=eu/de`, admin);
    expect(history.json).toEqual([expect.objectContaining({ setting_id: 'retries', scope: 'eu/de' })]);
    const removed = await call(server, 'DELETE', `${BASE}/title?scope=eu`, admin);
    expect(removed.json).toMatchObject({ value: 'Global', origin: '' });
    expect((await call(server, 'GET', `${BASE}/title`, admin)).json).not.toHaveProperty('scope');
  });

  it('an invalid scope path is 400 rest_invalid_param', async () => {
    const server = makeServer();
    for (const scope of ['eu//de', '..', '%2Feu', 'a/b/c/d/e/f/g/h/i']) {
      const answer = await call(server, 'GET', `${BASE}/title?scope=${scope}`, admin);
      expect(answer.status, scope).toBe(400);
      expect(answer.json.code).toBe('rest_invalid_param');
    }
  });

  it('canAccessScope decides who reaches which scope; the global level is asked as ""', async () => {
    const asked: [unknown, string, string][] = [];
    const server = makeServer({
      canAccessScope: (user, scope, pluginId) => {
        asked.push([user.id, scope, pluginId]);
        return scope === 'eu' || scope.startsWith('eu/');
      },
    });
    expect(
      (await call(server, 'PUT', `${BASE}/title?scope=eu/de`, { ...admin, body: { value: 'DE' } })).status,
    ).toBe(200);
    const us = await call(server, 'PUT', `${BASE}/title?scope=us`, { ...admin, body: { value: 'US' } });
    expect(us.status).toBe(403);
    expect(us.json.code).toBe('rest_forbidden');
    expect((await call(server, 'GET', `${BASE}/title`, admin)).status).toBe(403);
    expect((await call(server, 'GET', `${BASE}/history?scope=us`, admin)).status).toBe(403);
    expect(asked).toContainEqual([1, 'eu/de', 'acme']);
    expect(asked).toContainEqual([1, '', 'acme']);
  });

  it('a refused scope answers 403 before anything about the setting id: unknown ids do not show as 404', async () => {
    const server = makeServer({ canAccessScope: (_user, scope) => scope === 'eu' });
    const requests: [string, string, unknown?][] = [
      ['GET', `${BASE}/no_such_setting?scope=us`],
      ['GET', `${BASE}/title?scope=us`],
      ['PUT', `${BASE}/no_such_setting?scope=us`, { value: 'x' }],
      ['DELETE', `${BASE}/no_such_setting?scope=us`],
      ['GET', `${BASE}/no_such_setting/history?scope=us`],
    ];
    for (const [method, path, body] of requests) {
      const answer = await call(server, method, path, body === undefined ? admin : { ...admin, body });
      expect([method, path, answer.status, answer.json.code]).toEqual([method, path, 403, 'rest_forbidden']);
    }
    expect((await call(server, 'GET', `${BASE}/no_such_setting?scope=eu`, admin)).status).toBe(404);
  });
});

describe('secrets over REST', () => {
  it('writing back the mask leaves the secret as it is, answers 200 and records no history', async () => {
    const store = new MemoryOptionStore();
    const server = makeServer({ plugins: [new GatewayPlugin(store)] });
    await call(server, 'PUT', `${BASE}/api_key`, { ...admin, body: { value: 'sk_live_1' } });
    const echo = await call(server, 'PUT', `${BASE}/api_key`, { ...admin, body: { value: '********' } });
    expect(echo.status).toBe(200);
    expect(echo.json.value).toBe('********');
    expect(await store.get('framework_acme_api_key')).toBe('sk_live_1');
    const batch = await call(server, 'POST', `${BASE}/batch`, {
      ...admin,
      body: {
        update: [
          { id: 'api_key', value: '********' },
          { id: 'title', value: 'T' },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(await store.get('framework_acme_api_key')).toBe('sk_live_1');
    const history = await call(server, 'GET', `${BASE}/api_key/history`, admin);
    expect(history.json).toHaveLength(1);
  });

  it('a rejected value of a secret is not echoed in the 400 body', async () => {
    class PinSettings extends GatewaySettings {
      protected override registerSettings(): void {
        this.registerSetting('pin', 'integer', { secret: true, options: [1234, 5678] });
      }
    }
    class PinPlugin extends GatewayPlugin {
      readonly pins = new PinSettings('acme', new MemoryOptionStore());
      override getSettingsHandler(): GatewaySettings {
        return this.pins;
      }
    }
    const server = makeServer({ plugins: [new PinPlugin()] });
    const answer = await call(server, 'PUT', `${BASE}/pin`, { ...admin, body: { value: 9999 } });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toMatch(/9999|1234|5678/);
  });

  it('with a cipher, REST writes (single, batch, scoped) never put the plain text in the store', async () => {
    const seen: string[] = [];
    const inner = new MemoryOptionStore();
    const recording: OptionStore = {
      get: (key) => inner.get(key),
      getMany: (keys) => inner.getMany(keys),
      set: (key, value) => {
        seen.push(value);
        return inner.set(key, value);
      },
      delete: (key) => inner.delete(key),
      commit: (commit: StoreCommit) => {
        for (const write of commit.writes) if (write.value !== null) seen.push(write.value);
        seen.push(...(commit.log?.entries ?? []));
        return inner.commit(commit);
      },
      readLog: (log, limit) => inner.readLog(log, limit),
    };
    class Encrypted extends GatewayPlugin {
      readonly encrypted = new GatewaySettings('acme', recording, {
        secrets: createAesGcmCipher([{ id: 'k', key: btoa('k'.repeat(32)) }]),
      });
      override getSettingsHandler(): GatewaySettings {
        return this.encrypted;
      }
    }
    const server = makeServer({ plugins: [new Encrypted()] });
    await call(server, 'PUT', `${BASE}/api_key`, { ...admin, body: { value: 'sk_live_single' } });
    await call(server, 'POST', `${BASE}/batch`, {
      ...admin,
      body: { update: [{ id: 'secret', value: 'sk_live_batch' }] },
    });
    await call(server, 'PUT', `${BASE}/api_key?scope=eu`, { ...admin, body: { value: 'sk_live_scoped' } });
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.join('\n')).not.toMatch(/sk_live/);
    const report = await server.getSystemStatus();
    expect(report.commerce_acme).toMatchObject({ secrets_encrypted: true, unreadable_secrets: [] });
  });
});
