import type { OptionStore } from '../storage/option-store';

/** A store that has the optional `watch`. */
export type WatchableStore = OptionStore & Required<Pick<OptionStore, 'watch'>>;

/** Skips the running test with a note (vitest's `context.skip`). */
export type Skip = (note?: string) => void;

/**
 * What the parts of the conformance suite share: unique keys, opening stores (closed and
 * cleaned up after each test), declaring a test, and watching a store for another instance's
 * changes.
 */
export interface SuiteTools {
  /** A key unique to this run and test, deleted after the test. */
  key(suffix: string): string;
  /** A name unique to this run and test, for things that are not deleted afterwards (change logs). */
  name(suffix: string): string;
  /** Opens a store (closed after the test). */
  open(): Promise<OptionStore>;
  /** Whether a sibling factory was given: another instance on the same data. */
  readonly hasSibling: boolean;
  /** Opens another instance on the same data as `of` (only when {@link SuiteTools.hasSibling}). */
  openSibling(of: OptionStore): Promise<OptionStore>;
  /** Declares a test with the suite's time limit. */
  test(title: string, body: (context: { skip: Skip }) => Promise<void>): void;
  /**
   * Runs `check` with a store whose watch reports into `seen`, live by then, and a sibling to
   * write through; unsubscribes afterwards. Skips the test for a store without `watch`.
   */
  checkWatch(
    skip: Skip,
    check: (pair: { watcher: WatchableStore; writer: OptionStore; seen: readonly string[] }) => Promise<void>,
  ): Promise<void>;
  /** How long to wait for a change report, in ms. */
  readonly watchTimeoutMs: number;
}

/** Whether `store` has the optional `watch`. */
export function hasWatch(store: OptionStore): store is WatchableStore {
  return typeof store.watch === 'function';
}
