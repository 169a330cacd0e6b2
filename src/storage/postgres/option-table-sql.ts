import { type CommitShape, type CommitStatement, commitStatement } from './commit-statement';
import type { OptionTableName } from './table-name';

/**
 * The SQL a {@link PostgresOptionStore} runs against its table and its change-log tables (the
 * commit statements are built in `commit-statement.ts`). The
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
  /** Creates the table of log heads (one row per log: its last entry number, trim marks and byte count) when missing. */
  readonly createLogHead: string;
  /**
   * `$1` the quoted log table, `$2` the quoted head table, `$3` the quoted tag index, as text:
   * one row, `current` true when the log tables have the columns and the index of 0.3.
   */
  readonly logTablesCurrent: string;
  /** Brings log tables of 0.2 to 0.3 (the `tag` and `bytes_before` columns, the head's byte count, the tag index); each is idempotent. */
  readonly upgradeLog: readonly string[];
  /** `$1` key: the value row, if any. */
  readonly get: string;
  /** `$1` text[] of keys: key and value rows of the keys present. */
  readonly getMany: string;
  /** `$1` key, `$2` value, `$3` channel, `$4` payload: upserts the row and notifies. */
  readonly set: string;
  /** `$1` key, `$2` channel, `$3` payload: deletes the row and notifies; one row when a row was removed. */
  readonly delete: string;
  /** The commit statement of a shape (made once per shape; see `commitStatement`). */
  commitStatement(shape: CommitShape): CommitStatement;
  /** `$1` log name, `$2` limit: the entries, newest first. */
  readonly readLog: string;
  /**
   * `$1` log name, `$2` offset, `$3` limit: no row for a log never written, else one row per
   * entry of the page (newest first), or one row with a null entry for an empty page, each with
   * the log's `total` and `trimmed`.
   */
  readonly readLogPage: string;
  /** The same as `readLogPage` for the entries tagged `$4` only (`total` counts those). */
  readonly readLogPageTagged: string;
  /** `$1` prefix, `$2` the least text above every text with that prefix (null: none): the keys with the prefix. */
  readonly listKeys: string;
  /** `$1` prefix, `$2` its upper bound (as `listKeys`), `$3` the cursor (null: from the start), `$4` count: one page of keys, in order. */
  readonly scanKeys: string;
  /** The same as `scanKeys`, with each key's `value`. */
  readonly scanKeyValues: string;
  /** The same as `scanKeys` for the names of the change logs. */
  readonly scanLogs: string;
  /**
   * `$1` text[] prefixes, `$2` text[] their lower bounds, `$3` text[] their upper bounds,
   * `$4` boolean[] whether their texts come, `$5` count: the runs of the first page of a suffix
   * scan (see `OptionStore.scanSuffixes`), one row per prefix in order, with `suffixes` and
   * `texts` (null when not wanted) as JSON arrays (the drivers read them with `JSON.parse`,
   * several times faster than their array parsers).
   */
  readonly scanSuffixes: string;
  /** The same as `scanSuffixes` after a cursor (each lower bound is the prefix + the cursor, excluded). */
  readonly scanSuffixesAfter: string;
}

/** A page of a log, of every entry or of one tag's (`$4`): see `OptionTableSql.readLogPage`. */
function logPageSql(log: string, head: string, tagged: boolean): string {
  const tag = tagged ? 'AND e.tag = $4 ' : '';
  const total = tagged
    ? `(SELECT count(*) FROM ${log} AS e WHERE e.log = $1 ${tag}AND e.seq > h.trimmed)`
    : 'h.last - h.trimmed';
  return (
    `SELECT h.trimmed > 0 AS trimmed, ${total} AS total, page.entry FROM ${head} AS h ` +
    `LEFT JOIN LATERAL (SELECT e.entry, e.seq FROM ${log} AS e WHERE e.log = $1 ${tag}AND e.seq > h.trimmed ` +
    'ORDER BY e.seq DESC OFFSET $2 LIMIT $3) AS page ON true WHERE h.log = $1 ORDER BY page.seq DESC'
  );
}

/** A page of the keys of `column` in `table` with a prefix (and `value`, when asked): see `OptionTableSql.scanKeys`. */
function scanSql(table: string, column: string, withValue = false): string {
  return (
    `SELECT ${column} AS item${withValue ? ', value' : ''} FROM ${table} WHERE ${column} >= $1 AND ($2::text IS NULL OR ${column} < $2::text) ` +
    `AND ($3::text IS NULL OR ${column} > $3::text) AND ($2::text IS NOT NULL OR starts_with(${column}, $1)) ` +
    `ORDER BY ${column} LIMIT $4`
  );
}

/**
 * The runs of a suffix scan (see `OptionTableSql.scanSuffixes`): per prefix, its first `$5` keys
 * after its lower bound by an index range scan, their suffixes and (when wanted) texts as JSON
 * arrays in key order. The store merges them (`mergeSuffixRuns`): a sort and grouping of every
 * key in the database cost twice the time.
 */
function suffixRunsSql(table: string, after: boolean): string {
  return (
    'SELECT run.suffixes, run.texts FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[]) ' +
    'WITH ORDINALITY AS p(prefix, low, high, want, i) CROSS JOIN LATERAL ' +
    '(SELECT json_agg(substr(t.key, length(p.prefix) + 1) ORDER BY t.key) AS suffixes, ' +
    'CASE WHEN p.want THEN json_agg(t.value ORDER BY t.key) END AS texts ' +
    `FROM (SELECT key, value FROM ${table} WHERE key ${after ? '>' : '>='} p.low AND key < p.high ` +
    'ORDER BY key LIMIT $5) AS t) AS run ORDER BY p.i'
  );
}

/** The statements for `table`. */
export function optionTableSql(table: OptionTableName): OptionTableSql {
  const t = table.sql;
  const log = table.logSql;
  const head = table.logHeadSql;
  const commits = new Map<string, CommitStatement>();
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
      'tag text COLLATE "C", ' +
      'bytes_before bigint, ' +
      'PRIMARY KEY (log, seq))',
    createLogHead:
      `CREATE TABLE IF NOT EXISTS ${head} (` +
      'log text COLLATE "C" PRIMARY KEY, ' +
      'last bigint NOT NULL, ' +
      'trimmed bigint NOT NULL, ' +
      'prev_trimmed bigint NOT NULL, ' +
      'bytes bigint NOT NULL DEFAULT 0)',
    logTablesCurrent:
      'SELECT (SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass($1) ' +
      "AND attname IN ('tag', 'bytes_before') AND NOT attisdropped) = 2 " +
      "AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname = 'bytes' " +
      'AND NOT attisdropped) AND to_regclass($3) IS NOT NULL AS current',
    upgradeLog: [
      `ALTER TABLE ${log} ADD COLUMN IF NOT EXISTS tag text COLLATE "C", ` +
        'ADD COLUMN IF NOT EXISTS bytes_before bigint',
      `ALTER TABLE ${head} ADD COLUMN IF NOT EXISTS bytes bigint NOT NULL DEFAULT 0`,
      `CREATE INDEX IF NOT EXISTS ${table.logTagIndexName} ON ${log} (log, tag, seq) WHERE tag IS NOT NULL`,
    ],
    get: `SELECT value FROM ${t} WHERE key = $1`,
    getMany: `SELECT key, value FROM ${t} WHERE key = ANY($1::text[])`,
    set:
      `WITH written AS (INSERT INTO ${t} (key, value, updated_at) VALUES ($1, $2, now()) ` +
      'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at ' +
      'RETURNING 1) SELECT pg_notify($3, $4) FROM written',
    delete:
      `WITH removed AS (DELETE FROM ${t} WHERE key = $1 RETURNING 1) ` +
      'SELECT pg_notify($2, $3) FROM removed',
    commitStatement: (shape) => {
      const key = `${shape.single}:${shape.checks}:${shape.logs}:${shape.byteBound}:${shape.sharedBounds === true}`;
      let statement = commits.get(key);
      if (statement === undefined) {
        statement = commitStatement(table, shape);
        commits.set(key, statement);
      }
      return statement;
    },
    readLog: `SELECT entry FROM ${log} WHERE log = $1 ORDER BY seq DESC LIMIT $2`,
    readLogPage: logPageSql(log, head, false),
    readLogPageTagged: logPageSql(log, head, true),
    listKeys:
      `SELECT key FROM ${t} WHERE key >= $1 AND ($2::text IS NULL OR key < $2::text) ` +
      'AND ($2::text IS NOT NULL OR starts_with(key, $1))',
    scanKeys: scanSql(t, 'key'),
    scanKeyValues: scanSql(t, 'key', true),
    scanLogs: scanSql(head, 'log'),
    scanSuffixes: suffixRunsSql(t, false),
    scanSuffixesAfter: suffixRunsSql(t, true),
  };
}
