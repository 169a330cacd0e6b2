import { MemoryChangeLog } from './memory-change-log';
import { MemorySortedKeys } from './memory-sorted-keys';
import type { OptionStore } from './option-store';
import { assertValidCommit, commitLogs, type StoreCommit, type StoreCommitResult } from './store-commit';
import { checkLogPageQuery, type LogPage, type LogPageQuery } from './store-log';
import {
  checkScanQuery,
  checkSuffixScanQuery,
  type ScanPage,
  type ScanQuery,
  type SuffixScanPage,
  type SuffixScanQuery,
} from './store-scan';
import { compareCodeUnits, mergeSuffixRuns } from './suffix-runs';

/** The shared part of one or more {@link MemoryOptionStore} instances: the data, the change logs and the instances. */
interface MemoryData {
  readonly values: Map<string, string>;
  /** Change logs by name. */
  readonly logs: Map<string, MemoryChangeLog>;
  /** The keys in order, for `scan`. */
  readonly sortedKeys: MemorySortedKeys;
  /** The log names in order, for `scan` with `logs: true`. */
  readonly sortedLogs: MemorySortedKeys;
  readonly instances: Set<MemoryOptionStore>;
}

/** New shared data over `values`. */
function memoryData(values: Map<string, string>, instance: MemoryOptionStore): MemoryData {
  const logs = new Map<string, MemoryChangeLog>();
  return {
    values,
    logs,
    sortedKeys: new MemorySortedKeys(() => values.keys()),
    sortedLogs: new MemorySortedKeys(() => logs.keys()),
    instances: new Set([instance]),
  };
}

/**
 * An `OptionStore` in process memory: the default for tests, examples and single-process
 * apps that need no persistence.
 *
 * `share()` returns another instance over the same data; each instance's `watch` reports the
 * writes made through the others, just as two app instances on one database see each other's
 * changes. It has every optional capability: `commit` (atomic, conditional, with checks and
 * bounded, tagged change logs, across partitions), `readLog`, `readLogPage`, `listKeys`, `scan` and
 * `scanSuffixes`.
 *
 * @example
 * ```ts
 * const store = new MemoryOptionStore({ framework_acme_debug: 'yes' });
 * ```
 */
export class MemoryOptionStore implements OptionStore {
  /** One commit may span partitions: the data is one map. */
  readonly crossPartitionCommits = true;
  #data: MemoryData;
  readonly #watchers = new Set<(key: string) => void>();

  /** @param initial - entries to start with, as an object or as `[key, value]` pairs */
  constructor(initial?: Record<string, string> | Iterable<[string, string]>) {
    const values = new Map<string, string>();
    if (initial) {
      const entries = Symbol.iterator in initial ? initial : Object.entries(initial);
      for (const [key, value] of entries as Iterable<[string, string]>) values.set(key, String(value));
    }
    this.#data = memoryData(values, this);
  }

  /** Another store instance over the same data; writes through one are reported to the other's watchers. */
  share(): MemoryOptionStore {
    const sibling = new MemoryOptionStore();
    sibling.#data = this.#data;
    this.#data.instances.add(sibling);
    return sibling;
  }

  /** {@inheritDoc OptionStore.get} */
  async get(key: string): Promise<string | undefined> {
    return this.#data.values.get(key);
  }

  /** {@inheritDoc OptionStore.getMany} */
  async getMany(keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const { values } = this.#data;
    for (const key of keys) {
      const value = values.get(key);
      if (value !== undefined) found.set(key, value);
    }
    return found;
  }

  /** {@inheritDoc OptionStore.set} */
  async set(key: string, value: string): Promise<void> {
    this.#write(key, value);
    this.#notifyOthers([key]);
  }

  /** {@inheritDoc OptionStore.delete} */
  async delete(key: string): Promise<boolean> {
    const removed = this.#write(key, null);
    if (removed) this.#notifyOthers([key]);
    return removed;
  }

  /** {@inheritDoc OptionStore.commit} */
  async commit(commit: StoreCommit): Promise<StoreCommitResult> {
    assertValidCommit(commit);
    const { values, logs } = this.#data;
    const current = new Map<string, string | null>();
    for (const { key, expect } of [...commit.writes, ...(commit.checks ?? [])]) {
      if (expect === undefined) continue;
      const stored = values.get(key) ?? null;
      if (stored !== expect) current.set(key, stored);
    }
    if (current.size > 0) return { ok: false, current };
    for (const { key, value } of commit.writes) this.#write(key, value);
    for (const log of commitLogs(commit)) {
      if (log.entries.length === 0) continue;
      let changeLog = logs.get(log.name);
      if (changeLog === undefined) {
        changeLog = new MemoryChangeLog();
        logs.set(log.name, changeLog);
        this.#data.sortedLogs.invalidate();
      }
      changeLog.append(log);
    }
    if (commit.writes.length > 0) this.#notifyOthers(commit.writes.map((write) => write.key));
    return { ok: true };
  }

  /** {@inheritDoc OptionStore.readLog} */
  async readLog(log: string, limit: number): Promise<string[]> {
    return this.#data.logs.get(log)?.read(limit) ?? [];
  }

  /** {@inheritDoc OptionStore.readLogPage} */
  async readLogPage(log: string, query: LogPageQuery): Promise<LogPage> {
    const checked = checkLogPageQuery(query);
    return this.#data.logs.get(log)?.page(checked) ?? { entries: [], total: 0, trimmed: false };
  }

  /** {@inheritDoc OptionStore.scan} */
  async scan(query: ScanQuery): Promise<ScanPage> {
    const checked = checkScanQuery(query);
    const page = (checked.logs ? this.#data.sortedLogs : this.#data.sortedKeys).page(checked);
    if (!checked.values) return page;
    const items: string[] = [];
    const values: string[] = [];
    for (const key of page.items) {
      const value = this.#data.values.get(key);
      if (value === undefined) continue;
      items.push(key);
      values.push(value);
    }
    return { ...page, items, values };
  }

  /** {@inheritDoc OptionStore.scanSuffixes} */
  async scanSuffixes(query: SuffixScanQuery): Promise<SuffixScanPage> {
    const checked = checkSuffixScanQuery(query);
    const { values, cursor, count } = checked;
    const stored = this.#data.values;
    const runs = [...checked.prefixes, ...checked.joined].map((prefix, index) => {
      const page = this.#data.sortedKeys.page({
        prefix,
        cursor: cursor === null ? null : prefix + cursor,
        count,
        logs: false,
        values: false,
      });
      const wanted = index >= values.length || values[index] === true;
      return {
        suffixes: page.items.map((key) => key.slice(prefix.length)),
        texts: wanted ? page.items.map((key) => stored.get(key)!) : null,
        full: page.items.length === count,
      };
    });
    return mergeSuffixRuns(checked, runs, compareCodeUnits);
  }

  /** {@inheritDoc OptionStore.listKeys} */
  async listKeys(prefix: string): Promise<string[]> {
    return [...this.#data.values.keys()].filter((key) => key.startsWith(prefix));
  }

  /** {@inheritDoc OptionStore.watch} */
  watch(onChange: (key: string) => void): () => void {
    // One entry per subscription, so that the same callback subscribed twice is two subscriptions.
    const subscription = (key: string) => onChange(key);
    this.#watchers.add(subscription);
    return () => {
      this.#watchers.delete(subscription);
    };
  }

  /** Detaches this instance from the shared data's watchers. */
  async close(): Promise<void> {
    this.#watchers.clear();
    this.#data.instances.delete(this);
  }

  /** Sets (`value` a string) or deletes (`null`) one key; answers whether the key was there before. */
  #write(key: string, value: string | null): boolean {
    const { values, sortedKeys } = this.#data;
    const existed = values.has(key);
    if (value === null) values.delete(key);
    else values.set(key, value);
    if (existed !== (value !== null)) sortedKeys.invalidate();
    return existed;
  }

  /** Reports `keys` to the other instances' watchers: all keys of one write in one delivery. */
  #notifyOthers(keys: readonly string[]): void {
    for (const instance of this.#data.instances) {
      if (instance === this) continue;
      const watchers = instance.#watchers;
      // Delivered asynchronously, like a real change feed; a watcher that unsubscribed in
      // the meantime is not called any more.
      for (const watcher of watchers) {
        queueMicrotask(() => {
          for (const key of keys) if (watchers.has(watcher)) watcher(key);
        });
      }
    }
  }
}
