import type { OptionStore } from './option-store';
import { assertValidCommit, type StoreCommit, type StoreCommitResult } from './store-commit';

/** The shared part of one or more {@link MemoryOptionStore} instances: the data, the change logs and the instances. */
interface MemoryData {
  readonly values: Map<string, string>;
  /** Change logs by name, oldest entry first. */
  readonly logs: Map<string, string[]>;
  readonly instances: Set<MemoryOptionStore>;
}

/**
 * An `OptionStore` in process memory: the default for tests, examples and single-process
 * apps that need no persistence.
 *
 * `share()` returns another instance over the same data; each instance's `watch` reports the
 * writes made through the others, just as two app instances on one database see each other's
 * changes. It has every optional capability: `commit` (atomic, conditional, with change logs),
 * `readLog` and `listKeys`.
 *
 * @example
 * ```ts
 * const store = new MemoryOptionStore({ framework_acme_debug: 'yes' });
 * ```
 */
export class MemoryOptionStore implements OptionStore {
  #data: MemoryData;
  readonly #watchers = new Set<(key: string) => void>();

  /** @param initial - entries to start with, as an object or as `[key, value]` pairs */
  constructor(initial?: Record<string, string> | Iterable<[string, string]>) {
    const values = new Map<string, string>();
    if (initial) {
      const entries = Symbol.iterator in initial ? initial : Object.entries(initial);
      for (const [key, value] of entries as Iterable<[string, string]>) values.set(key, String(value));
    }
    this.#data = { values, logs: new Map(), instances: new Set([this]) };
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
    this.#data.values.set(key, value);
    this.#notifyOthers([key]);
  }

  /** {@inheritDoc OptionStore.delete} */
  async delete(key: string): Promise<boolean> {
    const removed = this.#data.values.delete(key);
    if (removed) this.#notifyOthers([key]);
    return removed;
  }

  /** {@inheritDoc OptionStore.commit} */
  async commit(commit: StoreCommit): Promise<StoreCommitResult> {
    assertValidCommit(commit);
    const { values, logs } = this.#data;
    const current = new Map<string, string | null>();
    for (const { key, expect } of commit.writes) {
      if (expect === undefined) continue;
      const stored = values.get(key) ?? null;
      if (stored !== expect) current.set(key, stored);
    }
    if (current.size > 0) return { ok: false, current };
    for (const { key, value } of commit.writes) {
      if (value === null) values.delete(key);
      else values.set(key, value);
    }
    const log = commit.log;
    if (log !== undefined && log.entries.length > 0) {
      const entries = logs.get(log.name) ?? [];
      entries.push(...log.entries);
      if (entries.length > log.keep) entries.splice(0, entries.length - log.keep);
      logs.set(log.name, entries);
    }
    this.#notifyOthers(commit.writes.map((write) => write.key));
    return { ok: true };
  }

  /** {@inheritDoc OptionStore.readLog} */
  async readLog(log: string, limit: number): Promise<string[]> {
    const entries = this.#data.logs.get(log) ?? [];
    return entries.slice(Math.max(0, entries.length - limit)).reverse();
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
