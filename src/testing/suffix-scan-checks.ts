import { describe, expect } from 'vitest';
import type { OptionStore } from '../storage/option-store';
import type { SuffixScanQuery } from '../storage/store-scan';
import type { Skip, SuiteTools } from './suite-tools';

/** A store with `scanSuffixes`. */
type SuffixScanningStore = OptionStore & Required<Pick<OptionStore, 'scanSuffixes'>>;

/** More pages than any correct scan of the suite's keys needs (a store that never ends its scan fails). */
const MAX_PAGES = 10_000;

/** One suffix as a whole scan saw it. */
interface SeenSuffix {
  readonly held: number[];
  readonly texts: string[];
  readonly joined: (string | null)[];
}

/**
 * The checks of `scanSuffixes` (0.3: the suffixes of several prefixes merged, a page at a time),
 * declared inside the suite's `describe`; each skips itself for a store without it.
 */
export function describeSuffixScanChecks(tools: SuiteTools): void {
  const { key, open, test } = tools;

  const openScanning = async (skip: Skip): Promise<SuffixScanningStore | undefined> => {
    const store = await open();
    if (typeof store.scanSuffixes === 'function') return store as SuffixScanningStore;
    skip('the store has no scanSuffixes');
    return undefined;
  };

  /**
   * Every suffix of a scan, page after page until the cursor is `null`, checking that each comes
   * once and in ascending order; `between` runs after each page.
   */
  const scanAll = async (
    store: SuffixScanningStore,
    query: Omit<SuffixScanQuery, 'cursor'>,
    between?: (page: number) => Promise<void>,
  ): Promise<Map<string, SeenSuffix>> => {
    const seen = new Map<string, SeenSuffix>();
    let cursor: string | null = null;
    let last: string | undefined;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await store.scanSuffixes({ ...query, cursor });
      expect(answer.suffixes.length, 'at most count suffixes').toBeLessThanOrEqual(query.count);
      expect(answer.held.length, 'held: one per suffix').toBe(answer.suffixes.length);
      expect(answer.texts.length, 'texts: one per suffix').toBe(answer.suffixes.length);
      expect(answer.joined.length, 'joined: one per suffix').toBe(answer.suffixes.length);
      for (const [index, suffix] of answer.suffixes.entries()) {
        expect(seen.has(suffix), `${JSON.stringify(suffix)} comes once`).toBe(false);
        if (last !== undefined) expect(suffix > last, `${suffix} after ${last}`).toBe(true);
        last = suffix;
        seen.set(suffix, {
          held: answer.held[index]!,
          texts: answer.texts[index]!,
          joined: answer.joined[index]!,
        });
      }
      cursor = answer.cursor;
      if (cursor === null) return seen;
      await between?.(page);
    }
    throw new Error(`the scan did not end within ${MAX_PAGES} pages`);
  };

  describe('scanSuffixes capability', () => {
    test('merges the suffixes of several prefixes, each once, in order, with the prefixes it follows, the texts asked for and the joined keys', async ({
      skip,
    }) => {
      const store = await openScanning(skip);
      if (!store) return;
      // The first prefix holds LIKE and glob wildcards: they match only themselves.
      const prefixes = [key('sfa%_*@'), key('sfb@'), key('sfc@')];
      const marker = key('sfm@');
      const stored: Record<string, readonly string[]> = {
        [prefixes[0]!]: ['1', '2', '4', 'x%', 'x_'],
        [prefixes[1]!]: ['2', '3', '4', 'x_y'],
        [prefixes[2]!]: ['5'],
        [marker]: ['2', '5', '9'],
      };
      for (const [prefix, suffixes] of Object.entries(stored)) {
        for (const suffix of suffixes) await store.set(prefix + suffix, `${prefix.slice(-2)}=${suffix}`);
      }
      // Would match the first prefix read as a pattern.
      await store.set(key('sfaXY*@1'), 'not under the prefix');
      await store.set(key('sfa%_*@') + '0'.repeat(3), 'under the prefix');
      const values = [true, false, true];
      const expected = new Map<string, SeenSuffix>();
      const all = new Set([
        ...stored[prefixes[0]!]!,
        ...stored[prefixes[1]!]!,
        ...stored[prefixes[2]!]!,
        '000',
      ]);
      for (const suffix of [...all].sort()) {
        const held = prefixes.flatMap((prefix, index) =>
          stored[prefix]!.includes(suffix) || (index === 0 && suffix === '000') ? [index] : [],
        );
        expected.set(suffix, {
          held,
          texts: held
            .filter((index) => values[index])
            .map((index) =>
              index === 0 && suffix === '000'
                ? 'under the prefix'
                : `${prefixes[index]!.slice(-2)}=${suffix}`,
            ),
          joined: [stored[marker]!.includes(suffix) ? `${marker.slice(-2)}=${suffix}` : null],
        });
      }
      for (const count of [1, 2, 3, 50]) {
        const seen = await scanAll(store, { prefixes, values, joined: [marker], count });
        expect(seen, `count ${count}`).toEqual(expected);
      }
      const keysOnly = await scanAll(store, { prefixes, count: 4 });
      expect([...keysOnly.keys()]).toEqual([...expected.keys()]);
      for (const suffix of keysOnly.values()) {
        expect(suffix.texts, 'no texts without values').toEqual([]);
        expect(suffix.joined, 'no joined prefixes asked').toEqual([]);
      }
    });

    test('returns every suffix held for the whole scan exactly once, while keys are written and deleted between pages', async ({
      skip,
    }) => {
      const store = await openScanning(skip);
      if (!store) return;
      const prefixes = [key('sfw-a@'), key('sfw-b@')];
      const stable = Array.from({ length: 30 }, (_, index) => `s${String(index).padStart(2, '0')}`);
      for (const [index, suffix] of stable.entries()) await store.set(prefixes[index % 2]! + suffix, 'v');
      const volatile = Array.from({ length: 10 }, (_, index) => `v${index}`);
      for (const suffix of volatile) await store.set(prefixes[1]! + suffix, 'v');
      const seen = await scanAll(store, { prefixes, count: 4 }, async (page) => {
        await store.set(`${prefixes[0]!}s${String(page).padStart(2, '0')}x`, 'new');
        await store.set(`${prefixes[1]!}a${page}`, 'new, before the cursor');
        await store.delete(prefixes[1]! + volatile[page % volatile.length]!);
        await store.set(prefixes[0]! + stable[(page * 7) % stable.length]!, `also held by a ${page}`);
      });
      for (const suffix of stable) expect(seen.has(suffix), suffix).toBe(true);
    });

    test('refuses queries it cannot answer: no prefix text, an empty prefix, values of another length, count below 1', async ({
      skip,
    }) => {
      const store = await openScanning(skip);
      if (!store) return;
      const prefix = key('sfr@');
      await expect(store.scanSuffixes({ prefixes: [prefix], count: 0 }), 'count 0').rejects.toThrow();
      await expect(store.scanSuffixes({ prefixes: [''], count: 2 }), 'empty prefix').rejects.toThrow();
      await expect(
        store.scanSuffixes({ prefixes: [prefix, prefix], values: [true], count: 2 }),
        'values of another length',
      ).rejects.toThrow();
      await expect(
        store.scanSuffixes({ prefixes: [42 as unknown as string], count: 2 }),
        'a prefix that is not text',
      ).rejects.toThrow();
      expect(await store.scanSuffixes({ prefixes: [], count: 2 })).toEqual({
        suffixes: [],
        held: [],
        texts: [],
        joined: [],
        cursor: null,
      });
    });
  });
}
