import { Framework_Abstract_Settings, MemoryOptionStore, type OptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { UnwatchedStore } from './support/stores';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
    this.registerSetting('retries', 'integer');
    this.registerSetting('api_key', 'string');
    this.registerControl('api_key', 'password');
  }
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('history', () => {
  it('appends one entry per accepted change, newest first, with typed old and new values, actor and interface', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.updateValue('retries', 3, { actor: { id: 'u1' }, via: 'admin' });
    await settings.updateValue('retries', 4);
    await settings.deleteValue('retries', { actor: { id: 9 }, via: 'rest' });
    const entries = await settings.getHistory();
    expect(entries.map(({ action, old, new: next }) => [action, old, next])).toEqual([
      ['delete', 4, null],
      ['update', 3, 4],
      ['update', null, 3],
    ]);
    expect(entries[0]).toMatchObject({ setting_id: 'retries', scope: null, actor: { id: 9 }, via: 'rest' });
    expect(entries[1]).toMatchObject({ actor: null, via: 'api' });
    expect(entries[2]).toMatchObject({ actor: { id: 'u1' }, via: 'admin' });
    for (const entry of entries) {
      expect(entry.at).toMatch(ISO_UTC);
      expect(entry.id).toEqual(expect.any(String));
    }
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(3);
  });

  it('a write that leaves the stored text as it was, or a delete of nothing, appends nothing', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.updateValue('mode', 'live');
    await settings.updateValue('mode', 'live');
    await settings.deleteValue('retries');
    expect(await settings.getHistory()).toHaveLength(1);
  });

  it('masks a secret’s values', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.updateValue('api_key', 'sk_live_1');
    await settings.updateValue('api_key', 'sk_live_2');
    await settings.deleteValue('api_key');
    const entries = await settings.getHistory({ settingId: 'api_key' });
    expect(entries.map(({ old, new: next }) => [old, next])).toEqual([
      ['********', null],
      ['********', '********'],
      [null, '********'],
    ]);
    expect(JSON.stringify(entries)).not.toContain('sk_live');
  });

  it('filters by setting and scope, pages with limit and before, and keeps historyLimit entries per level', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore(), { historyLimit: 5 });
    for (let retries = 1; retries <= 8; retries++) await settings.updateValue('retries', retries);
    await settings.updateValue('mode', 'live');
    await settings.scope('eu').updateValue('mode', 'test');
    const global = await settings.getHistory();
    expect(global).toHaveLength(5);
    expect(global[0]).toMatchObject({ setting_id: 'mode', new: 'live' });
    expect(global.slice(1).map((entry) => entry.new)).toEqual([8, 7, 6, 5]);
    expect((await settings.getHistory({ settingId: 'retries', limit: 2 })).map((entry) => entry.new)).toEqual(
      [8, 7],
    );
    expect((await settings.getHistory({ before: global[2]!.id })).map((entry) => entry.new)).toEqual([6, 5]);
    const eu = await settings.getHistory({ scope: 'eu' });
    expect(eu).toEqual([
      expect.objectContaining({ scope: 'eu', setting_id: 'mode', old: null, new: 'test' }),
    ]);
    expect(await settings.scope('eu').getHistory()).toEqual(eu);
    await expect(settings.getHistory({ scope: 'eu//x' })).rejects.toMatchObject({ code: 400 });
  });

  it('historyLimit 0 keeps none', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore(), { historyLimit: 0 });
    await settings.updateValue('retries', 1);
    expect(await settings.getHistory()).toEqual([]);
  });

  it('a batch appends one entry per changed setting, in the same atomic step', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.updateValue('mode', 'live');
    await settings.updateValues(
      [
        { id: 'mode', value: 'live' },
        { id: 'retries', value: 2 },
        { id: 'api_key', value: 'sk_x' },
      ],
      { actor: { id: 5 }, via: 'rest' },
    );
    const entries = await settings.getHistory();
    expect(entries.map((entry) => entry.setting_id).sort()).toEqual(['api_key', 'mode', 'retries']);
    expect(entries.filter((entry) => entry.actor?.id === 5)).toHaveLength(2);
  });

  it('a commit the store refuses leaves neither the change nor its entry', async () => {
    const data = new MemoryOptionStore();
    let failNext = false;
    const failing: OptionStore = {
      get: (key) => data.get(key),
      getMany: (keys) => data.getMany(keys),
      set: (key, value) => data.set(key, value),
      delete: (key) => data.delete(key),
      readLog: (log, limit) => data.readLog(log, limit),
      commit: (commit) => (failNext ? Promise.reject(new Error('connection lost')) : data.commit(commit)),
    };
    const settings = new ShopSettings('acme', failing);
    await settings.updateValue('retries', 1);
    failNext = true;
    await expect(settings.updateValue('retries', 2)).rejects.toMatchObject({ name: 'OptionStoreError' });
    failNext = false;
    expect(await data.get('framework_acme_retries')).toBe('1');
    expect(await settings.getHistory()).toHaveLength(1);
  });

  it('answers 501 on a store that keeps no change log', async () => {
    const settings = new ShopSettings('acme', new UnwatchedStore());
    await settings.updateValue('retries', 1);
    await expect(settings.getHistory()).rejects.toMatchObject({ code: 501 });
  });
});
