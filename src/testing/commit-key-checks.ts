import { describe, expect } from 'vitest';
import { type CommittingStore, currentOf, openCommitting, openTwo } from './committing-store';
import type { Skip, SuiteTools } from './suite-tools';

/** How many commits check the record while another one changes it, in the race check. */
const CHECKERS = 12;

/**
 * The checks of `StoreCommit.checks` (0.3: conditions on keys a commit does not write), declared
 * inside the suite's `describe`; each skips itself for a store without `commit`. A store with
 * `commit` must honour `checks`: a store that ignored them would let a write through that the
 * settings layer made conditional (on the schema version, on the texts its rules read).
 */
export function describeCommitKeyChecks(tools: SuiteTools): void {
  const { key, name, test } = tools;
  const openStore = (skip: Skip): Promise<CommittingStore | undefined> => openCommitting(tools, skip);

  describe('commit checks (conditions on keys not written)', () => {
    test('a commit applies only when every checked key holds its text: held, failing, absent, the empty string', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [record, written, empty, absent] = [
        key('ck-record'),
        key('ck-written'),
        key('ck-empty'),
        key('ck-absent'),
      ];
      await store.set(record, 'v1');
      await store.set(empty, '');
      const attempt = (checks: Array<{ key: string; expect: string | null }>, value: string) =>
        store.commit({ writes: [{ key: written, value }], checks });
      expect(await attempt([{ key: record, expect: 'v1' }], 'held')).toEqual({ ok: true });
      await expect(store.get(written)).resolves.toBe('held');
      expect(currentOf(await attempt([{ key: record, expect: 'v2' }], 'x')), 'a failing check').toEqual({
        [record]: 'v1',
      });
      expect(currentOf(await attempt([{ key: record, expect: null }], 'x')), 'expects absence').toEqual({
        [record]: 'v1',
      });
      expect(await attempt([{ key: absent, expect: null }], 'absent held')).toEqual({ ok: true });
      expect(currentOf(await attempt([{ key: absent, expect: 'text' }], 'x'))).toEqual({ [absent]: null });
      expect(currentOf(await attempt([{ key: absent, expect: '' }], 'x')), 'absent is not empty').toEqual({
        [absent]: null,
      });
      expect(await attempt([{ key: empty, expect: '' }], 'empty held')).toEqual({ ok: true });
      expect(currentOf(await attempt([{ key: empty, expect: null }], 'x')), 'empty is not absent').toEqual({
        [empty]: '',
      });
      await expect(store.get(written)).resolves.toBe('empty held');
      await expect(store.getMany([record, empty, absent]), 'checked keys are not written').resolves.toEqual(
        new Map([
          [record, 'v1'],
          [empty, ''],
        ]),
      );
    });

    test('all or nothing: a failing check refuses the writes and the log entries; every failing key is reported', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [a, b, record, other] = [key('ckn-a'), key('ckn-b'), key('ckn-record'), key('ckn-other')];
      const log = name('ckn-log');
      await store.set(a, 'A');
      await store.set(record, '3');
      await store.set(other, 'o');
      const refused = await store.commit({
        writes: [
          { key: a, value: 'A2', expect: 'A' },
          { key: b, value: 'B', expect: null },
        ],
        checks: [
          { key: other, expect: 'o' },
          { key: record, expect: '2' },
        ],
        log: { name: log, entries: ['refused'], keep: 10 },
      });
      expect(currentOf(refused), 'only the failing check, with its text').toEqual({ [record]: '3' });
      await expect(store.getMany([a, b])).resolves.toEqual(new Map([[a, 'A']]));
      await expect(store.readLog(log, 10)).resolves.toEqual([]);
      const both = await store.commit({
        writes: [{ key: a, value: 'A3', expect: 'not A' }],
        checks: [{ key: record, expect: '2' }],
      });
      expect(currentOf(both), 'a failing condition and a failing check').toEqual({ [a]: 'A', [record]: '3' });
      const applied = await store.commit({
        writes: [
          { key: a, value: 'A2', expect: 'A' },
          { key: b, value: 'B', expect: null },
        ],
        checks: [{ key: record, expect: '3' }],
        log: { name: log, entries: ['applied'], keep: 10 },
      });
      expect(applied).toEqual({ ok: true });
      await expect(store.getMany([a, b, record])).resolves.toEqual(
        new Map([
          [a, 'A2'],
          [b, 'B'],
          [record, '3'],
        ]),
      );
      await expect(store.readLog(log, 10)).resolves.toEqual(['applied']);
    });

    test('a commit of checks and a log, without writes; a key both written and checked is refused as malformed', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [record, written] = [key('ckl-record'), key('ckl-written')];
      const log = name('ckl-log');
      await store.set(record, 'r');
      const entry = (text: string, expect: string) =>
        store.commit({
          writes: [],
          checks: [{ key: record, expect }],
          log: { name: log, entries: [text], keep: 5 },
        });
      expect(currentOf(await entry('no', 'other'))).toEqual({ [record]: 'r' });
      expect(await entry('yes', 'r')).toEqual({ ok: true });
      await expect(store.readLog(log, 5)).resolves.toEqual(['yes']);
      await expect(
        store.commit({ writes: [{ key: written, value: 'x' }], checks: [{ key: written, expect: null }] }),
      ).rejects.toThrow();
      await expect(
        store.commit({
          writes: [{ key: written, value: 'x' }],
          checks: [
            { key: record, expect: 'r' },
            { key: record, expect: 'r' },
          ],
        }),
      ).rejects.toThrow();
      await expect(store.get(written)).resolves.toBeUndefined();
    });

    test('through two instances, commits that check a key and a commit that changes it: every check holds before the change or fails after it', async ({
      skip,
    }) => {
      const store = await openStore(skip);
      if (!store) return;
      const [first, second] = await openTwo(tools, store);
      const record = key('ckr-record');
      const log = name('ckr-log');
      await first.set(record, 'v1');
      const writes = Array.from({ length: CHECKERS }, (_, index) => key(`ckr-written-${index}`));
      const checker = (index: number) =>
        (index % 2 === 0 ? first : second).commit({
          writes: [{ key: writes[index]!, value: 'written' }],
          checks: [{ key: record, expect: 'v1' }],
          log: { name: log, entries: [`checker ${index}`], keep: 100 },
        });
      const half = CHECKERS / 2;
      const results = await Promise.all([
        ...Array.from({ length: half }, (_, index) => checker(index)),
        second.commit({
          writes: [{ key: record, value: 'v2', expect: 'v1' }],
          log: { name: log, entries: ['change'], keep: 100 },
        }),
        ...Array.from({ length: CHECKERS - half }, (_, index) => checker(half + index)),
      ]);
      const change = results.splice(half, 1)[0]!;
      expect(change).toEqual({ ok: true });
      const entries = (await first.readLog(log, 100)).reverse(); // oldest first
      const changedAt = entries.indexOf('change');
      const stored = await second.getMany(writes);
      results.forEach((result, index) => {
        if (result.ok) {
          expect(stored.get(writes[index]!), `checker ${index} applied`).toBe('written');
          expect(
            entries.indexOf(`checker ${index}`),
            `checker ${index} logged before the change`,
          ).toBeGreaterThanOrEqual(0);
          expect(entries.indexOf(`checker ${index}`)).toBeLessThan(changedAt);
        } else {
          expect(currentOf(result), `checker ${index} refused after the change`).toEqual({ [record]: 'v2' });
          expect(stored.has(writes[index]!)).toBe(false);
          expect(entries).not.toContain(`checker ${index}`);
        }
      });
      await expect(first.get(record)).resolves.toBe('v2');
    });
  });
}
