import { afterEach, describe, expect, it } from 'vitest';
import type { OptionStore } from '../storage/option-store';
import { AWKWARD_KEY_SUFFIXES, AWKWARD_VALUES } from './awkward-text';
import { describeCommitChecks } from './commit-checks';
import { describeCommitKeyChecks } from './commit-key-checks';
import { describeCrossPartitionChecks } from './cross-partition-checks';
import { describeListKeysChecks } from './list-keys-checks';
import { describeLogBoundChecks } from './log-bound-checks';
import { describeLogPageChecks } from './log-page-checks';
import { describeMultiLogChecks } from './multi-log-checks';
import { describeScanChecks } from './scan-checks';
import { describeSuffixScanChecks } from './suffix-scan-checks';
import { hasWatch, type Skip, type SuiteTools, type WatchableStore } from './suite-tools';
import { waitUntil } from './wait-until';

/** Options of {@link testOptionStore}. */
export interface OptionStoreSuiteOptions {
  /**
   * Another store instance over the same data as `store`, as a second app instance would
   * open it (same table, same key prefix…). When given, the suite also checks reads across
   * instances and, when the store has `watch`, the watch semantics.
   */
  makeSibling?: (store: OptionStore) => OptionStore | Promise<OptionStore>;
  /** The size of the large-value test, in UTF-8 bytes. Default 1 MiB; 0 skips it (for stores with a smaller value limit). */
  maxValueBytes?: number;
  /** How long to wait for a change report from `watch`, in ms. Default 5000. */
  watchTimeoutMs?: number;
  /** The vitest timeout of each test, in ms. Default 30 000. */
  testTimeoutMs?: number;
}

const MIB = 1024 * 1024;

/** Text of exactly `bytes` UTF-8 bytes, mixing 1-, 2-, 3- and 4-byte characters. */
function textOfBytes(bytes: number): string {
  const unit = 'a\u00e9\u20ac\u{1d306}'; // 1 + 2 + 3 + 4 = 10 bytes
  const whole = Math.floor(bytes / 10);
  return unit.repeat(whole) + 'z'.repeat(bytes - whole * 10);
}

/**
 * The `OptionStore` conformance suite: the checks the package's own stores pass, for authors
 * of their own adapters (MySQL, DynamoDB, a platform's option table…). Call it at the top
 * level of a vitest test file; it declares one `describe` block.
 *
 * `makeStore` is called for every test (sometimes twice); each store it returns is closed
 * after the test. The suite writes only keys under a random prefix of its own and deletes them
 * afterwards, so it can run against shared, non-empty data.
 *
 * Checked: get and getMany (absent keys, duplicates, 500 keys, one map), set and overwrite,
 * delete (true/false), the empty string versus absent, unicode (astral characters, combining
 * marks, no normalisation), 1 MiB values, keys with quotes, backslashes, `%`, `_`, `*`, `?`,
 * `[`, spaces (no LIKE or glob matching), independence of instances; with `makeSibling`,
 * reads across instances and the watch contract (another instance's set and delete are
 * reported, the instance's own writes are not, unsubscribing stops reports).
 *
 * For a store with the optional `commit` capability (it must then have `readLog` too): the
 * conditions (absent, equal text, mismatching text, none, the empty string), all-or-nothing
 * (a failing condition writes nothing, logs nothing and reports the failing keys with their
 * current texts), deletes in a commit, the change log (order, `keep`, newest first, separate
 * logs), awkward keys, malformed commits, races through two instances (of concurrent commits
 * expecting the same text, or creating the same key, exactly one succeeds) and, with
 * `makeSibling` and `watch`, one change report per commit with all its keys. From 0.3, for every
 * store with `commit`: checks on keys not written (held, failing, absent, the empty string, all
 * or nothing, a race with a commit changing the checked key), several logs in one commit, the
 * byte bound `maxBytes` with `keep` (the newest entry always stays, UTF-8 bytes of multi-byte
 * characters); for a store with `readLogPage`: pages, offsets, totals, tags and the trimmed
 * flag; for a store declaring `crossPartitionCommits`: one commit across partitions. For a store
 * with `listKeys` or `scan`: prefixes compared as text, never as LIKE or glob patterns; `scan`
 * pages, cursors, completeness while keys change, and log names.
 *
 * @param name - the store's name, shown in the test report
 * @param makeStore - opens a store instance
 * @param options - a sibling factory for the cross-instance and watch checks, size and time limits
 *
 * @example
 * ```ts
 * // test/my-store.test.ts
 * import { testOptionStore } from 'commerce-plugin-framework/testing';
 * import { MySqlOptionStore } from '../src/mysql-option-store';
 *
 * testOptionStore('MySqlOptionStore', () => new MySqlOptionStore({ pool }), {
 *   // a second app instance on the same table, for the watch checks
 *   makeSibling: () => new MySqlOptionStore({ pool }),
 * });
 * ```
 */
export function testOptionStore(
  name: string,
  makeStore: () => OptionStore | Promise<OptionStore>,
  options: OptionStoreSuiteOptions = {},
): void {
  const maxValueBytes = options.maxValueBytes ?? MIB;
  const watchTimeoutMs = options.watchTimeoutMs ?? 5_000;
  const timeout = options.testTimeoutMs ?? 30_000;
  const runPrefix = `cts-${Math.random().toString(36).slice(2, 10)}-`;
  let testNumber = 0;
  let opened: OptionStore[] = [];
  let written = new Set<string>();

  /** A key unique to this run and test, remembered for cleanup. */
  const key = (suffix: string): string => {
    const full = `${runPrefix}${testNumber}-${suffix}`;
    written.add(full);
    return full;
  };
  const open = async (): Promise<OptionStore> => {
    const store = await makeStore();
    opened.push(store);
    return store;
  };
  const openSibling = async (of: OptionStore): Promise<OptionStore> => {
    if (!options.makeSibling) throw new Error('testOptionStore: no makeSibling option');
    const store = await options.makeSibling(of);
    opened.push(store);
    return store;
  };
  const test = (title: string, body: (context: { skip: Skip }) => Promise<void>) =>
    it(
      title,
      async (context) => {
        testNumber++;
        await body({ skip: (note) => context.skip(note) });
      },
      timeout,
    );

  /** Writes probe keys through `writer` until `seen` shows one: the subscription is then live. */
  const primeWatch = async (writer: OptionStore, seen: readonly string[]): Promise<void> => {
    const deadline = Date.now() + watchTimeoutMs;
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      const probe = key(`probe-${attempt}`);
      await writer.set(probe, 'probe');
      if (await waitUntil(() => seen.includes(probe), Math.min(250, watchTimeoutMs))) return;
    }
    throw new Error(`watch reported no write of the other instance within ${watchTimeoutMs} ms`);
  };

  /** A store with `watch` and a sibling to write through; `undefined` (the test skipped) for a store without `watch`. */
  const openWatchedPair = async (
    skip: Skip,
  ): Promise<{ watcher: WatchableStore; writer: OptionStore } | undefined> => {
    const watcher = await open();
    if (!hasWatch(watcher)) {
      skip('the store has no watch');
      return undefined;
    }
    return { watcher, writer: await openSibling(watcher) };
  };

  /**
   * Runs `check` with a store whose watch reports into `seen`, live by then, and a sibling to
   * write through; unsubscribes afterwards. Skips the test for a store without `watch`.
   */
  const checkWatch = async (
    skip: Skip,
    check: (pair: { watcher: WatchableStore; writer: OptionStore; seen: readonly string[] }) => Promise<void>,
  ): Promise<void> => {
    const pair = await openWatchedPair(skip);
    if (!pair) return;
    const seen: string[] = [];
    const unsubscribe = pair.watcher.watch((changed) => seen.push(changed));
    try {
      await primeWatch(pair.writer, seen);
      await check({ ...pair, seen });
    } finally {
      unsubscribe();
    }
  };

  describe(`OptionStore conformance: ${name}`, () => {
    afterEach(async () => {
      const stores = opened;
      const keys = [...written];
      opened = [];
      written = new Set();
      const cleaner = stores[0];
      if (cleaner) {
        for (const stale of keys) await cleaner.delete(stale).catch(() => undefined);
      }
      for (const store of stores.reverse()) await store.close?.().catch(() => undefined);
    });

    test('get answers undefined for a key that was never set', async () => {
      const store = await open();
      await expect(store.get(key('absent'))).resolves.toBeUndefined();
    });

    test('set stores a value that get returns', async () => {
      const store = await open();
      const k = key('value');
      await expect(store.set(k, 'hello')).resolves.toBeUndefined();
      await expect(store.get(k)).resolves.toBe('hello');
    });

    test('set overwrites the previous value', async () => {
      const store = await open();
      const k = key('overwrite');
      await store.set(k, 'first');
      await store.set(k, 'second');
      await expect(store.get(k)).resolves.toBe('second');
      await expect(store.getMany([k])).resolves.toEqual(new Map([[k, 'second']]));
    });

    test('delete answers true when it removed a value, false when there was none', async () => {
      const store = await open();
      const k = key('delete');
      await expect(store.delete(k)).resolves.toBe(false);
      await store.set(k, 'x');
      await expect(store.delete(k)).resolves.toBe(true);
      await expect(store.get(k)).resolves.toBeUndefined();
      await expect(store.getMany([k])).resolves.toEqual(new Map());
      await expect(store.delete(k)).resolves.toBe(false);
      await store.set(k, 'again');
      await expect(store.get(k)).resolves.toBe('again');
    });

    test('the empty string is a stored value, distinct from absent', async () => {
      const store = await open();
      const empty = key('empty');
      const absent = key('absent');
      await store.set(empty, '');
      await expect(store.get(empty)).resolves.toBe('');
      const found = await store.getMany([empty, absent]);
      expect(found.has(empty)).toBe(true);
      expect(found.get(empty)).toBe('');
      expect(found.has(absent)).toBe(false);
      await expect(store.delete(empty)).resolves.toBe(true);
      await expect(store.get(empty)).resolves.toBeUndefined();
    });

    test('getMany answers a Map of the present keys only, and an empty Map for no keys', async () => {
      const store = await open();
      const [a, b, c] = [key('many-a'), key('many-b'), key('many-c')];
      await store.set(a, 'A');
      await store.set(c, 'C');
      const found = await store.getMany([a, b, c, a]);
      expect(found).toBeInstanceOf(Map);
      expect(found).toEqual(
        new Map([
          [a, 'A'],
          [c, 'C'],
        ]),
      );
      expect(found.has(b)).toBe(false);
      const none = await store.getMany([]);
      expect(none).toBeInstanceOf(Map);
      expect(none.size).toBe(0);
    });

    test('getMany reads 500 keys at once', async () => {
      const store = await open();
      const present = Array.from({ length: 500 }, (_, index) => key(`bulk-${index}`));
      const absent = Array.from({ length: 100 }, (_, index) => key(`bulk-absent-${index}`));
      for (let start = 0; start < present.length; start += 50) {
        await Promise.all(
          present.slice(start, start + 50).map((k, index) => store.set(k, `v${start + index}`)),
        );
      }
      const found = await store.getMany([...absent.slice(0, 50), ...present, ...absent.slice(50)]);
      expect(found.size).toBe(500);
      for (const [index, k] of present.entries()) expect(found.get(k)).toBe(`v${index}`);
      for (const k of absent) expect(found.has(k)).toBe(false);
    });

    test('keys are opaque text: quotes, backslashes, wildcards, white space and unicode', async () => {
      const store = await open();
      const keys = AWKWARD_KEY_SUFFIXES.map((suffix) => key(suffix));
      for (const [index, k] of keys.entries()) await store.set(k, `value ${index}`);
      for (const [index, k] of keys.entries()) await expect(store.get(k)).resolves.toBe(`value ${index}`);
      const found = await store.getMany(keys);
      expect(found.size).toBe(keys.length);
      for (const [index, k] of keys.entries()) expect(found.get(k)).toBe(`value ${index}`);
      for (const k of keys) await expect(store.delete(k)).resolves.toBe(true);
      await expect(store.getMany(keys)).resolves.toEqual(new Map());
    });

    test('no LIKE or glob matching: wildcards in a key match only themselves', async () => {
      const store = await open();
      const underscore = key('a_c');
      const plain = key('abc');
      await store.set(underscore, 'underscore');
      await store.set(plain, 'plain');
      for (const pattern of ['a%', 'a_c%', 'a*', 'a?c', 'a[b_]c', 'a.c', '%', '*']) {
        await expect(store.get(key(pattern))).resolves.toBeUndefined();
        await expect(store.delete(key(pattern))).resolves.toBe(false);
      }
      const found = await store.getMany([key('a%'), key('a*'), key('a?c'), key('a[b]c'), underscore]);
      expect(found).toEqual(new Map([[underscore, 'underscore']]));
      await expect(store.get(underscore)).resolves.toBe('underscore');
      await expect(store.get(plain)).resolves.toBe('plain');
      const star = key('a*');
      await store.set(star, 'star');
      await expect(store.delete(star)).resolves.toBe(true);
      await expect(store.getMany([underscore, plain])).resolves.toEqual(
        new Map([
          [underscore, 'underscore'],
          [plain, 'plain'],
        ]),
      );
    });

    test('unicode is kept exactly: astral characters, combining marks, no normalisation', async () => {
      const store = await open();
      const composed = key('caf\u00e9');
      const decomposed = key('cafe\u0301');
      await store.set(composed, 'composed \u00e9');
      await store.set(decomposed, 'decomposed e\u0301');
      await expect(store.get(composed)).resolves.toBe('composed \u00e9');
      await expect(store.get(decomposed)).resolves.toBe('decomposed e\u0301');
      const astral = key('astral');
      const value = '𝌆 😀 👩‍👩‍👧 \u{10ffff} e\u0301\u0302 \u00e9';
      await store.set(astral, value);
      await expect(store.get(astral)).resolves.toBe(value);
      await expect(store.getMany([astral])).resolves.toEqual(new Map([[astral, value]]));
    });

    test('values come back byte for byte', async () => {
      const store = await open();
      const keys = AWKWARD_VALUES.map((_, index) => key(`text-${index}`));
      for (const [index, k] of keys.entries()) await store.set(k, AWKWARD_VALUES[index]!);
      for (const [index, k] of keys.entries())
        await expect(store.get(k)).resolves.toBe(AWKWARD_VALUES[index]);
      const found = await store.getMany(keys);
      for (const [index, k] of keys.entries()) expect(found.get(k)).toBe(AWKWARD_VALUES[index]);
    });

    test(`large values (${maxValueBytes} bytes) round-trip`, async ({ skip }) => {
      if (maxValueBytes <= 0) return skip('maxValueBytes is 0');
      const store = await open();
      const ascii = 'x'.repeat(maxValueBytes);
      const mixed = textOfBytes(maxValueBytes);
      const [a, m] = [key('large-ascii'), key('large-mixed')];
      await store.set(a, ascii);
      await store.set(m, mixed);
      expect(await store.get(a)).toBe(ascii);
      const found = await store.getMany([a, m]);
      expect(found.get(a) === ascii).toBe(true);
      expect(found.get(m) === mixed).toBe(true);
    });

    test('parallel writes to different keys all land', async () => {
      const store = await open();
      const keys = Array.from({ length: 50 }, (_, index) => key(`parallel-${index}`));
      await Promise.all(keys.map((k, index) => store.set(k, String(index))));
      const found = await store.getMany(keys);
      for (const [index, k] of keys.entries()) expect(found.get(k)).toBe(String(index));
    });

    test('instances are independent: closing one leaves another working', async () => {
      const first = await open();
      const second = await open();
      const [a, b] = [key('independent-a'), key('independent-b')];
      await first.set(a, 'first');
      await second.set(b, 'second');
      await expect(first.get(a)).resolves.toBe('first');
      await expect(second.get(b)).resolves.toBe('second');
      await first.close?.();
      opened = opened.filter((store) => store !== first);
      await second.set(b, 'still working');
      await expect(second.get(b)).resolves.toBe('still working');
      await expect(second.getMany([b])).resolves.toEqual(new Map([[b, 'still working']]));
    });

    const tools: SuiteTools = {
      key,
      name: (suffix) => `${runPrefix}${testNumber}-${suffix}`,
      open,
      hasSibling: options.makeSibling !== undefined,
      openSibling,
      test,
      checkWatch,
      watchTimeoutMs,
    };
    describeCommitChecks(tools);
    describeCommitKeyChecks(tools);
    describeMultiLogChecks(tools);
    describeLogBoundChecks(tools);
    describeLogPageChecks(tools);
    describeCrossPartitionChecks(tools);
    describeListKeysChecks(tools);
    describeScanChecks(tools);
    describeSuffixScanChecks(tools);

    if (!options.makeSibling) return;

    test('a write is readable through another instance as soon as it resolves', async () => {
      const first = await open();
      const second = await openSibling(first);
      const k = key('shared');
      await first.set(k, 'one');
      await expect(second.get(k)).resolves.toBe('one');
      await second.set(k, 'two');
      await expect(first.getMany([k])).resolves.toEqual(new Map([[k, 'two']]));
      await expect(second.delete(k)).resolves.toBe(true);
      await expect(first.get(k)).resolves.toBeUndefined();
    });

    test("watch reports another instance's sets and deletes", ({ skip }) =>
      checkWatch(skip, async ({ writer, seen }) => {
        const k = key('watched');
        await writer.set(k, 'set');
        expect(await waitUntil(() => seen.includes(k), watchTimeoutMs)).toBe(true);
        const count = () => seen.filter((changed) => changed === k).length;
        await writer.delete(k);
        expect(await waitUntil(() => count() >= 2, watchTimeoutMs)).toBe(true);
        const odd = key("watched 'odd' %_*?[ key 😀");
        await writer.set(odd, 'odd');
        expect(await waitUntil(() => seen.includes(odd), watchTimeoutMs)).toBe(true);
      }));

    test("watch does not report the instance's own writes", ({ skip }) =>
      checkWatch(skip, async ({ watcher, writer, seen }) => {
        const own = key('own');
        await watcher.set(own, 'mine');
        await watcher.set(own, 'mine again');
        await watcher.delete(own);
        // The other instance's later write is reported; the own writes before it would have been too.
        const marker = key('marker');
        await writer.set(marker, 'theirs');
        expect(await waitUntil(() => seen.includes(marker), watchTimeoutMs)).toBe(true);
        expect(seen).not.toContain(own);
      }));

    test('unsubscribing stops the reports to that subscriber only', async ({ skip }) => {
      const pair = await openWatchedPair(skip);
      if (!pair) return;
      const { watcher, writer } = pair;
      const stopped: string[] = [];
      const kept: string[] = [];
      const unsubscribe = watcher.watch((changed) => stopped.push(changed));
      const unsubscribeKept = watcher.watch((changed) => kept.push(changed));
      try {
        await primeWatch(writer, kept);
        await primeWatch(writer, stopped);
        unsubscribe();
        unsubscribe(); // a second call is harmless
        const k = key('after-unsubscribe');
        await writer.set(k, 'x');
        expect(await waitUntil(() => kept.includes(k), watchTimeoutMs)).toBe(true);
        expect(stopped).not.toContain(k);
      } finally {
        unsubscribeKept();
      }
    });
  });
}
