import type { StoreCommit, StoreCommitResult } from './store-commit';

/**
 * Where settings live: a small key → text contract. Every backend (memory, PostgreSQL,
 * PGlite, Redis, or a host's own table) implements these few methods; the settings layer
 * does the typing, validation and caching on top.
 *
 * Values are always text, in the storage forms of the settings layer. Implementations must
 * treat keys as opaque strings (no pattern matching on `%`, `_`, `*`, `?`).
 *
 * Three methods are optional capabilities (see docs/stores.md for what a store without them
 * loses): `commit` (atomic multi-key writes with conditions and a change log: ETags with
 * If-Match, batches, history), `readLog` (reading that change log) and `listKeys` (rotating
 * the secrets of every scope).
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
   * atomic step, only when every write's `expect` condition holds; otherwise changes nothing
   * and reports the current text of each key whose condition failed. See {@link StoreCommit}.
   */
  commit?(commit: StoreCommit): Promise<StoreCommitResult>;
  /**
   * Optional capability: the entries of the change log `log` (as appended by `commit`),
   * newest first, at most `limit` of them; `[]` for a log that has none.
   */
  readLog?(log: string, limit: number): Promise<string[]>;
  /** Optional capability: every stored key that starts with `prefix` (compared as text, no patterns), in any order. */
  listKeys?(prefix: string): Promise<string[]>;
}
