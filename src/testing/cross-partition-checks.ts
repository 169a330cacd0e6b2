import { describe, expect } from 'vitest';
import { keyPartition } from '../storage/store-commit';
import { currentOf, hasCommit } from './committing-store';
import type { SuiteTools } from './suite-tools';

/**
 * The checks of `crossPartitionCommits` (0.3), declared inside the suite's `describe`: a store
 * that declares it commits keys, checks and logs of several partitions (scopes) in one atomic
 * step; the test skips itself for a store that does not (the settings layer then commits one
 * partition at a time).
 */
export function describeCrossPartitionChecks(tools: SuiteTools): void {
  const { key, name, open, test } = tools;

  describe('crossPartitionCommits', () => {
    test('crossPartitionCommits is a boolean when present, and true only with commit', async () => {
      const store = await open();
      const declared = store.crossPartitionCommits;
      if (declared === undefined) return;
      expect(typeof declared).toBe('boolean');
      if (declared) expect(hasCommit(store)).toBe(true);
    });

    test('a store that declares it commits across partitions in one atomic step', async ({ skip }) => {
      const store = await open();
      if (store.crossPartitionCommits !== true || !hasCommit(store)) {
        return skip('the store does not commit across partitions');
      }
      const [global, eu, us, asia] = [key('xp-global'), key('xp-a@eu'), key('xp-b@us/ny'), key('xp-c@asia')];
      const [euLog, usLog] = [name('xp-log@eu'), name('xp-log@us/ny')];
      expect(new Set([global, eu, us, asia].map(keyPartition)).size).toBe(4);
      await store.set(asia, 'checked');
      const commit = (expect: string) =>
        store.commit({
          writes: [
            { key: global, value: 'G' },
            { key: eu, value: 'E', expect: null },
            { key: us, value: 'U' },
          ],
          checks: [{ key: asia, expect }],
          log: { name: euLog, entries: ['eu entry'], keep: 5 },
          logs: [{ name: usLog, entries: ['us entry'], keep: 5 }],
        });
      expect(currentOf(await commit('other'))).toEqual({ [asia]: 'checked' });
      await expect(store.getMany([global, eu, us])).resolves.toEqual(new Map());
      await expect(store.readLog(euLog, 5)).resolves.toEqual([]);
      expect(await commit('checked')).toEqual({ ok: true });
      await expect(store.getMany([global, eu, us])).resolves.toEqual(
        new Map([
          [global, 'G'],
          [eu, 'E'],
          [us, 'U'],
        ]),
      );
      await expect(store.readLog(euLog, 5)).resolves.toEqual(['eu entry']);
      await expect(store.readLog(usLog, 5)).resolves.toEqual(['us entry']);
    });
  });
}
