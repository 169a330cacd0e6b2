import { describe, expect } from 'vitest';
import type { StoreLogAppend } from '../storage/store-commit';
import { type CommittingStore, openCommitting } from './committing-store';
import type { Skip, SuiteTools } from './suite-tools';

/**
 * The checks of `StoreLogAppend.maxBytes` (0.3: a log bounded by the UTF-8 bytes of its entries
 * as well as by their count), declared inside the suite's `describe`; each skips itself for a
 * store without `commit`.
 */
export function describeLogBoundChecks(tools: SuiteTools): void {
  const { key, name, test } = tools;
  const openStore = (skip: Skip): Promise<CommittingStore | undefined> => openCommitting(tools, skip);

  /** Appends `entries` to `log` with the bounds of `append` in one commit; answers the log, newest first. */
  const appendTo = async (
    store: CommittingStore,
    append: Omit<StoreLogAppend, 'entries'>,
    entries: string[],
  ): Promise<string[]> => {
    const result = await store.commit({
      writes: [{ key: key('lb-carrier'), value: entries.join() }],
      log: { ...append, entries },
    });
    expect(result).toEqual({ ok: true });
    return store.readLog(append.name, 1000);
  };

  describe('log byte bound (maxBytes)', () => {
    test('the oldest entries go first until the UTF-8 bytes fit; multi-byte characters count by their bytes', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const bounds = { name: name('lb-bytes'), keep: 100, maxBytes: 10 };
      expect(await appendTo(store, bounds, ['aaaa'])).toEqual(['aaaa']);
      // 'éé' is 2 UTF-16 code units and 4 bytes: 8 bytes in all.
      expect(await appendTo(store, bounds, ['\u00e9\u00e9'])).toEqual(['\u00e9\u00e9', 'aaaa']);
      // '€' is 3 bytes: 11 > 10, so 'aaaa' goes (a store counting characters would keep it).
      expect(await appendTo(store, bounds, ['\u20ac'])).toEqual(['\u20ac', '\u00e9\u00e9']);
      // '𝌆𝌆' is 4 code units and 8 bytes: both older entries go.
      expect(await appendTo(store, bounds, ['\u{1d306}\u{1d306}'])).toEqual(['\u{1d306}\u{1d306}']);
      expect(await appendTo(store, bounds, ['b', 'c']), 'exactly maxBytes').toEqual([
        'c',
        'b',
        '\u{1d306}\u{1d306}',
      ]);
      expect(await appendTo(store, bounds, ['d'])).toEqual(['d', 'c', 'b']);
    });

    test('the newest entry always stays, whatever its size', async ({ skip }) => {
      const store = await openStore(skip);
      if (!store) return;
      const bounds = { name: name('lb-newest'), keep: 100, maxBytes: 8 };
      const large = 'x'.repeat(40);
      expect(await appendTo(store, bounds, ['small'])).toEqual(['small']);
      expect(await appendTo(store, bounds, [large]), 'larger than maxBytes alone').toEqual([large]);
      expect(await appendTo(store, bounds, ['y']), 'the large entry goes at the next append').toEqual(['y']);
      expect(await appendTo(store, bounds, ['v'])).toEqual(['v', 'y']);
      expect(
        await appendTo(store, bounds, [large, 'z']),
        'in one commit: the large one goes, and the older ones with it',
      ).toEqual(['z']);
      expect(await appendTo(store, bounds, ['w', large])).toEqual([large]);
    });

    test('both bounds apply: keep and maxBytes, whichever is tighter, also within one commit', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const byCount = { name: name('lb-count'), keep: 2, maxBytes: 1000 };
      expect(await appendTo(store, byCount, ['1', '2', '3'])).toEqual(['3', '2']);
      expect(await appendTo(store, byCount, ['4'])).toEqual(['4', '3']);
      const byBytes = { name: name('lb-both'), keep: 3, maxBytes: 9 };
      expect(await appendTo(store, byBytes, ['aaa', 'bbb', 'ccc', 'ddd'])).toEqual(['ddd', 'ccc', 'bbb']);
      expect(await appendTo(store, byBytes, ['eeee'])).toEqual(['eeee', 'ddd']);
      expect(await appendTo(store, byBytes, ['f', 'g'])).toEqual(['g', 'f', 'eeee']);
    });

    test('what a tighter bound removed stays removed when a later append loosens it', async ({ skip }) => {
      const store = await openStore(skip);
      if (!store) return;
      const log = name('lb-change');
      const wide = { name: log, keep: 1000, maxBytes: 1000 };
      const bytes = (maxBytes?: number) => ({ name: log, keep: 1000, maxBytes });
      for (let n = 1; n <= 12; n++) await appendTo(store, wide, [`e${n}`]);
      expect(await appendTo(store, { ...wide, keep: 3 }, ['e13'])).toEqual(['e13', 'e12', 'e11']);
      expect(await appendTo(store, wide, ['e14']), 'keep grows again').toEqual(['e14', 'e13', 'e12', 'e11']);
      expect(await appendTo(store, bytes(6), ['e15'])).toEqual(['e15', 'e14']);
      expect(await appendTo(store, wide, ['e16']), 'maxBytes grows again').toEqual(['e16', 'e15', 'e14']);
      expect(await appendTo(store, bytes(), ['e17']), 'no maxBytes at all').toEqual([
        'e17',
        'e16',
        'e15',
        'e14',
      ]);
      expect(await appendTo(store, bytes(9), ['e18'])).toEqual(['e18', 'e17', 'e16']);
      expect(await appendTo(store, wide, ['e19'])).toEqual(['e19', 'e18', 'e17', 'e16']);
    });
  });
}
