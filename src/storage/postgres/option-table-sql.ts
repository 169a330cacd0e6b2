import { type CommitShape, type CommitStatement, commitStatement, VERSION_SQL } from './commit-statement';
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
  /** Creates the table of log heads (one row per log: its trim mark and whether it ever lost entries) when missing. */
  readonly createLogHead: string;
  /**
   * `$1` the quoted log table, `$2` the quoted head table, `$3` the quoted sequence, as text: one
   * row, `current` true when the log tables have the columns and the sequence of this version.
   */
  readonly logTablesCurrent: string;
  /**
   * Brings log tables of 0.2 and of earlier 0.3 builds to this version: the entries' `tag`,
   * `keep` and `max_bytes`, the head's `lost` flag (true where entries were trimmed), the tag
   * index dropped. Each statement is idempotent; the defaults of the old head columns come next
   * (`legacyHeadColumns`), the sequence last (`createLogSequence`).
   */
  readonly upgradeLog: readonly string[];
  /**
   * `$1` the quoted head table as text: the columns through which 0.2 and earlier 0.3 builds
   * numbered a log's entries (`last`, `prev_trimmed`) that have no default yet, one row each (`name`).
   */
  readonly legacyHeadColumns: string;
  /**
   * Gives the old head column `name` (one of `legacyHeadColumns`) the default 0: this version
   * never writes it, and an instance of the earlier version still running reads a new log's
   * head as empty.
   */
  legacyHeadDefault(name: 'last' | 'prev_trimmed'): string;
  /** One row, `start`: the first number the sequence may hand out (above every entry's). */
  readonly logSequenceStart: string;
  /** Creates the sequence when missing, its first number `start` (a safe integer). */
  createLogSequence(start: number): string;
  /** `$1` key: the value row, if any. */
  readonly get: string;
  /** `$1` text[] of keys: key and value rows of the keys present. */
  readonly getMany: string;
  /**
   * The same as `getMany`, plus one row with a null key whose `value` is the read's version
   * (see `VERSION_SQL`), taken after the statement's snapshot.
   */
  readonly getManyVersioned: string;
  /** One row, `v`: the current version (it fails where the database does not answer `pg_current_wal_insert_lsn()`). */
  readonly version: string;
  /** `$1` key, `$2` value, `$3` channel, `$4` payload: upserts the row and notifies. */
  readonly set: string;
  /** `$1` key, `$2` channel, `$3` payload: deletes the row and notifies; one row when a row was removed. */
  readonly delete: string;
  /** The commit statement of a shape (made once per shape; see `commitStatement`). */
  commitStatement(shape: CommitShape): CommitStatement;
  /** `$1` log name, `$2` limit: the kept entries (see `keptEntriesSql`), newest first. */
  readonly readLog: string;
  /**
   * `$1` log name, `$2` offset, `$3` limit: no row for a log never written, else one row per
   * kept entry of the page (newest first), or one row with a null entry for an empty page, each
   * with the log's `total` (its kept entries) and `trimmed` (it lost some).
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

/**
 * The entries of the log `$1` above its trim mark, newest first, each with whether it is kept
 * (CTEs `h`, `b`, `w` and `k`; no row in `h` for a log never written). Entries are numbered
 * from one sequence for every log, so commits to one log never wait for each other, and they
 * are trimmed lazily (see `logSql` in `commit-statement.ts`): a log may hold entries its bounds
 * no longer keep. Reads apply the bounds themselves: `w` ranks the entries above the head's
 * trim mark and adds up the UTF-8 bytes of each and every newer one; `k` keeps those within
 * the `keep` and `maxBytes` of the newest entry's append (`b`; the newest always stays;
 * entries written before 0.3 carry no bounds). With the same bounds on every append this is
 * exactly what an eager trim would have left; a commit that changes the bounds moves the trim
 * mark itself. A read walks the entries the log holds, at most about `keep × 9/8` (see
 * `LAZY_TRIMS`), and the texts of the entries it answers only.
 */
function keptEntriesSql(log: string, head: string): string {
  const above = `e.log = $1 AND e.seq > (SELECT h.trimmed FROM h)`;
  return (
    `WITH h AS (SELECT trimmed, lost FROM ${head} WHERE log = $1), ` +
    `b AS (SELECT e.keep, e.max_bytes FROM ${log} AS e WHERE ${above} ORDER BY e.seq DESC LIMIT 1), ` +
    `w AS (SELECT e.seq, e.tag, row_number() OVER o AS rank, sum(octet_length(e.entry)) OVER o AS upto ` +
    `FROM ${log} AS e WHERE ${above} WINDOW o AS (ORDER BY e.seq DESC)), ` +
    'k AS (SELECT w.seq, w.tag, NOT coalesce(w.rank > (SELECT b.keep FROM b) ' +
    'OR (w.rank > 1 AND w.upto > (SELECT b.max_bytes FROM b)), false) AS kept FROM w) '
  );
}

/** The texts of the kept entries `page` names (its `seq`), as `entry`: one probe of the key each. */
function pageTextsSql(log: string, page: string): string {
  return (
    `SELECT e.entry, p.seq FROM (${page}) AS p CROSS JOIN LATERAL ` +
    `(SELECT e.entry FROM ${log} AS e WHERE e.log = $1 AND e.seq = p.seq LIMIT 1) AS e`
  );
}

/** A page of a log's kept entries, of every one or of one tag's (`$4`): see `OptionTableSql.readLogPage`. */
function logPageSql(log: string, head: string, tagged: boolean): string {
  const tag = tagged ? ' AND k.tag = $4' : '';
  const page = `SELECT k.seq FROM k WHERE k.kept${tag} ORDER BY k.seq DESC OFFSET $2 LIMIT $3`;
  return (
    `${keptEntriesSql(log, head)}, counts AS (SELECT count(*) FILTER (WHERE k.kept${tag}) AS total, ` +
    'coalesce(bool_or(NOT k.kept), false) AS beyond FROM k) ' +
    'SELECT h.lost OR counts.beyond AS trimmed, counts.total, page.entry FROM h CROSS JOIN counts ' +
    `LEFT JOIN LATERAL (${pageTextsSql(log, page)}) AS page ON true ORDER BY page.seq DESC`
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
  const commits = new Map<number, CommitStatement>();
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
      'keep bigint, ' +
      'max_bytes bigint, ' +
      'PRIMARY KEY (log, seq))',
    createLogHead:
      `CREATE TABLE IF NOT EXISTS ${head} (` +
      'log text COLLATE "C" PRIMARY KEY, ' +
      'trimmed bigint NOT NULL DEFAULT 0, ' +
      'lost boolean NOT NULL DEFAULT false)',
    logTablesCurrent:
      "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'max_bytes' " +
      "AND NOT attisdropped) AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname = 'lost' " +
      'AND NOT attisdropped) AND to_regclass($3) IS NOT NULL AS current',
    upgradeLog: [
      `ALTER TABLE ${log} ADD COLUMN IF NOT EXISTS tag text COLLATE "C", ADD COLUMN IF NOT EXISTS keep bigint, ` +
        'ADD COLUMN IF NOT EXISTS max_bytes bigint',
      `ALTER TABLE ${head} ADD COLUMN IF NOT EXISTS lost boolean NOT NULL DEFAULT false, ALTER COLUMN trimmed SET DEFAULT 0`,
      `UPDATE ${head} SET lost = true WHERE trimmed > 0 AND NOT lost`,
      `DROP INDEX IF EXISTS ${table.logTagIndexSql}`,
    ],
    legacyHeadColumns:
      'SELECT attname::text AS name FROM pg_attribute WHERE attrelid = to_regclass($1) ' +
      "AND attname IN ('last', 'prev_trimmed') AND NOT atthasdef AND NOT attisdropped",
    legacyHeadDefault: (name) =>
      `ALTER TABLE ${head} ALTER COLUMN ${name === 'last' ? 'last' : 'prev_trimmed'} SET DEFAULT 0`,
    // Above every number an earlier build gave or may still give (it numbered each log from its
    // head row's count): its entries stay older than every new one, and never collide with them.
    logSequenceStart: `SELECT coalesce((SELECT max(seq) FROM ${log}) + 4294967296, 1)::text AS start`,
    createLogSequence: (start) =>
      `CREATE SEQUENCE IF NOT EXISTS ${table.logSeqSql} AS bigint START WITH ${sequenceStart(start)} OWNED BY ${log}.seq`,
    get: `SELECT value FROM ${t} WHERE key = $1`,
    getMany: `SELECT key, value FROM ${t} WHERE key = ANY($1::text[])`,
    getManyVersioned: `SELECT key, value FROM ${t} WHERE key = ANY($1::text[]) UNION ALL SELECT NULL, ${VERSION_SQL}`,
    version: `SELECT ${VERSION_SQL} AS v`,
    set:
      `WITH written AS (INSERT INTO ${t} (key, value, updated_at) VALUES ($1, $2, now()) ` +
      'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at ' +
      'RETURNING 1) SELECT pg_notify($3, $4) FROM written',
    delete:
      `WITH removed AS (DELETE FROM ${t} WHERE key = $1 RETURNING 1) ` +
      'SELECT pg_notify($2, $3) FROM removed',
    commitStatement: (shape) => {
      const key = shapeBits(shape);
      let statement = commits.get(key);
      if (statement === undefined) {
        statement = commitStatement(table, shape);
        commits.set(key, statement);
      }
      return statement;
    },
    readLog: `${keptEntriesSql(log, head)}${pageTextsSql(log, 'SELECT k.seq FROM k WHERE k.kept ORDER BY k.seq DESC LIMIT $2')} ORDER BY p.seq DESC`,
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

/** `start` as a literal of the sequence's first number. */
function sequenceStart(start: number): string {
  if (!Number.isSafeInteger(start) || start < 1) throw new RangeError(`invalid log sequence start: ${start}`);
  return String(start);
}

/** A commit shape as one small integer, the key of its statement (a bit per flag; `logs` takes two). */
function shapeBits(shape: CommitShape): number {
  const logs = shape.logs === 'none' ? 0 : shape.logs === 'one' ? 1 : 2;
  return (
    (shape.single ? 1 : 0) |
    (shape.checks ? 2 : 0) |
    (logs << 2) |
    (shape.byteBound ? 16 : 0) |
    (shape.sharedBounds === true ? 32 : 0) |
    (shape.trims === true ? 64 : 0) |
    (shape.versioned === true ? 128 : 0)
  );
}
