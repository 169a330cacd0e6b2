import type { KeyChange } from '../versioned-reads';

/** What a subscriber of a store's `watch` is called with: the key, and its change when a versioned message named it. */
export type ChangeListener = (key: string, change?: KeyChange) => void;

/** One subscriber of a store's `watch`. */
interface Watcher {
  readonly onChange: ChangeListener;
  readonly onResync: (() => void) | undefined;
}

/**
 * The subscribers of a store's `watch`, with the calls that fan a change or a resync out to
 * them. A subscriber that throws does not stop the others; its error goes to `onError`.
 */
export class ChangeWatchers {
  readonly #watchers = new Set<Watcher>();
  /**
   * The subscribers as a list, made again at each change of the set: a report walks the list as
   * it was when the report began (a subscriber added or removed meanwhile does not change it),
   * without copying the set per message.
   */
  #list: readonly Watcher[] = [];
  readonly #onError: (error: unknown) => void;

  /** @param onError - receives what a subscriber threw */
  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** How many subscribers there are. */
  get size(): number {
    return this.#watchers.size;
  }

  /**
   * Adds a subscriber; returns the function that removes it, which answers true when that
   * removal left no subscriber (so the store can end its change feed).
   */
  add(onChange: ChangeListener, onResync?: () => void): () => boolean {
    const watcher: Watcher = { onChange, onResync };
    this.#watchers.add(watcher);
    this.#list = [...this.#watchers];
    return () => {
      const removed = this.#watchers.delete(watcher);
      if (removed) this.#list = [...this.#watchers];
      return removed && this.#watchers.size === 0;
    };
  }

  /** Removes every subscriber. */
  clear(): void {
    this.#watchers.clear();
    this.#list = [];
  }

  /**
   * Tells every subscriber that `keys` changed, all of them synchronously in one go (the keys
   * of one commit), so that a subscriber marks them all stale before it re-reads any; with
   * `changes` (parallel to `keys`, from a versioned message), each key's change too.
   */
  reportChanges(keys: readonly string[], changes?: readonly (KeyChange | undefined)[]): void {
    for (const watcher of this.#list) {
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!;
        try {
          watcher.onChange(key, changes?.[index]);
        } catch (error) {
          this.#onError(error);
        }
      }
    }
  }

  /**
   * Tells every subscriber that changes may have been missed. A subscriber without an
   * `onResync` callback cannot re-read everything, and is told nothing.
   */
  reportResync(): void {
    for (const { onResync } of this.#list) {
      if (onResync === undefined) continue;
      try {
        onResync();
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
