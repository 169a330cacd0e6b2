import { EventEmitter } from 'node:events';
import { Framework_Abstract_Settings, MemoryOptionStore, type OptionStore } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Timers on the change paths (issue 15): arming and clearing a timer per store call cost more
 * than the rest of a call's bookkeeping. A store with no time limit (the default) arms none per
 * operation; a settings container arms at most one per operation for its `storeTimeoutMs` (one
 * timer serves all its calls in flight). Counted with a spy on `setTimeout`, never timed.
 */

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Card' });
    this.registerSetting('retries', 'integer');
    this.registerSetting('meta', 'object');
  }
}

/** A pg-like client that answers every query at once with no rows (a commit with no refusal). */
const queryOnlyPostgres = () => ({
  query: async (_text: string, _params?: unknown[]) => ({ rows: [] as unknown[] }),
});

/** An ioredis-like client without a server, answering from a Map. */
function fakeRedis() {
  const table = new Map<string, string>();
  return {
    table,
    async get(key: string) {
      return table.get(key) ?? null;
    },
    async mget(keys: string[]) {
      return keys.map((key) => table.get(key) ?? null);
    },
    async eval(_script: string, _keys: number, key: string, ...args: string[]) {
      if (args.length === 3) table.set(key, args[0]!);
      return 0;
    },
    async lrange() {
      return [] as string[];
    },
    async scan(): Promise<[string, string[]]> {
      return ['0', []];
    },
    duplicate() {
      return Object.assign(new EventEmitter(), {
        status: 'ready',
        async connect() {},
        async subscribe() {
          return 1;
        },
        disconnect() {},
      });
    },
  };
}

function countTimers(): { readonly count: () => number } {
  const spy = vi.spyOn(globalThis, 'setTimeout');
  const before = spy.mock.calls.length;
  return { count: () => spy.mock.calls.length - before };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('timers per store operation', () => {
  it('a PostgresOptionStore without timeoutMs (the default) arms none', async () => {
    const store = new PostgresOptionStore({ client: queryOnlyPostgres(), table: 'options' });
    await store.get('warm-up'); // creates the table first
    const timers = countTimers();
    for (let round = 0; round < 20; round++) {
      await store.get('a');
      await store.getMany(['a', 'b']);
      await store.set('a', String(round));
      await store.delete('a');
      await store.commit({ writes: [{ key: 'a', value: String(round), expect: null }] });
    }
    expect(timers.count()).toBe(0);
  });

  it('a RedisOptionStore without timeoutMs (the default) arms none', async () => {
    const store = new RedisOptionStore({ client: fakeRedis() });
    const timers = countTimers();
    for (let round = 0; round < 20; round++) {
      await store.get('a');
      await store.getMany(['a', 'b']);
      await store.set('a', String(round));
      await store.delete('a');
    }
    expect(timers.count()).toBe(0);
  });

  it('a settings container without storeTimeoutMs arms none', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore(), { storeTimeoutMs: 0 });
    await settings.load();
    const timers = countTimers();
    for (let round = 0; round < 20; round++) {
      await settings.updateValue('retries', round);
      await settings.getValue('retries');
    }
    expect(timers.count()).toBe(0);
  });

  const stores: [string, () => OptionStore][] = [
    ['memory', () => new MemoryOptionStore()],
    ['PostgreSQL (default store options)', () => new PostgresOptionStore({ client: queryOnlyPostgres() })],
    ['Redis (default store options)', () => new RedisOptionStore({ client: fakeRedis() })],
  ];
  for (const [name, makeStore] of stores) {
    it(`a settings container with its default storeTimeoutMs arms at most one per operation (${name})`, async () => {
      const settings = new ShopSettings('acme', makeStore());
      await settings.load();
      const timers = countTimers();
      let operations = 0;
      for (let round = 0; round < 20; round++) {
        await settings.updateValue('retries', round);
        await settings.updateValue('meta', { round });
        await settings.load();
        await settings.deleteValue('title');
        operations += 4;
      }
      await settings.updateValues([
        { id: 'retries', value: 1 },
        { id: 'title', value: 'Visa' },
      ]);
      operations++;
      expect(timers.count()).toBeLessThanOrEqual(operations);
      // One timer serves every call in flight: back-to-back calls arm it once.
      expect(timers.count()).toBeLessThanOrEqual(1);
      settings.dispose();
    });
  }
});
