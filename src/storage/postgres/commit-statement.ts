import type { OptionTableName } from './table-name';

/**
 * What a commit holds, as far as its SQL is concerned: each combination is its own statement
 * (prepared once per connection), so that a commit pays only for what it uses — the plain
 * one-key commit with one log entry runs no check and no byte bound.
 */
export interface CommitShape {
  /**
   * The commit sets one key (no delete): its key, text, expected text and condition mode are
   * scalar parameters, and one upsert writes it (the hot path of every single setting write).
   */
  readonly single: boolean;
  /** The commit has `checks`. */
  readonly checks: boolean;
  /** How many logs it appends entries to: none, one (its fields as scalars) or many (as arrays). */
  readonly logs: 'none' | 'one' | 'many';
  /** One of its logs has `maxBytes`. */
  readonly byteBound: boolean;
  /**
   * Its many logs share one `keep` and one `maxBytes` (a batch of migrated levels, a plan): they
   * are scalar parameters, and the entries' texts come as one JSON array (see `logSql`).
   */
  readonly sharedBounds?: boolean;
  /**
   * The commit may trim its logs: the client drew a trim for one of them, or its bounds dropped
   * entries. Without, the statement has no trim steps (the hot path: most commits trim nothing),
   * and it raises {@link LOG_BOUNDS_CHANGED_MARKER} when it finds a log's bounds changed, so
   * that the store sends it again with them.
   */
  readonly trims?: boolean;
  /**
   * The notification is versioned (see `storage/versioned-reads.ts`): its text is the head
   * parameter, the write-ahead log's insert position taken after the commit's writes (`stamp`),
   * and the tail parameter. Only stores whose database answers `pg_current_wal_insert_lsn()` use
   * these statements.
   */
  readonly versioned?: boolean;
}

/** A commit statement: its prepared-statement name and its text. */
export interface CommitStatement {
  /** Unique per table and shape (derived from the table's channel). */
  readonly name: string;
  /** The SQL text; parameters in the order of `commitParameters`. */
  readonly text: string;
}

/**
 * The text of the runtime error a commit raises to roll itself back when a condition failed
 * while its writes ran (a key another commit inserted meanwhile). It is made of a cast of
 * run-time data (the failure count), so the planner cannot evaluate it early, as it may a
 * constant expression even in a CASE branch that is never taken.
 */
export const COMMIT_CONFLICT_MARKER = 'cpf-commit-conflict';

/**
 * The text of the runtime error a commit without trim steps raises, rolling itself back, when
 * one of its logs' bounds differ from the newest entry's: such an append must trim at once
 * (what the tighter bound removed stays removed), so the store sends it again with the steps.
 */
export const LOG_BOUNDS_CHANGED_MARKER = 'cpf-log-bounds-changed';

/** Numbers the bound parameters in the order they are asked for. */
class Parameters {
  #count = 0;
  /** The next parameter, cast to `type`. */
  next(type: string): string {
    return `$${++this.#count}::${type}`;
  }
}

/**
 * The commit statement of `shape` for `table`. Parameters, in order: `keys`, `values` (null:
 * delete), `expects`, `modes` (0 none, 1 absent, 2 equal), the notification's channel and
 * payload; with checks, their keys and the texts they must hold (null: nothing); with one log,
 * its name, `keep`, (with a byte bound) `maxBytes`, how many appended entries were dropped, how
 * many are sent, their bytes and whether a lazy trim was drawn, then the entries and their
 * tags; with many logs, the same per-log fields as arrays (`keep` and `maxBytes` as scalars when
 * shared), then per entry its log, text (a JSON array of them when shared) and tag, and (not
 * shared) its log's `keep` and `maxBytes`.
 */
export function commitStatement(table: OptionTableName, shape: CommitShape): CommitStatement {
  const p = new Parameters();
  const type = shape.single ? '' : '[]';
  const input = [
    p.next(`text${type}`),
    p.next(`text${type}`),
    p.next(`text${type}`),
    p.next(`int${type}`),
  ] as const;
  const notify =
    shape.versioned === true
      ? [p.next('text'), p.next('text'), p.next('text')]
      : [p.next('text'), p.next('text')];
  const checks = shape.checks ? ([p.next('text[]'), p.next('text[]')] as const) : null;
  const writes = shape.single ? singleSetSql(table.sql, input, checks) : writesSql(table.sql, input, checks);
  const logs = shape.logs === 'none' ? '' : `, ${logSql(table, p, shape)}`;
  const stamp = shape.versioned === true ? `, ${stampSql(shape.single)}` : '';
  const result = commitResult(notify, shape.logs !== 'none' && shape.trims !== true);
  const suffix = `${shape.single ? 's' : ''}${shape.checks ? 'k' : ''}${shape.logs === 'one' ? 'l' : shape.logs === 'many' ? 'm' : ''}${shape.byteBound ? 'b' : ''}${shared(shape) ? 'u' : ''}${shape.trims === true ? 't' : ''}${shape.versioned === true ? 'v' : ''}`;
  return { name: `${table.channel}_c${suffix}`, text: `${writes}${logs}${stamp} ${result}` };
}

/**
 * The version of a change as PostgreSQL gives it: the write-ahead log's insert position, in bytes,
 * as a decimal text. Taken after a commit's writes it is above the position every earlier commit
 * of the same key took (that commit wrote its commit record before this one got the row lock or
 * passed the unique check); taken by a read, it is above the position of every commit the read's
 * snapshot sees.
 */
export const VERSION_SQL = "(pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text";

/**
 * `stamp`: the version of a commit, taken once every write step has run to its end (its rows
 * counted: a data-modifying step that nothing reads may run after the main query), the `CASE`
 * making the order certain.
 */
function stampSql(single: boolean): string {
  const counts = single
    ? '(SELECT count(*) FROM written)'
    : '(SELECT count(*) FROM created) + (SELECT count(*) FROM upserted) + ' +
      '(SELECT count(*) FROM updated) + (SELECT count(*) FROM deleted)';
  return `stamp AS (SELECT CASE WHEN ${counts} >= 0 THEN ${VERSION_SQL} END AS v)`;
}

/**
 * The conditional writes of one commit, in one statement of data-modifying CTEs over the
 * parallel arrays of keys, values, expected texts and condition modes (and, with checks, the
 * checks' keys and texts), under READ COMMITTED:
 * - `locked` locks the stored rows of the conditional keys (`SELECT … ORDER BY key FOR UPDATE`:
 *   one lock order for every commit; a row another writer is changing is waited for and read in
 *   its newly committed version), `checked` the rows of the checked keys `FOR SHARE` (commits
 *   that check the same key never wait for each other, a commit that updates it waits for them
 *   and they for it), and `refused` holds the conditions and checks those current texts break.
 *   When there is any, no write runs and the statement answers the refused keys with their
 *   current texts: a conflict costs one round trip and raises no error.
 * - Otherwise the writes run on the locked rows: a set that expects nothing is an upsert; a set
 *   that expects absence is `INSERT … ON CONFLICT DO NOTHING`, which waits for a concurrent
 *   insert of the same key and then sees it (of two, exactly one inserts); a set or delete that
 *   expects a text is an `UPDATE`/`DELETE … WHERE value = expected`; a delete that expects
 *   absence writes nothing. `failed` counts the conditions that still did not hold — only a key
 *   that another commit inserted while this one ran, invisible to `locked` — and then a cast
 *   raises an error that rolls the whole statement back (nothing written, logged or notified).
 *   A check that expects absence, like a delete that does, is checked against the statement's
 *   snapshot: there is no row to lock.
 */
function writesSql(
  t: string,
  [keys, values, expects, modes]: readonly [string, string, string, string],
  checks: readonly [keys: string, expects: string] | null,
): string {
  const go = 'NOT EXISTS (SELECT 1 FROM refused)';
  const { checked, refused: refusedChecks } = checksSql(t, checks);
  return (
    `WITH input AS (SELECT * FROM unnest(${keys}, ${values}, ${expects}, ${modes}) AS input(key, value, expect, mode)), ` +
    `locked AS (SELECT stored.key, stored.value FROM ${t} AS stored ` +
    'WHERE stored.key IN (SELECT input.key FROM input WHERE input.mode <> 0) ORDER BY stored.key FOR UPDATE), ' +
    checked +
    'refused AS (SELECT input.key, locked.value FROM input LEFT JOIN locked ON locked.key = input.key ' +
    'WHERE (input.mode = 1 AND locked.value IS NOT NULL) ' +
    `OR (input.mode = 2 AND (locked.value IS NULL OR locked.value <> input.expect))${refusedChecks}), ` +
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
 * The checks of a commit, when it has any: `checked` locks the rows of the checked keys
 * `FOR SHARE` (commits that check the same key never wait for each other, a commit that updates
 * it waits for them and they for it), `refused` (its `UNION ALL` branch) answers those whose
 * current text is not the expected one.
 */
function checksSql(
  t: string,
  checks: readonly [keys: string, expects: string] | null,
): { checked: string; refused: string } {
  if (checks === null) return { checked: '', refused: '' };
  return {
    checked:
      `checked AS (SELECT stored.key, stored.value FROM ${t} AS stored ` +
      `WHERE stored.key = ANY(${checks[0]}) ORDER BY stored.key FOR SHARE), `,
    refused:
      ` UNION ALL SELECT checks.key, checked.value FROM unnest(${checks[0]}, ${checks[1]}) AS checks(key, expect) ` +
      'LEFT JOIN checked ON checked.key = checks.key WHERE checks.expect IS DISTINCT FROM checked.value',
  };
}

/**
 * The writes of a commit that sets one key (the `single` shape), with its fields as scalars:
 * the same answers as `writesSql`, in fewer steps. `locked` locks the key's row when the write
 * has a condition (and reads its newly committed text), `refused` holds a broken condition or
 * check, and one upsert writes the text, its `ON CONFLICT` update guarded by the condition: it
 * updates nothing when a row another commit inserted meanwhile is there (absent expected), and
 * `failed` then raises the conflict guard.
 */
function singleSetSql(
  t: string,
  [key, value, expect, mode]: readonly [string, string, string, string],
  checks: readonly [keys: string, expects: string] | null,
): string {
  const { checked, refused } = checksSql(t, checks);
  return (
    `WITH locked AS (SELECT stored.value FROM ${t} AS stored WHERE stored.key = ${key} AND ${mode} <> 0 FOR UPDATE), ` +
    checked +
    `refused AS (SELECT ${key} AS key, (SELECT locked.value FROM locked) AS value ` +
    `WHERE CASE ${mode} WHEN 1 THEN EXISTS (SELECT 1 FROM locked) ` +
    `WHEN 2 THEN NOT EXISTS (SELECT 1 FROM locked WHERE locked.value = ${expect}) ELSE false END${refused}), ` +
    `written AS (INSERT INTO ${t} AS stored (key, value, updated_at) ` +
    `SELECT ${key}, ${value}, now() WHERE NOT EXISTS (SELECT 1 FROM refused) ` +
    'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at ' +
    `WHERE ${mode} = 0 OR (${mode} = 2 AND stored.value = ${expect}) RETURNING 1), ` +
    'failed AS (SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM refused) AND NOT EXISTS (SELECT 1 FROM written) ' +
    'THEN 1 ELSE 0 END AS n)'
  );
}

/**
 * The answer of a commit: one row per refused key (`key`, its current `value`, null when
 * absent), or, when nothing was refused, one row without a key that runs the conflict guard and
 * the one notification (versioned: its text with the commit's version in the middle).
 */
function commitResult(notify: readonly string[], boundsGuard: boolean): string {
  const [channel, head, tail] = notify;
  // A versioned notification: its head, the commit's version, its tail.
  const payload = tail === undefined ? head : `${head} || (SELECT stamp.v FROM stamp) || ${tail}`;
  // Without trim steps, a log whose bounds changed rolls the statement back (see `trims`).
  const changed = boundsGuard
    ? `WHEN (SELECT count(*) FROM due WHERE due.changed) > 0 THEN ('${LOG_BOUNDS_CHANGED_MARKER}:' || ` +
      '(SELECT count(*) FROM due WHERE due.changed))::int '
    : '';
  return (
    'SELECT refused.key, refused.value, NULL::int AS conflict, NULL::text AS notified FROM refused ' +
    'UNION ALL ' +
    'SELECT NULL, NULL, ' +
    `CASE WHEN failed.n > 0 THEN ('${COMMIT_CONFLICT_MARKER}:' || failed.n)::int ${changed}ELSE 0 END, ` +
    `pg_notify(${channel}, ${payload})::text FROM failed WHERE NOT EXISTS (SELECT 1 FROM refused)`
  );
}

/** Whether `shape` is many logs sharing their bounds. */
function shared(shape: CommitShape): boolean {
  return shape.logs === 'many' && shape.sharedBounds === true;
}

/**
 * The log appends of a commit, when nothing was refused: one row per log in `appends` (its
 * name, `keep`, `max_bytes`, how many entries its bounds dropped before sending, how many are
 * sent and their bytes, and whether the client drew a lazy trim), the entries in `logged`.
 *
 * **Numbering.** Every entry takes the next number of the table's sequence (`<table>_log_seq`):
 * no row is locked to number it, so commits to one log (every write of one level appends to
 * its log) never wait for each other. Entries of one commit are numbered in their order; a
 * log's entries are read in number order. The head row of a log (`<table>_log_head`) is
 * inserted on its first append and lists the log.
 *
 * **Bounds.** Each entry carries its append's `keep` and `max_bytes`, and readers keep the
 * newest entries within the newest entry's bounds (`keptEntriesSql` in `option-table-sql.ts`):
 * with the same bounds on every append, that is exactly what trimming after each append would
 * leave. Physically, a log is trimmed lazily: a commit trims a log when the client drew a trim
 * for it (a chance of `LAZY_TRIMS × sent / keep`, so a log holds about `keep × (1 + 1/LAZY_TRIMS)`
 * entries), when its bounds dropped entries before sending, or when its bounds differ from the
 * newest entry's (`n` in `due`). The trim finds the newest entry that goes (`cutSql`) and deletes it
 * and the older entries above the log's trim mark, each row `FOR UPDATE SKIP LOCKED`: two
 * commits trimming one log never wait for each other. Only a commit that may trim has these
 * steps (`CommitShape.trims`, `trimSql`): the others, most commits, plan and run about 25 µs
 * less, and raise `LOG_BOUNDS_CHANGED_MARKER` when they find a log's bounds changed.
 *
 * **The head row's trim mark** (`trimmed`: entries up to it are gone) bounds every walk of a
 * log, the trims' and the readers', to the entries since the last trim: the rows deleted
 * before it stay in the `(log, seq)` key until a vacuum, and are never walked again. A trim
 * moves it (`heads`, and sets `lost`: the log lost entries) when no other commit holds the
 * row (`claimed`, `SKIP LOCKED`; the other one is a trim moving it too). Dropped entries and
 * changed bounds move it whatever it takes, waiting for the row if need be, and their trim
 * deletes everything up to the cut: the mark then also hides entries a concurrent commit
 * inserted below it and a trim skipped. Only those rare commits wait for each other.
 */
function logSql(table: OptionTableName, p: Parameters, shape: CommitShape): string {
  const { logSql: log, logHeadSql: head, logSeqSql: seq } = table;
  const many = shape.logs === 'many';
  const go = 'NOT EXISTS (SELECT 1 FROM refused)';
  const array = many ? '[]' : '';
  const name = p.next(`text${array}`);
  // Shared bounds (a batch of migrated levels, a plan): one keep and maxBytes for every log.
  const boundsArray = many && !shared(shape) ? '[]' : '';
  const keep = p.next(`bigint${boundsArray}`);
  const maxBytes = shape.byteBound ? p.next(`bigint${boundsArray}`) : `NULL::bigint${boundsArray}`;
  const trims = shape.trims === true;
  const [dropped, added, bytes] = [
    p.next(`bigint${array}`),
    p.next(`bigint${array}`),
    p.next(`bigint${array}`),
  ];
  const trim = trims ? p.next(`boolean${array}`) : null;
  // The drawn trims, as an argument of `unnest` and a column of `appends` (trim shapes only).
  const [trimArgument, trimColumn] = trim === null ? ['', ''] : [`, ${trim}`, ', trim'];
  let appends: string;
  let entries: string;
  const number = `nextval('${seq}')`;
  if (!many) {
    appends = `SELECT ${name} AS log, ${keep} AS keep, ${maxBytes} AS max_bytes, ${dropped} AS dropped, ${added} AS added, ${bytes} AS bytes${trim === null ? '' : `, ${trim} AS trim`}`;
    entries =
      `SELECT ${name}, ${number}, e.entry, e.tag, ${keep}, ${maxBytes} ` +
      `FROM unnest(${p.next('text[]')}, ${p.next('text[]')}) AS e(entry, tag) WHERE ${go}`;
  } else if (shared(shape)) {
    appends =
      `SELECT a.log, ${keep} AS keep, ${maxBytes} AS max_bytes, a.dropped, a.added, a.bytes${trim === null ? '' : ', a.trim'} ` +
      `FROM unnest(${name}, ${dropped}, ${added}, ${bytes}${trimArgument}) AS a(log, dropped, added, bytes${trimColumn})`;
    // The entries come as one JSON array: JSON.stringify is native, where a text[] literal escapes
    // every entry in JavaScript (each history entry is JSON itself, full of quotes).
    const [logs, texts, tags] = [p.next('text[]'), p.next('json'), p.next('text[]')];
    const entryTexts = `ARRAY(SELECT j.entry FROM json_array_elements_text(${texts}) WITH ORDINALITY AS j(entry, n) ORDER BY j.n)`;
    entries =
      `SELECT e.log, ${number}, e.entry, e.tag, ${keep}, ${maxBytes} ` +
      `FROM unnest(${logs}, ${entryTexts}, ${tags}) AS e(log, entry, tag) WHERE ${go}`;
  } else {
    appends = `SELECT * FROM unnest(${name}, ${keep}, ${maxBytes}, ${dropped}, ${added}, ${bytes}${trimArgument}) AS a(log, keep, max_bytes, dropped, added, bytes${trimColumn})`;
    // Each entry with its log's bounds, so that no join reorders the entries before they are numbered.
    const [logs, texts, tags, keeps] = [
      p.next('text[]'),
      p.next('text[]'),
      p.next('text[]'),
      p.next('bigint[]'),
    ];
    const maxes = shape.byteBound ? p.next('bigint[]') : 'NULL::bigint[]';
    entries =
      `SELECT e.log, ${number}, e.entry, e.tag, e.keep, e.max_bytes ` +
      `FROM unnest(${logs}, ${texts}, ${tags}, ${keeps}, ${maxes}) AS e(log, entry, tag, keep, max_bytes) WHERE ${go}`;
  }
  // Every lookup of a log's rows goes through a LATERAL subquery kept apart by its LIMIT or
  // locking clause (never pulled up into a join), a parameterized scan of
  // the `(log, seq)` or `log` key per log: the planner never joins a whole table instead, even
  // with the statistics of the empty tables it was created as.
  return (
    `appends AS (${appends}), ` +
    'due AS (SELECT a.*, n.keep AS prior_keep, n.max_bytes AS prior_max_bytes, coalesce(hd.trimmed, 0) AS mark, ' +
    'hd.log IS NOT NULL AS listed, ' +
    'coalesce(n.seen AND (n.keep IS DISTINCT FROM a.keep OR n.max_bytes IS DISTINCT FROM a.max_bytes), false) AS changed ' +
    'FROM appends AS a LEFT JOIN LATERAL ' +
    `(SELECT e.keep, e.max_bytes, true AS seen FROM ${log} AS e WHERE e.log = a.log ORDER BY e.seq DESC LIMIT 1) AS n ON true ` +
    `LEFT JOIN LATERAL (SELECT h.log, h.trimmed FROM ${head} AS h WHERE h.log = a.log LIMIT 1) AS hd ON true WHERE ${go}), ` +
    `logged AS (INSERT INTO ${log} (log, seq, entry, tag, keep, max_bytes) ${entries} RETURNING 1), ` +
    (trims ? trimSql(log, head) : newHeadsSql(head))
  );
}

/**
 * The head rows of the logs a commit without trim steps appends to: inserted for a new log,
 * an existing one untouched (a unique check on it would wait for a commit moving its mark).
 */
function newHeadsSql(head: string): string {
  return (
    `heads AS (INSERT INTO ${head} AS h (log, trimmed, lost) SELECT d.log, 0, false FROM due AS d ` +
    'WHERE NOT d.listed ORDER BY d.log ON CONFLICT (log) DO NOTHING RETURNING 1)'
  );
}

/**
 * The trim steps of a commit that trims (see `CommitShape.trims`): the cut per log, the
 * deletes, the head rows it may move, and the head rows of new logs.
 */
function trimSql(log: string, head: string): string {
  return (
    `cuts AS (SELECT d.log, c.seq, d.mark, d.dropped > 0 OR d.changed AS must FROM due AS d CROSS JOIN LATERAL (${cutSql(log)}) AS c ` +
    'WHERE d.trim OR d.dropped > 0 OR d.changed), ' +
    // Deleted by row id, joined (a TID scan per row).
    `gone AS (DELETE FROM ${log} AS old USING (SELECT g.ctid AS id FROM cuts AS c CROSS JOIN LATERAL ` +
    `(SELECT e.ctid FROM ${log} AS e WHERE e.log = c.log AND e.seq <= c.seq AND (c.must OR e.seq > c.mark) ` +
    'FOR UPDATE OF e SKIP LOCKED) AS g) AS gone WHERE old.ctid = gone.id RETURNING 1), ' +
    `claimed AS (SELECT x.log FROM cuts AS c CROSS JOIN LATERAL (SELECT h.log FROM ${head} AS h WHERE h.log = c.log ` +
    'FOR UPDATE OF h SKIP LOCKED) AS x WHERE NOT c.must), ' +
    // The head rows: inserted for a new log; a listed one is touched only to move its mark (a
    // unique check on it would wait for a commit that is moving it).
    `heads AS (INSERT INTO ${head} AS h (log, trimmed, lost) ` +
    'SELECT d.log, coalesce(c.seq, 0), d.dropped > 0 OR c.seq IS NOT NULL FROM due AS d LEFT JOIN cuts AS c ON c.log = d.log ' +
    'WHERE NOT d.listed OR ((c.seq IS NOT NULL OR d.dropped > 0) AND (d.dropped > 0 OR d.changed ' +
    'OR d.log IN (SELECT claimed.log FROM claimed))) ORDER BY d.log ' +
    'ON CONFLICT (log) DO UPDATE SET trimmed = greatest(h.trimmed, EXCLUDED.trimmed), lost = true WHERE EXCLUDED.lost RETURNING 1)'
  );
}

/**
 * The newest stored entry of the log `d.log` that a trim removes (no row: none), found walking
 * its entries above the trim mark newest first: every one when the append dropped entries;
 * else the first beyond the new bounds, with the append's own entries counted ahead of the
 * stored ones (`d.added`, `d.bytes`; the newest entry is one of them, so it stays), or beyond
 * the prior bounds. The count bound cuts at `keep + 1` entries at the latest, so the walk (a
 * backward scan of the `(log, seq)` key) stops there.
 */
function cutSql(log: string): string {
  return (
    'SELECT w.seq FROM (SELECT k.seq, row_number() OVER o AS rank, sum(k.size) OVER o AS upto FROM ' +
    `(SELECT e.seq, octet_length(e.entry) AS size FROM ${log} AS e WHERE e.log = d.log AND e.seq > d.mark ` +
    'ORDER BY e.seq DESC LIMIT d.keep + 1) AS k WINDOW o AS (ORDER BY k.seq DESC)) AS w ' +
    'WHERE d.dropped > 0 OR w.rank + d.added > d.keep OR w.upto + d.bytes > d.max_bytes ' +
    'OR w.rank > d.prior_keep OR (w.rank > 1 AND w.upto > d.prior_max_bytes) ORDER BY w.seq DESC LIMIT 1'
  );
}
