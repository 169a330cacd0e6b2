/**
 * Scopes (CONTRACT §10) on every real store: for generated trees and sequences of scoped
 * writes and deletes, `getValue` equals a reference resolver over the store's contents, in the
 * writing instance and in a second one once the change feed settles; a cold scope is read in one
 * store round trip. PGlite, PostgreSQL, Redis, and a local 3-master Redis Cluster.
 */
import { Framework_Abstract_Settings, type OptionStore } from 'commerce-plugin-framework';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import fc from 'fast-check';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REAL_STORES, type StorePair, storePair } from '../reliability/support/real-stores';
import { describeWithRedisCluster } from '../support/redis-cluster';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'default' });
    this.registerSetting('retries', 'integer');
  }
}

const PATHS = ['', 'eu', 'eu/de', 'eu/de/berlin', 'us'] as const;
type Step =
  | { kind: 'update'; path: string; id: 'title'; value: string }
  | { kind: 'update'; path: string; id: 'retries'; value: number }
  | { kind: 'delete'; path: string; id: 'title' | 'retries' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('update' as const),
    path: fc.constantFrom(...PATHS),
    id: fc.constant('title' as const),
    value: fc.constantFrom('', 'a', 'b'),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    path: fc.constantFrom(...PATHS),
    id: fc.constant('retries' as const),
    value: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    path: fc.constantFrom(...PATHS),
    id: fc.constantFrom('title' as const, 'retries' as const),
  }),
);

function chain(path: string): string[] {
  const levels: string[] = [];
  for (
    let current = path;
    current !== '';
    current = current.includes('/') ? current.slice(0, current.lastIndexOf('/')) : ''
  ) {
    levels.push(current);
  }
  return [...levels, ''];
}

/** The reference resolver, over what the store holds. */
async function reference(store: OptionStore, plugin: string, path: string, id: string): Promise<unknown> {
  for (const level of chain(path)) {
    const text = await store.get(`framework_${plugin}_${id}${level === '' ? '' : `@${level}`}`);
    if (text === undefined) continue;
    if (id === 'title') return text;
    if (text !== '') return Number(text);
  }
  return id === 'title' ? 'default' : null;
}

/** Counts getMany calls (the store round trips of reads). */
function counting(store: OptionStore): { store: OptionStore; reads: () => number } {
  let reads = 0;
  const wrapped: OptionStore = {
    get: (key) => store.get(key),
    getMany: (keys) => {
      reads++;
      return store.getMany(keys);
    },
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
    watch: (onChange, onResync) => store.watch!(onChange, onResync),
    commit: (commit) => store.commit!(commit),
    readLog: (log, limit) => store.readLog!(log, limit),
  };
  return { store: wrapped, reads: () => reads };
}

function scopeSuite(open: () => Promise<StorePair>, runs: number): void {
  let pair: StorePair;
  beforeAll(async () => {
    pair = await open();
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('getValue equals the reference resolver, here and in another instance after the feed settles', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const plugin = `p${run++}`;
        const mine = new ShopSettings(plugin, pair.first, { maxCachedScopes: 2 });
        const theirs = new ShopSettings(plugin, pair.second, { maxCachedScopes: 2 });
        await theirs.scope('eu/de').getValue('title');
        for (const item of steps) {
          const level = mine.level(item.path);
          if (item.kind === 'update') await level.updateValue(item.id, item.value);
          else await level.deleteValue(item.id);
        }
        for (const path of PATHS) {
          for (const id of ['title', 'retries']) {
            const expected = await reference(pair.first, plugin, path, id);
            expect(await mine.level(path).getValue(id)).toEqual(expected);
            await vi.waitFor(async () => expect(await theirs.level(path).getValue(id)).toEqual(expected), {
              timeout: 5_000,
            });
          }
        }
        mine.dispose();
        theirs.dispose();
      }),
      { numRuns: runs },
    );
  }, 120_000);

  it('reads a cold scope in one store round trip, warm ones in none', async () => {
    const { store, reads } = counting(pair.first);
    const settings = new ShopSettings('cold', store);
    await settings.scope('eu').updateValue('title', 'Europe');
    // The change feed's start announces a resync (the global values are read again): let it pass.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = reads();
    expect(await settings.scope('eu/de/berlin').getValue('title')).toBe('Europe');
    expect(reads()).toBe(before + 1);
    expect(await settings.scope('eu/de/berlin').getOrigin('title')).toBe('eu');
    expect(reads()).toBe(before + 1);
    settings.dispose();
  });
}

for (const kind of REAL_STORES) {
  const missing = kind.unavailable();
  if (missing !== undefined && process.env.REQUIRE_SERVICES !== '1') {
    console.log(`[skip] scopes on ${kind.name}: ${missing}`);
    continue;
  }
  describe(`scopes on ${kind.name}`, () => {
    scopeSuite(
      async () => {
        if (missing !== undefined) throw new Error(`${missing} but REQUIRE_SERVICES=1`);
        return kind.open();
      },
      kind.name === 'PGlite' ? 10 : 20,
    );
  });
}

describeWithRedisCluster('scopes on a local 3-master Redis Cluster', (cluster) => {
  scopeSuite(async () => {
    const clients = [new Cluster([...cluster().nodes]), new Cluster([...cluster().nodes])];
    for (const client of clients) client.on('error', () => {});
    const keyPrefix = `cpf-test:scopes:${Date.now().toString(36)}:`;
    const stores = clients.map((client) => new RedisOptionStore({ client, keyPrefix }));
    return storePair(stores, () => {
      for (const client of clients) client.disconnect();
    });
  }, 15);
});
