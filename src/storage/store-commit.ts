/**
 * The atomic write an {@link OptionStore} may offer (`commit`): several key writes and
 * deletes, each optionally conditional on the key's current stored text, plus entries appended
 * to a change log, applied together or not at all.
 *
 * Every write path of the settings layer ends in one commit, so ETags with If-Match, batches,
 * the admin form's save and history are views of this one primitive.
 */

/** One key write of a {@link StoreCommit}. */
export interface StoreWrite {
  /** The key; the keys of one commit are distinct. */
  readonly key: string;
  /** The text to store, or `null` to delete the key. */
  readonly value: string | null;
  /**
   * The condition: absent or `undefined` for none; `null` when the key must hold nothing;
   * a string when the key must hold exactly that text.
   */
  readonly expect?: string | null | undefined;
}

/** Entries to append to a change log in the same atomic step as the writes. */
export interface StoreLogAppend {
  /** The log's name (opaque text; it shares the partition of the commit's keys). */
  readonly name: string;
  /** The entries (opaque text), oldest first. */
  readonly entries: readonly string[];
  /** How many entries the log keeps after the append (the oldest go first); at least 1. */
  readonly keep: number;
}

/**
 * An atomic write: apply every write and append the log entries when every `expect` holds,
 * else change nothing.
 *
 * Partitions: every key of one commit, and its log, share one partition — the text after the
 * key's first `@` (the scope of a scoped setting), or none for keys without `@`. Stores that
 * spread data over partitions (Redis Cluster) keep one partition together so a commit stays in
 * one place; other stores may ignore this.
 *
 * After a successful commit the store announces every written key to the OTHER instances'
 * `watch` in one message, so that a reader marks the whole commit stale at once.
 */
export interface StoreCommit {
  /** The key writes (at least one, distinct keys). */
  readonly writes: readonly StoreWrite[];
  /** Entries to append to a change log; absent: none. */
  readonly log?: StoreLogAppend | undefined;
}

/** The outcome of {@link StoreCommit}: applied, or refused because a condition failed. */
export type StoreCommitResult =
  | {
      /** Every write was applied and the entries appended. */
      readonly ok: true;
    }
  | {
      /** Nothing was changed. */
      readonly ok: false;
      /** The current text (`null`: nothing stored) of every key whose `expect` failed. */
      readonly current: ReadonlyMap<string, string | null>;
    };

/** The partition of a key: the text after its first `@`, or `''` for a key without one. */
export function keyPartition(key: string): string {
  const at = key.indexOf('@');
  return at === -1 ? '' : key.slice(at + 1);
}

/**
 * Checks the shape of a commit (for stores): at least one write, distinct keys, string or
 * null values and conditions, a sane log. Throws a `TypeError` naming the problem.
 */
export function assertValidCommit(commit: StoreCommit): void {
  if (typeof commit !== 'object' || commit === null || !Array.isArray(commit.writes)) {
    throw new TypeError('commit: expected { writes: [...] }');
  }
  if (commit.writes.length === 0) throw new TypeError('commit: at least one write is needed');
  const keys = new Set<string>();
  for (const write of commit.writes) {
    if (typeof write?.key !== 'string') throw new TypeError('commit: every write needs a string key');
    if (keys.has(write.key)) throw new TypeError(`commit: key ${JSON.stringify(write.key)} is written twice`);
    keys.add(write.key);
    if (write.value !== null && typeof write.value !== 'string') {
      throw new TypeError(`commit: the value of ${JSON.stringify(write.key)} must be a string or null`);
    }
    if (write.expect !== undefined && write.expect !== null && typeof write.expect !== 'string') {
      throw new TypeError(
        `commit: the condition of ${JSON.stringify(write.key)} must be a string, null or absent`,
      );
    }
  }
  const log = commit.log;
  if (log !== undefined) {
    if (typeof log.name !== 'string' || !Array.isArray(log.entries)) {
      throw new TypeError('commit: log needs a name and a list of entries');
    }
    if (log.entries.some((entry) => typeof entry !== 'string')) {
      throw new TypeError('commit: log entries must be strings');
    }
    if (!Number.isSafeInteger(log.keep) || log.keep < 1) {
      throw new TypeError('commit: log.keep must be a positive integer');
    }
  }
}
