import { describe, expect } from 'vitest';
import { type CommittingStore, currentOf, openCommitting } from './committing-store';
import type { Skip, SuiteTools } from './suite-tools';

/**
 * The checks of `StoreCommit.logs` (0.3: one commit appending to several logs, each with its own
 * bounds), declared inside the suite's `describe`; each skips itself for a store without `commit`.
 */
export function describeMultiLogChecks(tools: SuiteTools): void {
  const { key, name, test } = tools;
  const openStore = (skip: Skip): Promise<CommittingStore | undefined> => openCommitting(tools, skip);

  describe('commit logs (several logs in one commit)', () => {
    test('each log gets its own entries and keeps its own bound; `log` and `logs` together', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const k = key('ml-key');
      const [main, second, third] = [name('ml-main'), name('ml-second'), name('ml-third')];
      const result = await store.commit({
        writes: [{ key: k, value: '1' }],
        log: { name: main, entries: ['m1', 'm2'], keep: 5 },
        logs: [
          { name: second, entries: ['s1', 's2', 's3'], keep: 2 },
          { name: third, entries: ['t1'], keep: 1 },
        ],
      });
      expect(result).toEqual({ ok: true });
      await expect(store.readLog(main, 10)).resolves.toEqual(['m2', 'm1']);
      await expect(store.readLog(second, 10)).resolves.toEqual(['s3', 's2']);
      await expect(store.readLog(third, 10)).resolves.toEqual(['t1']);
      expect(
        await store.commit({
          writes: [{ key: k, value: '2' }],
          logs: [
            { name: third, entries: ['t2'], keep: 1 },
            { name: main, entries: ['m3'], keep: 5 },
            { name: second, entries: [], keep: 2 },
          ],
        }),
        'logs without log; an append without entries changes nothing',
      ).toEqual({ ok: true });
      await expect(store.readLog(main, 10)).resolves.toEqual(['m3', 'm2', 'm1']);
      await expect(store.readLog(second, 10)).resolves.toEqual(['s3', 's2']);
      await expect(store.readLog(third, 10)).resolves.toEqual(['t2']);
    });

    test('logs sharing one keep and maxBytes each keep their own bounds, commit after commit', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const k = key('mls-key');
      const [a, b, c] = [name('mls-a'), name('mls-b'), name('mls-c')];
      const bounds = { keep: 3, maxBytes: 10 };
      expect(
        await store.commit({
          writes: [{ key: k, value: '1' }],
          logs: [
            { name: a, entries: ['a1', 'a2'], ...bounds },
            { name: b, entries: ['b1'], ...bounds },
            { name: c, entries: ['c1', 'c2', 'c3', 'c4'], ...bounds },
          ],
        }),
      ).toEqual({ ok: true });
      expect(
        await store.commit({
          writes: [{ key: k, value: '2' }],
          logs: [
            { name: c, entries: ['c5'], ...bounds },
            { name: a, entries: ['a3', 'a4'], ...bounds },
            { name: b, entries: ['bbbbbbbbb2'], ...bounds },
          ],
        }),
      ).toEqual({ ok: true });
      await expect(store.readLog(a, 10)).resolves.toEqual(['a4', 'a3', 'a2']);
      await expect(store.readLog(b, 10), 'the byte bound').resolves.toEqual(['bbbbbbbbb2']);
      await expect(store.readLog(c, 10)).resolves.toEqual(['c5', 'c4', 'c3']);
      if (typeof store.readLogPage === 'function') {
        const page = await store.readLogPage(c, { limit: 10 });
        expect(page).toMatchObject({ entries: ['c5', 'c4', 'c3'], total: 3, trimmed: true });
      }
    });

    test('a refused commit appends to none of its logs; a log named twice is refused as malformed', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const k = key('mlr-key');
      const [first, second] = [name('mlr-first'), name('mlr-second')];
      await store.set(k, 'stored');
      const refused = await store.commit({
        writes: [{ key: k, value: 'new', expect: 'other' }],
        logs: [
          { name: first, entries: ['f'], keep: 5 },
          { name: second, entries: ['s'], keep: 5 },
        ],
      });
      expect(currentOf(refused)).toEqual({ [k]: 'stored' });
      await expect(store.readLog(first, 5)).resolves.toEqual([]);
      await expect(store.readLog(second, 5)).resolves.toEqual([]);
      await expect(
        store.commit({
          writes: [{ key: k, value: 'twice' }],
          log: { name: first, entries: ['a'], keep: 5 },
          logs: [{ name: first, entries: ['b'], keep: 5 }],
        }),
      ).rejects.toThrow();
      await expect(store.get(k)).resolves.toBe('stored');
      await expect(store.readLog(first, 5)).resolves.toEqual([]);
    });
  });
}
