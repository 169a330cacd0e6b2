import type { OptionTableName } from './table-name';

/**
 * The SQL a {@link PostgresOptionStore} runs against its table and its change-log table. The
 * table names are checked and quoted (see `optionTableName`); keys, values, log names, entries,
 * the channel and the notification payload are always bound parameters.
 *
 * Writes notify in the same statement as they change the rows: the notification is sent when,
 * and only when, the change commits, so no instance hears of a write that did not happen and
 * none misses one that did.
 */
export interface OptionTableSql {
  /** `$1` the quoted table name as text: one row, `present` true when the table exists. */
  readonly exists: string;
  /** Creates the table when missing. */
  readonly create: string;
  /** Creates the change-log table when missing. */
  readonly createLog: string;
  /** Creates the table of log heads (one row per log: its last entry number and trim marks) when missing. */
  readonly createLogHead: string;
  /** `$1` key: the value row, if any. */
  readonly get: string;
  /** `$1` text[] of keys: key and value rows of the keys present. */
  readonly getMany: string;
  /** `$1` key, `$2` value, `$3` channel, `$4` payload: upserts the row and notifies. */
  readonly set: string;
  /** `$1` key, `$2` channel, `$3` payload: deletes the row and notifies; one row when a row was removed. */
  readonly delete: string;
  /** A commit without log entries; parameters in {@link CommitParameters} order, `$1`…`$6`. */
  readonly commit: string;
  /** A commit that also appends to a change log; `$1`…`$9`. */
  readonly commitWithLog: string;
  /** The prepared-statement names of `commit` and `commitWithLog` (per table: derived from its channel). */
  readonly commitNames: { readonly commit: string; readonly commitWithLog: string };
  /** `$1` log name, `$2` limit: the entries, newest first. */
  readonly readLog: string;
  /** `$1` prefix, `$2` the least text above every text with that prefix (null: none): the keys with the prefix. */
  readonly listKeys: string;
}

/**
 * The text of the runtime error a commit raises to roll itself back when a condition failed
 * while its writes ran (a key another commit inserted meanwhile). It is made of a cast of
 * run-time data (the failure count), so the planner cannot evaluate it early, as it may a
 * constant expression even in a CASE branch that is never taken.
 */
export const COMMIT_CONFLICT_MARKER = 'cpf-commit-conflict';

/**
 * The conditional writes of one commit, in one statement of data-modifying CTEs over the
 * parallel arrays `$1` keys, `$2` values (null: delete), `$3` expected texts, `$4` condition
 * modes (0 none, 1 absent, 2 equal to the expected text), under READ COMMITTED:
 * - `locked` locks the stored rows of the conditional keys (`SELECT … ORDER BY key FOR UPDATE`:
 *   one lock order for every commit; a row another writer is changing is waited for and read in
 *   its newly committed version), and `refused` holds the conditions those current texts break.
 *   When there is any, no write runs and the statement answers the refused keys with their
 *   current texts: a conflict costs one round trip and raises no error.
 * - Otherwise the writes run on the locked rows: a set that expects nothing is an upsert; a set
 *   that expects absence is `INSERT … ON CONFLICT DO NOTHING`, which waits for a concurrent
 *   insert of the same key and then sees it (of two, exactly one inserts); a set or delete that
 *   expects a text is an `UPDATE`/`DELETE … WHERE value = expected`; a delete that expects
 *   absence writes nothing. `failed` counts the conditions that still did not hold — only a key
 *   that another commit inserted while this one ran, invisible to `locked` — and then a cast
 *   raises an error that rolls the whole statement back (nothing written, logged or notified).
 */
function writesSql(t: string): string {
  const go = 'NOT EXISTS (SELECT 1 FROM refused)';
  return (
    'WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) ' +
    'AS input(key, value, expect, mode)), ' +
    `locked AS (SELECT stored.key, stored.value FROM ${t} AS stored ` +
    'WHERE stored.key IN (SELECT input.key FROM input WHERE input.mode <> 0) ORDER BY stored.key FOR UPDATE), ' +
    'refused AS (SELECT input.key, locked.value FROM input LEFT JOIN locked ON locked.key = input.key ' +
    'WHERE (input.mode = 1 AND locked.value IS NOT NULL) ' +
    'OR (input.mode = 2 AND (locked.value IS NULL OR locked.value <> input.expect))), ' +
    `created AS (INSERT INTO ${t} (key, value, updated_at) ` +
    `SELECT key, value, now() FROM input WHERE mode = 1 AND value IS NOT NULL AND ${go} ` +
    'ON CONFLICT (key) DO NOTHING RETURNING key), ' +
    `upserted AS (INSERT INTO ${t} (key, value, updated_at) ` +
    `SELECT key, value, now() FROM input WHERE mode = 0 AND value IS NOT NULL AND ${go} ` +
    'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at RETURNING key), ' +
    `updated AS (UPDATE ${t} AS stored SET value = input.value, updated_at = now() FROM input ` +
    'WHERE input.mode = 2 AND input.value IS NOT NULL AND stored.key = input.key AND stored.value = input.expect ' +
    `AND ${go} RETURNING stored.key), ` +
    `deleted AS (DELETE FROM ${t} AS stored USING input ` +
    'WHERE input.value IS NULL AND input.mode <> 1 AND stored.key = input.key ' +
    `AND (input.mode = 0 OR stored.value = input.expect) AND ${go} RETURNING stored.key), ` +
    `failed AS (SELECT count(*) AS n FROM input WHERE ${go} AND (` +
    '(input.mode = 2 AND input.key NOT IN (SELECT updated.key FROM updated UNION ALL SELECT deleted.key FROM deleted)) ' +
    'OR (input.mode = 1 AND input.value IS NOT NULL AND input.key NOT IN (SELECT created.key FROM created)) ' +
    `OR (input.mode = 1 AND input.value IS NULL AND EXISTS (SELECT 1 FROM ${t} AS stored WHERE stored.key = input.key))))`
  );
}

/**
 * The answer of a commit: one row per refused key (`key`, its current `value`, null when
 * absent), or, when nothing was refused, one row without a key that runs the conflict guard and
 * the one notification (`$5` channel, `$6` payload).
 */
const COMMIT_RESULT =
  'SELECT refused.key, refused.value, NULL::int AS conflict, NULL::text AS notified FROM refused ' +
  'UNION ALL ' +
  'SELECT NULL, NULL, ' +
  `CASE WHEN failed.n > 0 THEN ('${COMMIT_CONFLICT_MARKER}:' || failed.n)::int ELSE 0 END, ` +
  'pg_notify($5, $6)::text FROM failed WHERE NOT EXISTS (SELECT 1 FROM refused)';

/**
 * The log append of a commit, when nothing was refused: `$7` log name, `$8` the entries
 * (oldest first, at most `keep`), `$9` how many of the existing entries stay (keep − appended).
 *
 * Entries are numbered per log (`seq`, from 1). The log's head row counts them (`last`) and
 * remembers up to which number the log is trimmed: the upsert of the head row takes its row
 * lock, so concurrent commits to one log number their entries one after the other (a waiting
 * commit reads the head as the other one left it). The trim then deletes exactly the entries
 * that fell out of the newest `keep` since the last trim — an index range scan of the
 * `(log, seq)` key bounded on both sides, so it never walks the dead index entries that
 * earlier trims left at the old end of the log (a trim by `ORDER BY … OFFSET keep` walks all
 * of them, and costs more with every write until a vacuum). The range reaches 64 numbers below
 * the last trim, to catch an entry a concurrent commit inserted after this statement's
 * snapshot was taken (only possible with a `keep` smaller than the commits in flight).
 */
function logSql(log: string, head: string): string {
  return (
    `head AS (INSERT INTO ${head} AS h (log, last, trimmed, prev_trimmed) ` +
    'SELECT $7, cardinality($8::text[]), 0, 0 WHERE NOT EXISTS (SELECT 1 FROM refused) ' +
    'ON CONFLICT (log) DO UPDATE SET prev_trimmed = h.trimmed, ' +
    'trimmed = greatest(h.trimmed, h.last - $9::bigint), last = h.last + EXCLUDED.last ' +
    'RETURNING h.last, h.trimmed, h.prev_trimmed), ' +
    `logged AS (INSERT INTO ${log} (log, seq, entry) ` +
    'SELECT $7, head.last - cardinality($8::text[]) + appended.position, appended.entry ' +
    'FROM head, unnest($8::text[]) WITH ORDINALITY AS appended(entry, position) RETURNING 1), ' +
    `trimmed AS (DELETE FROM ${log} AS old USING head WHERE old.log = $7 ` +
    'AND old.seq > head.prev_trimmed - 64 AND old.seq <= head.trimmed RETURNING 1) '
  );
}

/** The statements for `table`. */
export function optionTableSql(table: OptionTableName): OptionTableSql {
  const t = table.sql;
  const log = table.logSql;
  const head = table.logHeadSql;
  return {
    exists: 'SELECT to_regclass($1) IS NOT NULL AS present',
    create:
      `CREATE TABLE IF NOT EXISTS ${t} (` +
      'key text COLLATE "C" PRIMARY KEY, ' +
      'value text NOT NULL, ' +
      'updated_at timestamptz NOT NULL DEFAULT now())',
    createLog:
      `CREATE TABLE IF NOT EXISTS ${log} (` +
      'log text COLLATE "C" NOT NULL, ' +
      'seq bigint NOT NULL, ' +
      'entry text NOT NULL, ' +
      'PRIMARY KEY (log, seq))',
    createLogHead:
      `CREATE TABLE IF NOT EXISTS ${head} (` +
      'log text COLLATE "C" PRIMARY KEY, ' +
      'last bigint NOT NULL, ' +
      'trimmed bigint NOT NULL, ' +
      'prev_trimmed bigint NOT NULL)',
    get: `SELECT value FROM ${t} WHERE key = $1`,
    getMany: `SELECT key, value FROM ${t} WHERE key = ANY($1::text[])`,
    set:
      `WITH written AS (INSERT INTO ${t} (key, value, updated_at) VALUES ($1, $2, now()) ` +
      'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at ' +
      'RETURNING 1) SELECT pg_notify($3, $4) FROM written',
    delete:
      `WITH removed AS (DELETE FROM ${t} WHERE key = $1 RETURNING 1) ` +
      'SELECT pg_notify($2, $3) FROM removed',
    commit: `${writesSql(t)} ${COMMIT_RESULT}`,
    commitNames: { commit: `${table.channel}_c`, commitWithLog: `${table.channel}_cl` },
    commitWithLog: `${writesSql(t)}, ${logSql(log, head)}${COMMIT_RESULT}`,
    readLog: `SELECT entry FROM ${log} WHERE log = $1 ORDER BY seq DESC LIMIT $2`,
    listKeys:
      `SELECT key FROM ${t} WHERE key >= $1 AND ($2::text IS NULL OR key < $2::text) ` +
      'AND starts_with(key, $1)',
  };
}
