import type { StoreCommit, StoreCommitResult } from './store-commit';
import type { LogPage, LogPageQuery } from './store-log';
import type { ScanPage, ScanQuery, SuffixScanPage, SuffixScanQuery } from './store-scan';

/**
 * Where settings live: a small key → text contract. Every backend (memory, PostgreSQL,
 * PGlite, Redis, or a host's own table) implements these few methods; the settings layer
 * does the typing, validation and caching on top.
 *
 * Values are always text, in the storage forms of the settings layer. Implementations must
 * treat keys as opaque strings (no pattern matching on `%`, `_`, `*`, `?`).
 *
 * Some methods are optional capabilities (see docs/stores.md for what a store without them
 * loses): `commit` (atomic multi-key writes with conditions and change logs: ETags with
 * If-Match, batches, history, exactly-once migrations, import plans), `readLog` and
 * `readLogPage` (reading the change logs), `listKeys` and `scan` (visiting every scope: secret
 * rotation, migrations, exports), `scanSuffixes` (the scopes of several settings in one read).
 *
 * Authors of their own adapters can run the package's conformance suite against them: see
 * `testOptionStore` in `commerce-plugin-framework/testing`.
 */
export interface OptionStore {
  /** The stored text for `key`, or `undefined` when nothing is stored. */
  get(key: string): Promise<string | undefined>;
  /** The stored texts of `keys`, in one round trip; absent keys are absent from the map. */
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  /** Stores `value` under `key`, replacing what was there. Resolves once it is durable in the store. */
  set(key: string, value: string): Promise<void>;
  /** Removes `key`; resolves to true when something was removed. */
  delete(key: string): Promise<boolean>;
  /**
   * Subscribes to sets and deletes made through OTHER store instances on the same data (in
   * this process or another), not this instance's own. Returns the unsubscribe function.
   *
   * @param onChange - called with the key that another writer changed
   * @param onResync - called when the change feed was interrupted and re-established, so
   *   that changes may have been missed: the subscriber should re-read everything it holds
   */
  watch?(onChange: (key: string) => void, onResync?: () => void): () => void;
  /** Ends the connections the store opened itself; caller-owned clients stay open. */
  close?(): Promise<void>;
  /**
   * Optional capability: applies every write of `commit` and appends its log entries in one
   * atomic step, only when every write's `expect` condition and every check (0.3) holds;
   * otherwise changes nothing and reports the current text of each key whose condition or check
   * failed. See {@link StoreCommit}. From 0.3 a store with `commit` honours `checks`, `logs`,
   * `maxBytes` and `tags` too (the conformance suite checks them).
   */
  commit?(commit: StoreCommit): Promise<StoreCommitResult>;
  /**
   * Optional capability: the entries of the change log `log` (as appended by `commit`),
   * newest first, at most `limit` of them; `[]` for a log that has none.
   */
  readLog?(log: string, limit: number): Promise<string[]>;
  /** Optional capability: every stored key that starts with `prefix` (compared as text, no patterns), in any order. */
  listKeys?(prefix: string): Promise<string[]>;
  /**
   * Optional capability (0.3): one page of a change log, newest first, optionally only the
   * entries of one tag, with the count of matching entries; answers the page, never the whole log.
   */
  readLogPage?(log: string, query: LogPageQuery): Promise<LogPage>;
  /**
   * Optional capability (0.3): one page of the keys (or, with `logs: true`, the change-log names)
   * that start with a prefix; call again with the page's `cursor` until it is `null`.
   */
  scan?(query: ScanQuery): Promise<ScanPage>;
  /**
   * Optional capability (0.3): one page of the suffixes that follow any of several prefixes in
   * the stored keys, in ascending order, each once, with the prefixes it follows, the texts asked
   * for and the keys joined to it; call again with the page's `cursor` until it is `null`. With
   * it, a migration finds the scopes holding any of a plugin's settings in one round trip per
   * page instead of one scan per setting (see {@link SuffixScanQuery}). Offer it only where it is
   * one round trip; without it the settings layer merges ordered `scan`s itself.
   */
  scanSuffixes?(query: SuffixScanQuery): Promise<SuffixScanPage>;
  /**
   * (0.3) `true` when one `commit` may hold keys and logs of several partitions (memory,
   * PostgreSQL, PGlite, a standalone Redis); absent or `false` when a commit must stay in one
   * partition (Redis Cluster, a host's sharded store): the settings layer then commits one
   * partition at a time.
   */
  readonly crossPartitionCommits?: boolean;
}
