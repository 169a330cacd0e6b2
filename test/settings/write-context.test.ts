import { AsyncLocalStorage } from 'node:async_hooks';
import {
  defineSettings,
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  type HistoryEntry,
  MemoryOptionStore,
  type WriteOptions,
} from 'commerce-plugin-framework';
import { writeContextsFollowAwaits } from 'commerce-plugin-framework/adapter-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { invokeUpdate } from '../../src/settings/writes/invoke-write';
import { useAsyncWriteContexts } from '../../src/settings/writes/write-context';

/** The seed's override: two parameters, checks, then `super.updateValue(id, value)`. */
class SyncChecked extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
    this.registerSetting('api_key', 'string');
    this.registerSetting('title', 'string');
  }
  override updateValue(id: string, value: unknown): Promise<void> {
    if (id === 'api_key' && typeof value === 'string' && !value.startsWith('sk_')) {
      return Promise.reject(new Framework_Plugin_Exception('API key must start with sk_', 400));
    }
    return super.updateValue(id, value);
  }
}

/** An override that awaits something of its own before calling `super`, dropping the options too. */
class AwaitsFirst extends SyncChecked {
  readonly delays = new Map<string, number>();
  override async updateValue(id: string, value: unknown): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.delays.get(String(value)) ?? 1));
    if (id === 'mode' && value === 'live' && (await this.getValue('api_key')) === null) {
      throw new Framework_Plugin_Exception('Set an API key before going live', 400);
    }
    return super.updateValue(id, value);
  }
  override async deleteValue(id: string): Promise<boolean> {
    await Promise.resolve();
    return super.deleteValue(id);
  }
}

/** An override that normalises the value before storing it. */
class Trims extends SyncChecked {
  override updateValue(id: string, value: unknown): Promise<void> {
    return super.updateValue(id, typeof value === 'string' ? value.trim() : value);
  }
}

/** The package's view of a container (REST and admin call it so), whatever its override's signature. */
const asBase = (settings: Framework_Abstract_Settings): Framework_Abstract_Settings => settings;
const actor = (id: number): WriteOptions => ({ actor: { id }, via: 'rest' });

function byValue(entries: readonly HistoryEntry[]): Map<unknown, HistoryEntry> {
  return new Map(entries.map((entry) => [entry.new, entry]));
}

const modes = [
  ['AsyncLocalStorage', true],
  ['per-write receivers (no AsyncLocalStorage)', false],
] as const;

afterEach(() => useAsyncWriteContexts(true));

describe('write contexts', () => {
  it('finds AsyncLocalStorage on Node without importing it', () => {
    expect(writeContextsFollowAwaits()).toBe(true);
  });

  for (const [name, useAsync] of modes) {
    describe(`with ${name}`, () => {
      it('an override written as the seed prescribes keeps the actor, the interface and If-Match', async () => {
        useAsyncWriteContexts(useAsync);
        const settings = new SyncChecked('acme', new MemoryOptionStore());
        await asBase(settings).updateValue('api_key', 'sk_1', actor(7));
        const [entry] = await settings.getHistory();
        expect(entry).toMatchObject({ setting_id: 'api_key', actor: { id: 7 }, via: 'rest', new: 'sk_1' });
        const stale = await settings.getETag('api_key');
        await settings.updateValue('api_key', 'sk_2');
        await expect(
          asBase(settings).updateValue('api_key', 'sk_3', { ifMatch: stale }),
        ).rejects.toMatchObject({
          code: 412,
        });
        expect(await settings.getValue('api_key')).toBe('sk_2');
        await expect(asBase(settings).updateValue('api_key', 'nope', actor(7))).rejects.toMatchObject({
          code: 400,
        });
      });

      it('an override that awaits before calling super still delivers each call its own options', async () => {
        useAsyncWriteContexts(useAsync);
        const settings = new AwaitsFirst('acme', new MemoryOptionStore());
        settings.delays.set('sk_a', 15).set('sk_b', 1);
        await Promise.all([
          asBase(settings).updateValue('api_key', 'sk_a', actor(1)),
          asBase(settings).updateValue('title', 'T', actor(3)),
        ]);
        const entries = byValue(await settings.getHistory());
        expect(entries.get('sk_a')?.actor).toEqual({ id: 1 });
        expect(entries.get('T')?.actor).toEqual({ id: 3 });
        // If-Match travels past the awaiting override too.
        const tag = await settings.getETag('api_key');
        await settings.updateValue('api_key', 'sk_b');
        await expect(asBase(settings).updateValue('api_key', 'sk_c', { ifMatch: tag })).rejects.toMatchObject(
          {
            code: 412,
          },
        );
        await expect(asBase(settings).updateValue('mode', 'live', { ifMatch: '*' })).rejects.toMatchObject({
          code: 412,
        });
        await expect(asBase(settings).deleteValue('api_key', { ifMatch: tag })).rejects.toMatchObject({
          code: 412,
        });
        expect(
          await asBase(settings).deleteValue('api_key', { ifMatch: await settings.getETag('api_key') }),
        ).toBe(true);
      });

      it('a scoped write through an override stores at the scope, never globally', async () => {
        useAsyncWriteContexts(useAsync);
        const store = new MemoryOptionStore();
        const settings = new AwaitsFirst('acme', store);
        await settings.scope('eu').updateValue('api_key', 'sk_eu', actor(2));
        expect(await store.get('framework_acme_api_key@eu')).toBe('sk_eu');
        expect(await store.get('framework_acme_api_key')).toBeUndefined();
        await expect(settings.scope('eu').updateValue('api_key', 'pk_eu')).rejects.toMatchObject({
          code: 400,
        });
        expect(await settings.scope('eu').deleteValue('api_key')).toBe(true);
        expect(await store.get('framework_acme_api_key@eu')).toBeUndefined();
      });

      it('a programmatic write racing a REST write of the same setting: each keeps its own context', async () => {
        useAsyncWriteContexts(useAsync);
        const settings = new AwaitsFirst('acme', new MemoryOptionStore());
        // The REST write's override waits longer, so its base call comes second.
        settings.delays.set('sk_rest', 20).set('sk_code', 1);
        await Promise.all([
          asBase(settings).updateValue('api_key', 'sk_rest', actor(42)),
          settings.updateValue('api_key', 'sk_code'),
        ]);
        const entries = byValue(await settings.getHistory({ settingId: 'api_key' }));
        expect(entries.get('sk_rest')).toMatchObject({ actor: { id: 42 }, via: 'rest' });
        expect(entries.get('sk_code')).toMatchObject({ actor: null, via: 'api' });
      });

      it('two managers writing one setting at two scopes through an awaiting override: each lands at its own scope with its own actor', async () => {
        useAsyncWriteContexts(useAsync);
        const store = new MemoryOptionStore();
        const settings = new AwaitsFirst('acme', store);
        // The first call's override resumes last, so the base calls come in the other order.
        settings.delays.set('sk_us', 25).set('sk_eu', 1);
        await Promise.all([
          settings.scope('channel/us').updateValue('api_key', 'sk_us', actor(1)),
          settings.scope('channel/eu').updateValue('api_key', 'sk_eu', actor(2)),
        ]);
        expect(await store.get('framework_acme_api_key@channel/us')).toBe('sk_us');
        expect(await store.get('framework_acme_api_key@channel/eu')).toBe('sk_eu');
        expect(await store.get('framework_acme_api_key')).toBeUndefined();
        const us = await settings.scope('channel/us').getHistory();
        const eu = await settings.scope('channel/eu').getHistory();
        expect(us.map((entry) => [entry.new, entry.actor])).toEqual([['sk_us', { id: 1 }]]);
        expect(eu.map((entry) => [entry.new, entry.actor])).toEqual([['sk_eu', { id: 2 }]]);
      });

      it('an override writing a second setting from inside, after an await, keeps the enclosing scope and actor', async () => {
        useAsyncWriteContexts(useAsync);
        const store = new MemoryOptionStore();
        class Mirrors extends SyncChecked {
          override async updateValue(id: string, value: unknown): Promise<void> {
            await new Promise((resolve) => setTimeout(resolve, 2));
            if (id === 'title') await this.updateValue('api_key', `sk_${String(value)}`);
            return super.updateValue(id, value);
          }
        }
        const settings = new Mirrors('acme', store);
        await settings.scope('eu').updateValue('title', 'x', actor(5));
        expect(await store.get('framework_acme_api_key@eu')).toBe('sk_x');
        expect(await store.get('framework_acme_api_key')).toBeUndefined();
        const entries = await settings.scope('eu').getHistory();
        expect(entries.map((entry) => [entry.setting_id, entry.actor])).toEqual([
          ['title', { id: 5 }],
          ['api_key', { id: 5 }],
        ]);
      });
    });
  }

  it('the value an override normalises is what is stored, in a batch too', async () => {
    const store = new MemoryOptionStore();
    const settings = new Trims('acme', store);
    await settings.updateValue('title', '  Visa  ');
    expect(await store.get('framework_acme_title')).toBe('Visa');
    await settings.updateValues([
      { id: 'title', value: ' Card ' },
      { id: 'api_key', value: ' sk_x ' },
    ]);
    expect(await store.get('framework_acme_title')).toBe('Card');
    expect(await store.get('framework_acme_api_key')).toBe('sk_x');
  });

  it('enters AsyncLocalStorage only for an override of the user’s: the base and the typed methods get the context handed over', async () => {
    // On Node 20 the first `run` turns on promise hooks for the whole process.
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    try {
      class Plain extends Framework_Abstract_Settings {
        protected registerSettings(): void {
          this.registerSetting('title', 'string');
        }
      }
      const Typed = defineSettings({ title: { type: 'string' } });
      for (const settings of [
        new Plain('acme', new MemoryOptionStore()),
        new Typed('acme', new MemoryOptionStore()),
      ]) {
        await invokeUpdate(settings, 'title', 'Global', actor(7), '', null);
        await invokeUpdate(settings, 'title', 'Scoped', actor(8), 'eu', null);
        await settings.updateValues([{ id: 'title', value: 'Batch' }], actor(9));
        expect(await settings.getValue('title')).toBe('Batch');
        expect(await settings.scope('eu').getValue('title')).toBe('Scoped');
        const global = await settings.getHistory();
        expect(global.map((entry) => [entry.new, entry.actor, entry.via])).toEqual([
          ['Batch', { id: 9 }, 'rest'],
          ['Global', { id: 7 }, 'rest'],
        ]);
        const scoped = await settings.scope('eu').getHistory();
        expect(scoped.map((entry) => [entry.new, entry.actor])).toEqual([['Scoped', { id: 8 }]]);
      }
      expect(run).not.toHaveBeenCalled();
      await invokeUpdate(
        new SyncChecked('acme', new MemoryOptionStore()),
        'title',
        'Override',
        actor(1),
        '',
        null,
      );
      expect(run).toHaveBeenCalled();
    } finally {
      run.mockRestore();
    }
  });

  it('a batch runs every override check and stores nothing when one fails', async () => {
    const store = new MemoryOptionStore();
    const settings = new AwaitsFirst('acme', store);
    const error = await settings
      .updateValues([
        { id: 'title', value: 'Shop' },
        { id: 'api_key', value: 'pk_wrong' },
        { id: 'mode', value: 'live' },
        { id: 'nope', value: 1 },
      ])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'BatchRejectedError', code: 400 });
    const failures = (error as { failures: { id: string; error: { code: number } }[] }).failures;
    expect(failures.map((failure) => [failure.id, failure.error.code])).toEqual([
      ['api_key', 400],
      ['mode', 400],
      ['nope', 404],
    ]);
    expect(await store.getMany(['framework_acme_title', 'framework_acme_api_key'])).toEqual(new Map());
    expect(await settings.getHistory()).toEqual([]);
  });
});
