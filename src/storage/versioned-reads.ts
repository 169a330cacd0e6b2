import type { OptionStore } from './option-store';

/**
 * Versioned change messages (internal to the package's own stores, 0.3): what lets an instance
 * take another instance's change from its change message, without reading the store again.
 *
 * A store that offers them gives every change it announces, and every read, a **version**: a
 * decimal text (no leading zeros) that, for any one key, rises with every change of it in the
 * order the store applied them, and that a read takes at or above the version of every change
 * it sees. PostgreSQL takes the insert position of its write-ahead log after a commit's writes
 * (so after every row lock it waited for); a Redis commit script increases a counter per
 * partition, read in the same `MGET` as the values. The settings layer applies a message's text
 * only to an entry that is current, whose own version at that level is known and lower, and
 * whose key no read or write of the instance holds; anything else marks the entry stale and
 * reads it, as a key-only message does (docs/architecture.md, "Versioned change messages").
 */

/** A change named in a versioned message: the key's new text (`undefined`: deleted) and its version. */
export interface KeyChange {
  /** The text the change stored, `undefined` when it deleted the key. */
  readonly text: string | undefined;
  /** The version of the change (a decimal text). */
  readonly version: string;
}

/** The texts of one versioned read, and the version each key was read at. */
export interface VersionedTexts {
  /** The stored texts of the keys asked for; absent keys are absent. */
  readonly texts: Map<string, string>;
  /**
   * The version the read of `key` (one of the keys asked for) was taken at; `undefined` when the
   * store could not version this read (its messages then carry no texts either).
   */
  versionOf(key: string): string | undefined;
}

/** The symbol under which a store offers versioned reads (shared across the ESM and CJS builds). */
export const VERSIONED_READ: unique symbol = Symbol.for('commerce-plugin-framework.versioned-read');

/** A store with versioned reads: its change feed then also reports {@link KeyChange}s. */
export interface VersionedReadStore {
  /** `getMany` that also answers the version of each key's read. */
  [VERSIONED_READ](keys: readonly string[]): Promise<VersionedTexts>;
}

/** The store's versioned read, when it offers one. */
export function versionedRead(
  store: OptionStore,
): ((keys: readonly string[]) => Promise<VersionedTexts>) | undefined {
  const versioned = store as OptionStore & Partial<VersionedReadStore>;
  if (typeof versioned[VERSIONED_READ] !== 'function') return undefined;
  // Looked up at each call: a wrapper set on the instance later is used too.
  return (keys) => versioned[VERSIONED_READ]!(keys);
}

/** Whether `text` is a version: decimal digits without leading zeros, at most 20 (below 2^64). */
export function isVersionText(text: string): boolean {
  return /^(?:0|[1-9]\d{0,19})$/.test(text);
}

/** Whether `version` is above `than` (decimal texts without leading zeros). */
export function isNewerVersion(version: string, than: string): boolean {
  return version.length !== than.length ? version.length > than.length : version > than;
}
