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

/**
 * A condition on a key the commit does not write (0.3): the commit applies only when the key
 * holds exactly `expect` (`null`: nothing). Used for the schema version record every write is
 * conditional on, and for the keys a rule of the settings read.
 */
export interface StoreCheck {
  /** The key; not one of the commit's written keys, and distinct among the checks. */
  readonly key: string;
  /** The text the key must hold, or `null` when it must hold nothing. */
  readonly expect: string | null;
}

/** Entries to append to a change log in the same atomic step as the writes. */
export interface StoreLogAppend {
  /** The log's name (opaque text; it shares the partition of the commit's keys). */
  readonly name: string;
  /** The entries (opaque text), oldest first. */
  readonly entries: readonly string[];
  /** How many entries the log keeps after the append (the oldest go first); at least 1. */
  readonly keep: number;
  /**
   * (0.3) The most bytes the log keeps: after the append, the UTF-8 lengths of its entries add up
   * to at most this many, the oldest going first — except that the newest entry always stays,
   * whatever its size. Both bounds apply. Entries of one append that the bounds would remove at
   * once may be dropped before they are stored (they count as trimmed), and then every entry
   * the log held before goes too: it is older than a dropped one. Absent: no byte bound.
   */
  readonly maxBytes?: number | undefined;
  /**
   * (0.3) One tag per entry (parallel to `entries`): the settings layer tags each history entry
   * with its setting id, so that `readLogPage` can page through one setting's entries.
   */
  readonly tags?: readonly string[] | undefined;
}

/**
 * An atomic write: apply every write and append the log entries when every `expect` of the
 * writes and every check holds, else change nothing.
 *
 * Partitions: every key of one commit, and its logs, share one partition — the text after the
 * key's first `@` (the scope of a scoped setting), or none for keys without `@` — unless the
 * store declares `crossPartitionCommits` (then one commit may span partitions: an import plan or
 * a batch of migrated levels is one atomic step). Stores that spread data over partitions (Redis
 * Cluster) keep one partition together so a commit stays in one place.
 *
 * After a successful commit the store announces every written key to the OTHER instances'
 * `watch` in one message, so that a reader marks the whole commit stale at once.
 */
export interface StoreCommit {
  /** The key writes (distinct keys; at least one, unless there are checks). */
  readonly writes: readonly StoreWrite[];
  /** (0.3) Conditions on keys the commit does not write. */
  readonly checks?: readonly StoreCheck[] | undefined;
  /** Entries to append to a change log; absent: none. */
  readonly log?: StoreLogAppend | undefined;
  /** (0.3) Entries for several logs (distinct names, none equal to `log`'s): a commit spanning levels. */
  readonly logs?: readonly StoreLogAppend[] | undefined;
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
      /** The current text (`null`: nothing stored) of every key whose `expect` (or check) failed. */
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
  const checks = commit.checks ?? [];
  if (!Array.isArray(checks)) throw new TypeError('commit: checks must be a list');
  if (commit.writes.length === 0 && checks.length === 0) {
    throw new TypeError('commit: at least one write is needed');
  }
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
  for (const check of checks) {
    if (typeof check?.key !== 'string') throw new TypeError('commit: every check needs a string key');
    if (keys.has(check.key)) {
      throw new TypeError(`commit: key ${JSON.stringify(check.key)} is written or checked twice`);
    }
    keys.add(check.key);
    if (check.expect !== null && typeof check.expect !== 'string') {
      throw new TypeError(`commit: the check of ${JSON.stringify(check.key)} must expect a string or null`);
    }
  }
  const names = new Set<string>();
  for (const log of commitLogs(commit)) {
    if (typeof log?.name !== 'string' || !Array.isArray(log.entries)) {
      throw new TypeError('commit: log needs a name and a list of entries');
    }
    if (names.has(log.name)) throw new TypeError(`commit: log ${JSON.stringify(log.name)} is appended twice`);
    names.add(log.name);
    if (log.entries.some((entry) => typeof entry !== 'string')) {
      throw new TypeError('commit: log entries must be strings');
    }
    if (!Number.isSafeInteger(log.keep) || log.keep < 1) {
      throw new TypeError('commit: log.keep must be a positive integer');
    }
    if (log.maxBytes !== undefined && (!Number.isSafeInteger(log.maxBytes) || log.maxBytes < 1)) {
      throw new TypeError('commit: log.maxBytes must be a positive integer');
    }
    if (
      log.tags !== undefined &&
      (!Array.isArray(log.tags) ||
        log.tags.length !== log.entries.length ||
        log.tags.some((tag) => typeof tag !== 'string'))
    ) {
      throw new TypeError('commit: log.tags must hold one string per entry');
    }
  }
}

/** Every log a commit appends to: `log`, then `logs` (an append may hold no entries: nothing to append then). */
export function commitLogs(commit: StoreCommit): StoreLogAppend[] {
  const logs: StoreLogAppend[] = [];
  if (commit.log !== undefined) logs.push(commit.log);
  if (commit.logs !== undefined) logs.push(...commit.logs);
  return logs.filter((log) => log !== undefined && log !== null);
}
