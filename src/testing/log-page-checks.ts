import { describe, expect } from 'vitest';
import type { OptionStore } from '../storage/option-store';
import type { StoreLogAppend } from '../storage/store-commit';
import type { LogPage } from '../storage/store-log';
import { type CommittingStore, hasCommit } from './committing-store';
import type { Skip, SuiteTools } from './suite-tools';

/** A store with `commit`, `readLog` and `readLogPage`. */
type PagingStore = CommittingStore & Required<Pick<OptionStore, 'readLogPage'>>;

/**
 * The checks of `readLogPage` and `StoreLogAppend.tags` (0.3: a page of history, of one
 * setting's entries, without reading the whole log), declared inside the suite's `describe`;
 * each skips itself for a store without `readLogPage`.
 */
export function describeLogPageChecks(tools: SuiteTools): void {
  const { key, name, open, test } = tools;

  const openPaging = async (skip: Skip): Promise<PagingStore | undefined> => {
    const store = await open();
    if (hasCommit(store) && typeof store.readLogPage === 'function') return store as PagingStore;
    skip('the store has no readLogPage');
    return undefined;
  };

  /** Appends in one commit; fails the test when the commit is refused. */
  const append = async (store: PagingStore, log: StoreLogAppend): Promise<void> => {
    const result = await store.commit({ writes: [{ key: key('lp-carrier'), value: log.name }], log });
    expect(result).toEqual({ ok: true });
  };

  describe('readLogPage capability (pages and tags)', () => {
    test('a page is newest first; offset and limit move through the log; total counts every entry', async ({
      skip,
    }) => {
      const store = await openPaging(skip);
      if (!store) return;
      const log = name('lp-pages');
      const none: LogPage = { entries: [], total: 0, trimmed: false };
      await expect(store.readLogPage(log, { limit: 5 }), 'a log never written').resolves.toEqual(none);
      await append(store, { name: log, entries: ['e1', 'e2', 'e3'], keep: 100 });
      await append(store, { name: log, entries: ['e4'], keep: 100 });
      await append(store, { name: log, entries: ['e5', 'e6', 'e7'], keep: 100 });
      const page = (offset: number, limit: number) => store.readLogPage(log, { limit, offset });
      await expect(page(0, 3)).resolves.toEqual({ entries: ['e7', 'e6', 'e5'], total: 7, trimmed: false });
      await expect(page(3, 3)).resolves.toEqual({ entries: ['e4', 'e3', 'e2'], total: 7, trimmed: false });
      await expect(page(6, 3)).resolves.toEqual({ entries: ['e1'], total: 7, trimmed: false });
      await expect(page(7, 3)).resolves.toEqual({ entries: [], total: 7, trimmed: false });
      await expect(store.readLogPage(log, { limit: 100 })).resolves.toEqual({
        entries: ['e7', 'e6', 'e5', 'e4', 'e3', 'e2', 'e1'],
        total: 7,
        trimmed: false,
      });
      await expect(store.readLogPage(log, { limit: 0 }), 'limit below 1').rejects.toThrow();
      await expect(store.readLogPage(log, { limit: 2, offset: -1 }), 'a negative offset').rejects.toThrow();
    });

    test('a tag filters the page and the total; readLog still answers exactly the entry texts', async ({
      skip,
    }) => {
      const store = await openPaging(skip);
      if (!store) return;
      const log = name('lp-tags');
      // Entries that look like a store's own tag encoding must come back as written.
      const tricky = ['"a"\nlooks tagged', '\nleading line feed', '{"json":true}', '', 'plain', '"quoted"'];
      await append(store, { name: log, entries: ['a1', 'b1', 'a2'], keep: 100, tags: ['a', 'b', 'a'] });
      await append(store, { name: log, entries: tricky, keep: 100 });
      await append(store, {
        name: log,
        entries: ['{"id":"a3"}', 'odd'],
        keep: 100,
        tags: ['a', 'a%_*?[\\"\n😀'],
      });
      await append(store, { name: log, entries: ['b2', 'a4'], keep: 100, tags: ['b', 'a'] });
      await expect(store.readLogPage(log, { limit: 10, tag: 'a' })).resolves.toEqual({
        entries: ['a4', '{"id":"a3"}', 'a2', 'a1'],
        total: 4,
        trimmed: false,
      });
      await expect(store.readLogPage(log, { limit: 2, offset: 1, tag: 'a' })).resolves.toEqual({
        entries: ['{"id":"a3"}', 'a2'],
        total: 4,
        trimmed: false,
      });
      await expect(store.readLogPage(log, { limit: 10, tag: 'b' })).resolves.toMatchObject({
        entries: ['b2', 'b1'],
        total: 2,
      });
      await expect(store.readLogPage(log, { limit: 10, tag: 'a%_*?[\\"\n😀' })).resolves.toMatchObject({
        entries: ['odd'],
        total: 1,
      });
      for (const tag of ['c', 'a%', '', 'A']) {
        await expect(store.readLogPage(log, { limit: 10, tag }), JSON.stringify(tag)).resolves.toMatchObject({
          entries: [],
          total: 0,
        });
      }
      const everything = ['a4', 'b2', 'odd', '{"id":"a3"}', ...[...tricky].reverse(), 'a2', 'b1', 'a1'];
      await expect(store.readLog(log, 100), 'readLog: the entry texts, tags left out').resolves.toEqual(
        everything,
      );
      await expect(store.readLogPage(log, { limit: 100 })).resolves.toEqual({
        entries: everything,
        total: everything.length,
        trimmed: false,
      });
    });

    test('trimmed: false until the log loses an entry to keep, to maxBytes or to a commit beyond its bounds', async ({
      skip,
    }) => {
      const store = await openPaging(skip);
      if (!store) return;
      const [byKeep, byBytes, inCommit] = [name('lp-keep'), name('lp-bytes'), name('lp-commit')];
      const trimmed = async (log: string) => (await store.readLogPage(log, { limit: 1 })).trimmed;
      await append(store, { name: byKeep, entries: ['1', '2'], keep: 2, tags: ['t', 't'] });
      expect(await trimmed(byKeep), 'full, nothing lost').toBe(false);
      await append(store, { name: byKeep, entries: ['3'], keep: 2, tags: ['t'] });
      expect(await trimmed(byKeep)).toBe(true);
      await expect(store.readLogPage(byKeep, { limit: 5, tag: 't' })).resolves.toEqual({
        entries: ['3', '2'],
        total: 2,
        trimmed: true,
      });
      await append(store, { name: byBytes, entries: ['12345'], keep: 10, maxBytes: 8 });
      await append(store, { name: byBytes, entries: ['678'], keep: 10, maxBytes: 8 });
      expect(await trimmed(byBytes), 'exactly maxBytes, nothing lost').toBe(false);
      await append(store, { name: byBytes, entries: ['9'], keep: 10, maxBytes: 8 });
      expect(await trimmed(byBytes)).toBe(true);
      await expect(store.readLogPage(byBytes, { limit: 5 })).resolves.toEqual({
        entries: ['9', '678'],
        total: 2,
        trimmed: true,
      });
      await append(store, { name: inCommit, entries: ['x', 'y', 'z'], keep: 2 });
      await expect(
        store.readLogPage(inCommit, { limit: 5 }),
        'dropped before it was ever stored',
      ).resolves.toEqual({
        entries: ['z', 'y'],
        total: 2,
        trimmed: true,
      });
    });
  });
}
