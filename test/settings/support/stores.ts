import { MemoryOptionStore, type OptionStore } from 'commerce-plugin-framework';

/** One store call as a {@link RecordingStore} saw it. */
export interface StoreCall {
  operation: 'get' | 'getMany' | 'set' | 'delete';
  keys: readonly string[];
  value?: string;
}

/**
 * Hooks around the real calls of a {@link RecordingStore}: each receives `next` (the call to
 * the wrapped MemoryOptionStore) and decides when, or whether, to make it.
 */
export interface StoreInterceptors {
  getMany?(next: () => Promise<Map<string, string>>, keys: readonly string[]): Promise<Map<string, string>>;
  set?(next: () => Promise<void>, key: string, value: string, index: number): Promise<void>;
  delete?(next: () => Promise<boolean>, key: string): Promise<boolean>;
}

/**
 * A real store for tests: a thin wrapper around a {@link MemoryOptionStore} that records every
 * call, can delay or fail calls through interceptors, forwards `watch`, and lets a test raise
 * the `onResync` signal that a real change feed raises after a reconnect.
 */
export class RecordingStore implements OptionStore {
  readonly calls: StoreCall[] = [];
  readonly #resyncs = new Set<() => void>();
  #sets = 0;

  constructor(
    readonly inner: MemoryOptionStore = new MemoryOptionStore(),
    readonly interceptors: StoreInterceptors = {},
  ) {}

  /** How many calls of `operation` were made. */
  count(operation: StoreCall['operation']): number {
    return this.calls.filter((call) => call.operation === operation).length;
  }

  get(key: string): Promise<string | undefined> {
    this.calls.push({ operation: 'get', keys: [key] });
    return this.inner.get(key);
  }

  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    this.calls.push({ operation: 'getMany', keys: [...keys] });
    const next = () => this.inner.getMany(keys);
    return this.interceptors.getMany ? this.interceptors.getMany(next, keys) : next();
  }

  set(key: string, value: string): Promise<void> {
    this.calls.push({ operation: 'set', keys: [key], value });
    const next = () => this.inner.set(key, value);
    return this.interceptors.set ? this.interceptors.set(next, key, value, this.#sets++) : next();
  }

  delete(key: string): Promise<boolean> {
    this.calls.push({ operation: 'delete', keys: [key] });
    const next = () => this.inner.delete(key);
    return this.interceptors.delete ? this.interceptors.delete(next, key) : next();
  }

  watch(onChange: (key: string) => void, onResync?: () => void): () => void {
    const unwatch = this.inner.watch(onChange);
    const resync = () => onResync?.();
    this.#resyncs.add(resync);
    return () => {
      unwatch();
      this.#resyncs.delete(resync);
    };
  }

  /** Signals every subscriber that changes may have been missed. */
  resync(): void {
    for (const resync of this.#resyncs) resync();
  }
}

/** The same calls as {@link RecordingStore}, without `watch`: a store with no change feed. */
export class UnwatchedStore implements OptionStore {
  constructor(readonly inner: OptionStore = new MemoryOptionStore()) {}
  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    return this.inner.getMany(keys);
  }
  set(key: string, value: string): Promise<void> {
    return this.inner.set(key, value);
  }
  delete(key: string): Promise<boolean> {
    return this.inner.delete(key);
  }
}

/** The stored text of `keys` (absent keys absent), to compare a store before and after. */
export async function snapshot(store: OptionStore, keys: readonly string[]): Promise<Map<string, string>> {
  return new Map([...(await store.getMany(keys))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A promise and the function that resolves it: lets a test hold a store call until it says so. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Waits until every queued microtask and the timers due now have run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
