import type { OptionStore } from './option-store';

/** The shared part of one or more {@link MemoryOptionStore} instances: the data and its watchers. */
interface MemoryData {
  readonly values: Map<string, string>;
  readonly instances: Set<MemoryOptionStore>;
}

/**
 * An `OptionStore` in process memory: the default for tests, examples and single-process
 * apps that need no persistence.
 *
 * `share()` returns another instance over the same data; each instance's `watch` reports the
 * writes made through the others, just as two app instances on one database see each other's
 * changes.
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
    this.#data = { values, instances: new Set([this]) };
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
    this.#notifyOthers(key);
  }

  /** {@inheritDoc OptionStore.delete} */
  async delete(key: string): Promise<boolean> {
    const removed = this.#data.values.delete(key);
    if (removed) this.#notifyOthers(key);
    return removed;
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

  #notifyOthers(key: string): void {
    for (const instance of this.#data.instances) {
      if (instance === this) continue;
      const watchers = instance.#watchers;
      // Delivered asynchronously, like a real change feed; a watcher that unsubscribed in
      // the meantime is not called any more.
      for (const watcher of watchers) {
        queueMicrotask(() => {
          if (watchers.has(watcher)) watcher(key);
        });
      }
    }
  }
}
