import { describe, expect } from 'vitest';
import type { OptionStore } from '../storage/option-store';
import type { ScanQuery } from '../storage/store-scan';
import { PREFIX_KEY_SUFFIXES, PREFIX_PROBES } from './awkward-text';
import { hasCommit } from './committing-store';
import type { Skip, SuiteTools } from './suite-tools';

/** A store with `scan`. */
type ScanningStore = OptionStore & Required<Pick<OptionStore, 'scan'>>;

/** More pages than any correct scan of the suite's keys needs (a store that never ends its scan fails). */
const MAX_PAGES = 100_000;

/**
 * The checks of `scan` (0.3: walking keys or log names a page at a time), declared inside the
 * suite's `describe`; each skips itself for a store without `scan`.
 */
export function describeScanChecks(tools: SuiteTools): void {
  const { key, name, open, test } = tools;

  const openScanning = async (skip: Skip): Promise<ScanningStore | undefined> => {
    const store = await open();
    if (typeof store.scan === 'function') return store as ScanningStore;
    skip('the store has no scan');
    return undefined;
  };

  /**
   * Every item of a scan, page after page until the cursor is `null`; `between` runs after each
   * page. Answers the items (a store may return one twice) and the number of pages.
   */
  const scanAll = async (
    store: ScanningStore,
    query: Omit<ScanQuery, 'cursor'>,
    between?: (page: number) => Promise<void>,
  ): Promise<{ items: Set<string>; pages: number }> => {
    const items = new Set<string>();
    let cursor: string | null = null;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await store.scan({ ...query, cursor });
      expect(Array.isArray(answer.items)).toBe(true);
      for (const item of answer.items) items.add(item);
      cursor = answer.cursor;
      if (cursor === null) return { items, pages: page };
      await between?.(page);
    }
    throw new Error(`the scan did not end within ${MAX_PAGES} pages`);
  };

  describe('scan capability', () => {
    test('pages through the keys that start with the prefix, compared as text: no LIKE or glob patterns', async ({
      skip,
    }) => {
      const store = await openScanning(skip);
      if (!store) return;
      const base = key('sc-');
      const keys = [...PREFIX_KEY_SUFFIXES, 'b/1', 'b/2', 'b/3', 'b/4'].map((suffix) => key(`sc-${suffix}`));
      for (const k of keys) await store.set(k, 'v');
      const startingWith = (prefix: string) => new Set(keys.filter((k) => k.startsWith(prefix)));
      const all = await scanAll(store, { prefix: base, count: 3 });
      expect(all.items).toEqual(new Set(keys));
      for (const suffix of [...PREFIX_PROBES, 'b/']) {
        const prefix = base + suffix;
        expect((await scanAll(store, { prefix, count: 2 })).items, JSON.stringify(suffix)).toEqual(
          startingWith(prefix),
        );
      }
      await store.delete(keys[1]!);
      expect((await scanAll(store, { prefix: `${base}a%`, count: 5 })).items).toEqual(new Set([keys[2]]));
      await expect(store.scan({ prefix: base, count: 0 }), 'count below 1').rejects.toThrow();
    });

    test('values: true gives each key’s stored text beside it; ordered pages come in ascending order', async ({
      skip,
    }) => {
      const store = await openScanning(skip);
      if (!store) return;
      const base = key('sv-');
      const texts = new Map(
        ['c', 'a', 'e', 'b', 'd', 'a/1'].map((suffix, index) => [`${base}${suffix}`, `t${index}\u00e9`]),
      );
      for (const [k, text] of texts) await store.set(k, text);
      const seen = new Map<string, string>();
      let cursor: string | null = null;
      let last = '';
      do {
        const page = await store.scan({ prefix: base, count: 2, values: true, cursor });
        expect(page.values?.length, 'one value per item').toBe(page.items.length);
        for (const [index, item] of page.items.entries()) seen.set(item, page.values![index]!);
        if (page.ordered === true) {
          for (const item of page.items) {
            expect(item > last, `${item} after ${last}`).toBe(true);
            last = item;
          }
        }
        cursor = page.cursor;
      } while (cursor !== null);
      expect(seen).toEqual(texts);
      const plain = await store.scan({ prefix: base, count: 10 });
      expect(plain.values).toBeUndefined();
      await expect(store.scan({ prefix: base, count: 2, logs: true, values: true })).rejects.toThrow();
    });

    test('returns every key that exists for the whole scan, while others are written and deleted between pages', async ({
      skip,
    }) => {
      const store = await openScanning(skip);
      if (!store) return;
      const prefix = key('scw-');
      const stable = Array.from({ length: 40 }, (_, index) =>
        key(`scw-stable-${String(index).padStart(2, '0')}`),
      );
      const volatile = Array.from({ length: 20 }, (_, index) => key(`scw-volatile-${index}`));
      for (const k of [...stable, ...volatile]) await store.set(k, 'v');
      const added: string[] = [];
      const { items } = await scanAll(store, { prefix, count: 4 }, async (page) => {
        const fresh = key(`scw-added-${page}`);
        added.push(fresh);
        await store.set(fresh, 'new');
        await store.set(key(`scw-0-before-${page}`), 'new');
        await store.delete(volatile[page % volatile.length]!);
        await store.set(stable[page % stable.length]!, `changed ${page}`);
      });
      for (const k of stable) expect(items.has(k), k).toBe(true);
      for (const item of items) expect(item.startsWith(prefix), item).toBe(true);
    });

    test('logs: true pages through the change-log names with the prefix; keys and logs do not mix', async ({
      skip,
    }) => {
      const store = await openScanning(skip);
      if (!store) return;
      if (!hasCommit(store)) return skip('the store has no commit');
      const prefix = name('scl-');
      const logs = ['a', 'a%', 'a_b', 'b*', 'c/d', 'e'].map((suffix) => name(`scl-${suffix}`));
      for (const log of logs) {
        const result = await store.commit({
          writes: [{ key: key('sclk-carrier'), value: log }],
          log: { name: log, entries: ['entry'], keep: 5 },
        });
        expect(result).toEqual({ ok: true });
      }
      expect((await scanAll(store, { prefix, count: 2, logs: true })).items).toEqual(new Set(logs));
      expect((await scanAll(store, { prefix: name('scl-a%'), count: 2, logs: true })).items).toEqual(
        new Set([logs[1]]),
      );
      expect((await scanAll(store, { prefix, count: 10 })).items, 'no log among the keys').toEqual(new Set());
      expect(
        (await scanAll(store, { prefix: key('sclk-carrier'), count: 10, logs: true })).items,
        'no key among the logs',
      ).toEqual(new Set());
    });
  });
}
