import { describe, expect } from 'vitest';
import type { StoreCommit, StoreCommitResult } from '../storage/store-commit';
import { AWKWARD_KEY_SUFFIXES, AWKWARD_VALUES } from './awkward-text';
import { type CommittingStore, currentOf, hasCommit, openCommitting, openTwo } from './committing-store';
import type { Skip, SuiteTools } from './suite-tools';
import { waitUntil } from './wait-until';

/** How many commits race in the race checks. */
export const RACERS = 20;

/**
 * The checks of the optional `commit` / `readLog` capability (docs/stores.md, "The store
 * capability"), declared inside the suite's `describe`. Each test skips itself for a store
 * without `commit`; one checks that a store has both methods or neither.
 */
export function describeCommitChecks(tools: SuiteTools): void {
  const { key, name, open, test } = tools;
  const openStore = (skip: Skip): Promise<CommittingStore | undefined> => openCommitting(tools, skip);

  describe('commit capability', () => {
    test('a store has both commit and readLog, or neither', async () => {
      const store = await open();
      expect(typeof store.commit === 'function', 'commit and readLog go together').toBe(
        typeof store.readLog === 'function',
      );
    });

    test('commit conditions: absent, equal text, a mismatching text, none', async ({ skip }) => {
      const store = await openStore(skip);
      if (!store) return;
      const k = key('conditions');
      await expect(store.commit({ writes: [{ key: k, value: 'v1', expect: null }] })).resolves.toEqual({
        ok: true,
      });
      await expect(store.get(k)).resolves.toBe('v1');
      const notAbsent = await store.commit({ writes: [{ key: k, value: 'v2', expect: null }] });
      expect(currentOf(notAbsent)).toEqual({ [k]: 'v1' });
      await expect(store.commit({ writes: [{ key: k, value: 'v2', expect: 'v1' }] })).resolves.toEqual({
        ok: true,
      });
      await expect(store.get(k)).resolves.toBe('v2');
      const mismatch = await store.commit({ writes: [{ key: k, value: 'v3', expect: 'v1' }] });
      expect(currentOf(mismatch)).toEqual({ [k]: 'v2' });
      await expect(store.get(k)).resolves.toBe('v2');
      await expect(store.commit({ writes: [{ key: k, value: 'v4' }] })).resolves.toEqual({ ok: true });
      await expect(store.get(k)).resolves.toBe('v4');
      const absent = key('conditions-absent');
      const missing = await store.commit({ writes: [{ key: absent, value: 'x', expect: 'something' }] });
      expect(currentOf(missing)).toEqual({ [absent]: null });
      await expect(store.get(absent)).resolves.toBeUndefined();
    });

    test('the empty string is a value in commits and conditions, distinct from absent', async ({ skip }) => {
      const store = await openStore(skip);
      if (!store) return;
      const k = key('commit-empty');
      await expect(store.commit({ writes: [{ key: k, value: '' }] })).resolves.toEqual({ ok: true });
      await expect(store.get(k)).resolves.toBe('');
      expect((await store.getMany([k])).get(k)).toBe('');
      expect(currentOf(await store.commit({ writes: [{ key: k, value: 'x', expect: null }] }))).toEqual({
        [k]: '',
      });
      await expect(store.commit({ writes: [{ key: k, value: 'x', expect: '' }] })).resolves.toEqual({
        ok: true,
      });
      expect(currentOf(await store.commit({ writes: [{ key: k, value: '', expect: '' }] }))).toEqual({
        [k]: 'x',
      });
      await expect(store.get(k)).resolves.toBe('x');
    });

    test('all or nothing: one failing condition among many writes changes nothing and logs nothing', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [a, b, c, d, e] = ['aon-a', 'aon-b', 'aon-c', 'aon-d', 'aon-e'].map(key) as [
        string,
        string,
        string,
        string,
        string,
      ];
      const log = name('aon-log');
      await store.commit({
        writes: [
          { key: a, value: 'A' },
          { key: b, value: 'B' },
          { key: d, value: 'D' },
        ],
      });
      const refused = await store.commit({
        writes: [
          { key: a, value: 'A2', expect: 'A' },
          { key: b, value: 'B2', expect: 'not B' },
          { key: c, value: 'C', expect: null },
          { key: d, value: null },
          { key: e, value: 'E' },
        ],
        log: { name: log, entries: ['entry'], keep: 10 },
      });
      expect(refused.ok).toBe(false);
      expect(currentOf(refused), 'only the failing key, with its current text').toEqual({ [b]: 'B' });
      await expect(store.getMany([a, b, c, d, e])).resolves.toEqual(
        new Map([
          [a, 'A'],
          [b, 'B'],
          [d, 'D'],
        ]),
      );
      await expect(store.readLog(log, 10)).resolves.toEqual([]);
      const twoFail = await store.commit({
        writes: [
          { key: a, value: 'A3', expect: null },
          { key: c, value: 'C', expect: 'C' },
          { key: b, value: 'B3', expect: 'B' },
        ],
      });
      expect(currentOf(twoFail)).toEqual({ [a]: 'A', [c]: null });
      await expect(store.getMany([a, b, c])).resolves.toEqual(
        new Map([
          [a, 'A'],
          [b, 'B'],
        ]),
      );
    });

    test('deletes inside a commit: conditional, unconditional, of absent keys', async ({ skip }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [a, b, absent] = [key('del-a'), key('del-b'), key('del-absent')];
      await store.commit({
        writes: [
          { key: a, value: 'A' },
          { key: b, value: 'B' },
        ],
      });
      expect(currentOf(await store.commit({ writes: [{ key: a, value: null, expect: 'not A' }] }))).toEqual({
        [a]: 'A',
      });
      expect(currentOf(await store.commit({ writes: [{ key: a, value: null, expect: null }] }))).toEqual({
        [a]: 'A',
      });
      await expect(store.get(a)).resolves.toBe('A');
      const deleted = await store.commit({
        writes: [
          { key: a, value: null, expect: 'A' },
          { key: b, value: null },
          { key: absent, value: null, expect: null },
        ],
      });
      expect(deleted).toEqual({ ok: true });
      await expect(store.getMany([a, b, absent])).resolves.toEqual(new Map());
      await expect(store.commit({ writes: [{ key: a, value: null }] })).resolves.toEqual({ ok: true });
      expect(currentOf(await store.commit({ writes: [{ key: a, value: null, expect: 'A' }] }))).toEqual({
        [a]: null,
      });
      await store.set(b, 'back');
      await expect(store.get(b)).resolves.toBe('back');
    });

    test('the change log: appended in order, trimmed to keep, read newest first, one log per name', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [k, other] = [key('log-key'), key('log-other')];
      const [log, otherLog] = [name('log-main'), name('log-second')];
      const commitWithLog = (entries: string[], keep: number, logName = log): Promise<StoreCommitResult> =>
        store.commit({
          writes: [{ key: logName === log ? k : other, value: entries.join() }],
          log: { name: logName, entries, keep },
        });
      await expect(store.readLog(log, 10)).resolves.toEqual([]);
      await commitWithLog(['e1', 'e2'], 3);
      await expect(store.readLog(log, 10)).resolves.toEqual(['e2', 'e1']);
      await commitWithLog(['e3', 'e4'], 3);
      await expect(store.readLog(log, 10)).resolves.toEqual(['e4', 'e3', 'e2']);
      await expect(store.readLog(log, 2)).resolves.toEqual(['e4', 'e3']);
      await commitWithLog(['e5', 'e6', 'e7', 'e8', 'e9'], 3);
      await expect(store.readLog(log, 10), 'more entries than keep: the newest stay').resolves.toEqual([
        'e9',
        'e8',
        'e7',
      ]);
      await commitWithLog(['o1'], 5, otherLog);
      await expect(store.readLog(otherLog, 10)).resolves.toEqual(['o1']);
      await expect(store.readLog(log, 10)).resolves.toEqual(['e9', 'e8', 'e7']);
      await store.commit({
        writes: [{ key: k, value: 'no entries' }],
        log: { name: log, entries: [], keep: 3 },
      });
      await expect(store.readLog(log, 10)).resolves.toEqual(['e9', 'e8', 'e7']);
      const texts = AWKWARD_VALUES.filter((text) => text !== '');
      await commitWithLog(texts, texts.length + 1, otherLog);
      await expect(store.readLog(otherLog, 100), 'entries are opaque text').resolves.toEqual(
        ['o1', ...texts].reverse(),
      );
    });

    test('keys are opaque text in commits: quotes, wildcards, white space and unicode', async ({ skip }) => {
      const store = await openStore(skip);
      if (!store) return;
      const keys = AWKWARD_KEY_SUFFIXES.map((suffix) => key(`commit ${suffix}`));
      const textAt = (index: number) => AWKWARD_VALUES[index % AWKWARD_VALUES.length]!;
      const created = await store.commit({
        writes: keys.map((k, index) => ({ key: k, value: textAt(index), expect: null })),
      });
      expect(created).toEqual({ ok: true });
      const found = await store.getMany(keys);
      for (const [index, k] of keys.entries()) expect(found.get(k), k).toBe(textAt(index));
      const updated = await store.commit({
        writes: keys.map((k, index) => ({ key: k, value: `new ${index}`, expect: textAt(index) })),
      });
      expect(updated).toEqual({ ok: true });
      const stale = await store.commit({
        writes: keys.map((k, index) => ({ key: k, value: null, expect: textAt(index) })),
      });
      expect(currentOf(stale)).toEqual(Object.fromEntries(keys.map((k, index) => [k, `new ${index}`])));
      const removed = await store.commit({
        writes: keys.map((k, index) => ({ key: k, value: null, expect: `new ${index}` })),
      });
      expect(removed).toEqual({ ok: true });
      await expect(store.getMany(keys)).resolves.toEqual(new Map());
    });

    test('rejects a malformed commit: no writes, a key written twice', async ({ skip }) => {
      const store = await openStore(skip);
      if (!store) return;
      const k = key('malformed');
      await expect(store.commit({ writes: [] })).rejects.toThrow();
      await expect(
        store.commit({
          writes: [
            { key: k, value: 'a' },
            { key: k, value: 'b' },
          ],
        }),
      ).rejects.toThrow();
      await expect(store.get(k)).resolves.toBeUndefined();
    });

    test('of concurrent commits with the same expected text, through two instances, exactly one succeeds', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [first, second] = await openTwo(tools, store);
      const k = key('race-expect');
      const log = name('race-expect-log');
      await first.set(k, 'start');
      const commits: StoreCommit[] = Array.from({ length: RACERS }, (_, index) => ({
        writes: [{ key: k, value: `winner ${index}`, expect: 'start' }],
        log: { name: log, entries: [`entry ${index}`], keep: 100 },
      }));
      const results = await Promise.all(
        commits.map((commit, index) => (index % 2 === 0 ? first : second).commit(commit)),
      );
      const winners = results.flatMap((result, index) => (result.ok ? [index] : []));
      expect(winners).toHaveLength(1);
      for (const result of results) if (!result.ok) expect(result.current.has(k)).toBe(true);
      await expect(second.get(k)).resolves.toBe(`winner ${winners[0]}`);
      await expect(first.readLog(log, 100)).resolves.toEqual([`entry ${winners[0]}`]);
    });

    test('of concurrent commits creating the same absent key, through two instances, exactly one succeeds', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [first, second] = await openTwo(tools, store);
      const k = key('race-create');
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, index) =>
          (index % 2 === 0 ? first : second).commit({
            writes: [{ key: k, value: `creator ${index}`, expect: null }],
          }),
        ),
      );
      const winners = results.flatMap((result, index) => (result.ok ? [index] : []));
      expect(winners).toHaveLength(1);
      await expect(first.get(k)).resolves.toBe(`creator ${winners[0]}`);
    });

    if (!tools.hasSibling) return;

    test("one change message per commit: a sibling's watch reports all its keys in one go, not its own", ({
      skip,
    }) =>
      tools.checkWatch(skip, async ({ watcher, writer, seen }) => {
        if (!hasCommit(writer) || !hasCommit(watcher)) return skip('the store has no commit');
        const own = key('own-commit');
        await watcher.commit({ writes: [{ key: own, value: 'mine' }] });
        const keys = ['batch-a', 'batch-b', 'batch c %_*', 'batch-d'].map(key);
        let together: string[] | undefined;
        const unsubscribe = watcher.watch((changed) => {
          // At the first key of the batch, look once the synchronous delivery is over.
          if (changed === keys[0] && together === undefined) {
            together = [];
            queueMicrotask(() => {
              together = seen.filter((each) => keys.includes(each));
            });
          }
        });
        try {
          await writer.commit({
            writes: keys.map((k, index) =>
              index === 3 ? { key: k, value: null } : { key: k, value: 'v', expect: null },
            ),
          });
          expect(await waitUntil(() => keys.every((k) => seen.includes(k)), tools.watchTimeoutMs)).toBe(true);
          expect(await waitUntil(() => (together?.length ?? 0) > 0, tools.watchTimeoutMs)).toBe(true);
          expect(new Set(together), 'every key of the commit reported before any other task ran').toEqual(
            new Set(keys),
          );
          expect(seen).not.toContain(own);
        } finally {
          unsubscribe();
        }
      }));
  });
}
