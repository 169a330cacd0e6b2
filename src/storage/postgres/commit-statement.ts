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
  /** How many logs it appends entries to: none, one (fields as scalars) or many (fields as arrays). */
  readonly logs: 'none' | 'one' | 'many';
  /** One of its logs has `maxBytes`. */
  readonly byteBound: boolean;
  /**
   * Its many logs share one `keep` and one `maxBytes` (a batch of migrated levels, a plan): they
   * are scalar parameters, and the update of each log's head row reads its own counts from the
   * row it tried to insert, never looking the log up among the others (see `logSql`).
   */
  readonly sharedBounds?: boolean;
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
 * many are sent, their bytes, then the entries, their tags and the bytes of the batch before
 * each; with many logs, the same per-log fields as arrays, then per entry its log, text, tag,
 * position in its log's batch and the bytes of that batch before it.
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
  const notify = [p.next('text'), p.next('text')] as const;
  const checks = shape.checks ? ([p.next('text[]'), p.next('text[]')] as const) : null;
  const writes = shape.single ? singleSetSql(table.sql, input, checks) : writesSql(table.sql, input, checks);
  const logs = shape.logs === 'none' ? '' : `, ${logSql(table, p, shape)}`;
  const result = commitResult(notify);
  const suffix = `${shape.single ? 's' : ''}${shape.checks ? 'k' : ''}${shape.logs === 'one' ? 'l' : shape.logs === 'many' ? 'm' : ''}${shape.byteBound ? 'b' : ''}${shared(shape) ? 'u' : ''}`;
  return { name: `${table.channel}_c${suffix}`, text: `${writes}${logs} ${result}` };
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
 * the one notification.
 */
function commitResult([channel, payload]: readonly [string, string]): string {
  return (
    'SELECT refused.key, refused.value, NULL::int AS conflict, NULL::text AS notified FROM refused ' +
    'UNION ALL ' +
    'SELECT NULL, NULL, ' +
    `CASE WHEN failed.n > 0 THEN ('${COMMIT_CONFLICT_MARKER}:' || failed.n)::int ELSE 0 END, ` +
    `pg_notify(${channel}, ${payload})::text FROM failed WHERE NOT EXISTS (SELECT 1 FROM refused)`
  );
}

/** How the log SQL names a log's fields: parameters (one log) or columns of `appends` (many). */
interface LogFields {
  readonly log: string;
  readonly keep: string;
  readonly maxBytes: string | null;
  readonly dropped: string;
  readonly added: string;
  readonly bytes: string;
}

/**
 * The log appends of a commit, when nothing was refused. The fields of one log are scalar
 * parameters (the hot path: the planner knows it is one row); those of many logs are parallel
 * arrays in the `appends` CTE, one row per log.
 *
 * Entries are numbered per log (`seq`, from 1; entries the bounds dropped before sending take
 * numbers too, so that they count as trimmed). The log's head row counts them (`last`),
 * remembers up to which number the log is trimmed (`trimmed`, and `prev_trimmed` before this
 * commit) and counts the bytes ever appended (`bytes`; each entry keeps the count before it,
 * `bytes_before`). The upsert of the head rows takes their row locks (in name order), so
 * concurrent commits to one log number their entries one after the other (a waiting commit
 * reads the head as the other one left it). The new trim mark is the highest of: the old one;
 * the `keep` bound; the dropped entries; and, with `maxBytes`, the byte bound — the entry before
 * the first one above the other marks whose `bytes_before` is within `maxBytes` of the new byte
 * count, found by walking the `(log, seq)` key up from those marks, so a write reads the
 * entries the byte bound trims and one more (an entry without `bytes_before`, written by 0.2,
 * stops the walk and is kept until `keep` removes it). When every visible entry is beyond the bound, the mark is the newest
 * visible one (an entry a concurrent commit made after this statement's snapshot is left for a
 * later trim).
 *
 * The trim then deletes exactly the entries that fell out since the last trim, in the logs whose
 * mark this commit moved (a log below its bounds is not read) — an index range
 * scan of the `(log, seq)` key bounded on both sides: for one log, on the log's name and the head
 * row's marks (the planner knows the head is one row, as in 0.2); for many, per log through a
 * LATERAL subquery (kept apart by `OFFSET 0`, so the planner cannot turn it into a hash join that
 * reads the whole table), the rows then deleted by their row ids (a TID scan). It never walks
 * the dead index entries that earlier trims left at the old end of the log (a trim by
 * `ORDER BY … OFFSET keep` walks all of them, and costs more with every write until a vacuum). The range reaches 64
 * numbers below the last trim, to catch an entry a concurrent commit inserted after this
 * statement's snapshot was taken (only possible with a `keep` smaller than the commits in flight);
 * such an entry stays at most until the next commit that moves the mark, which is the next
 * append once the log is full.
 */
function logSql(table: OptionTableName, p: Parameters, shape: CommitShape): string {
  if (shared(shape)) return sharedBoundsLogSql(table, p, shape);
  const { logSql: log, logHeadSql: head } = table;
  const many = shape.logs === 'many';
  let appends: string;
  let fields: LogFields;
  if (many) {
    const [name, keep] = [p.next('text[]'), p.next('bigint[]')];
    const maxBytes = shape.byteBound ? p.next('bigint[]') : 'NULL::bigint[]';
    const [dropped, added, bytes] = [p.next('bigint[]'), p.next('bigint[]'), p.next('bigint[]')];
    appends =
      `appends AS (SELECT * FROM unnest(${name}, ${keep}, ${maxBytes}, ${dropped}, ${added}, ${bytes}) ` +
      'AS a(log, keep, max_bytes, dropped, added, bytes)), ';
    fields = {
      log: 'a.log',
      keep: 'a.keep',
      maxBytes: shape.byteBound ? 'a.max_bytes' : null,
      dropped: 'a.dropped',
      added: 'a.added',
      bytes: 'a.bytes',
    };
  } else {
    const [name, keep] = [p.next('text'), p.next('bigint')];
    const maxBytes = shape.byteBound ? p.next('bigint') : null;
    fields = {
      log: name,
      keep,
      maxBytes,
      dropped: p.next('bigint'),
      added: p.next('bigint'),
      bytes: p.next('bigint'),
    };
    appends = '';
  }
  const { keep, maxBytes, dropped, added, bytes } = fields;
  const byCount = `greatest(h.trimmed, h.last + ${dropped} + ${added} - ${keep})`;
  const bound = maxBytes === null ? '' : `, ${byteBoundSql(log, fields.log, maxBytes, bytes, byCount)}`;
  const trimmed = `greatest(${byCount}, CASE WHEN ${dropped} > 0 THEN h.last + ${dropped} ELSE 0 END${bound})`;
  const update = many
    ? `(prev_trimmed, trimmed, last, bytes) = (SELECT h.trimmed, ${trimmed}, h.last + EXCLUDED.last, ` +
      'h.bytes + EXCLUDED.bytes FROM appends AS a WHERE a.log = h.log)'
    : `prev_trimmed = h.trimmed, trimmed = ${trimmed}, last = h.last + EXCLUDED.last, bytes = h.bytes + EXCLUDED.bytes`;
  const headRows = many
    ? 'SELECT a.log, a.dropped + a.added, a.dropped, 0, a.bytes FROM appends AS a WHERE NOT EXISTS (SELECT 1 FROM refused) ORDER BY a.log'
    : `SELECT ${fields.log}, ${dropped} + ${added}, ${dropped}, 0, ${bytes} WHERE NOT EXISTS (SELECT 1 FROM refused)`;
  const entries = many
    ? `SELECT e.log, head.last - a.added + e.position, e.entry, e.tag, head.bytes - a.bytes + e.bytes_before FROM unnest(${p.next('text[]')}, ${p.next('text[]')}, ${p.next('text[]')}, ${p.next('bigint[]')}, ${p.next('bigint[]')}) AS e(log, entry, tag, position, bytes_before) JOIN head ON head.log = e.log JOIN appends AS a ON a.log = e.log`
    : `SELECT head.log, head.last - ${added} + e.position, e.entry, e.tag, head.bytes - ${bytes} + e.bytes_before FROM unnest(${p.next('text[]')}, ${p.next('text[]')}, ${p.next('bigint[]')}) WITH ORDINALITY AS e(entry, tag, bytes_before, position) CROSS JOIN head`;
  const trim = many
    ? manyLogsTrimSql(log)
    : `DELETE FROM ${log} AS old USING head WHERE head.trimmed > head.prev_trimmed AND old.log = ${fields.log} ` +
      'AND old.seq > head.prev_trimmed - 64 AND old.seq <= head.trimmed';
  return (
    appends +
    `head AS (INSERT INTO ${head} AS h (log, last, trimmed, prev_trimmed, bytes) ${headRows} ` +
    `ON CONFLICT (log) DO UPDATE SET ${update} RETURNING h.log, h.last, h.trimmed, h.prev_trimmed, h.bytes), ` +
    `logged AS (INSERT INTO ${log} (log, seq, entry, tag, bytes_before) ${entries} RETURNING 1), ` +
    `trimmed AS (${trim} RETURNING 1)`
  );
}

/** Whether `shape` is many logs sharing their bounds. */
function shared(shape: CommitShape): boolean {
  return shape.logs === 'many' && shape.sharedBounds === true;
}

/**
 * The log appends of many logs sharing one `keep` and `maxBytes` (scalar parameters), as
 * `logSql` does for many logs, the entries' texts as one JSON array. The row each head upsert tries to insert carries that log's
 * counts (`last` = dropped + added, `trimmed` = dropped, `bytes`), so the update on conflict
 * reads them from `EXCLUDED` instead of finding the log among the commit's others (a lookup per
 * head row, quadratic in the number of logs: 60 ms for 1,000 logs).
 */
function sharedBoundsLogSql(table: OptionTableName, p: Parameters, shape: CommitShape): string {
  const { logSql: log, logHeadSql: head } = table;
  const [name, keep] = [p.next('text[]'), p.next('bigint')];
  const maxBytes = shape.byteBound ? p.next('bigint') : null;
  const [dropped, added, bytes] = [p.next('bigint[]'), p.next('bigint[]'), p.next('bigint[]')];
  const appends = `appends AS (SELECT * FROM unnest(${name}, ${dropped}, ${added}, ${bytes}) AS a(log, dropped, added, bytes)), `;
  const byCount = `greatest(h.trimmed, h.last + EXCLUDED.last - ${keep})`;
  const bound =
    maxBytes === null ? '' : `, ${byteBoundSql(log, 'h.log', maxBytes, 'EXCLUDED.bytes', byCount)}`;
  const trimmed = `greatest(${byCount}, CASE WHEN EXCLUDED.trimmed > 0 THEN h.last + EXCLUDED.trimmed ELSE 0 END${bound})`;
  // The entries come as one JSON array: JSON.stringify is native, where a text[] literal escapes
  // every entry in JavaScript (each history entry is JSON itself, full of quotes).
  const [logs, texts] = [p.next('text[]'), p.next('json')];
  const entryTexts = `ARRAY(SELECT j.entry FROM json_array_elements_text(${texts}) WITH ORDINALITY AS j(entry, n) ORDER BY j.n)`;
  const entries =
    `SELECT e.log, head.last - a.added + e.position, e.entry, e.tag, head.bytes - a.bytes + e.bytes_before FROM unnest(${logs}, ${entryTexts}, ${p.next('text[]')}, ${p.next('bigint[]')}, ${p.next('bigint[]')}) ` +
    'AS e(log, entry, tag, position, bytes_before) JOIN head ON head.log = e.log JOIN appends AS a ON a.log = e.log';
  return (
    appends +
    `head AS (INSERT INTO ${head} AS h (log, last, trimmed, prev_trimmed, bytes) ` +
    'SELECT a.log, a.dropped + a.added, a.dropped, 0, a.bytes FROM appends AS a WHERE NOT EXISTS (SELECT 1 FROM refused) ORDER BY a.log ' +
    `ON CONFLICT (log) DO UPDATE SET prev_trimmed = h.trimmed, trimmed = ${trimmed}, ` +
    'last = h.last + EXCLUDED.last, bytes = h.bytes + EXCLUDED.bytes ' +
    'RETURNING h.log, h.last, h.trimmed, h.prev_trimmed, h.bytes), ' +
    `logged AS (INSERT INTO ${log} (log, seq, entry, tag, bytes_before) ${entries} RETURNING 1), ` +
    `trimmed AS (${manyLogsTrimSql(log)} RETURNING 1)`
  );
}

/** The trim of many logs: per head row, the entries that fell out since its last trim (see `logSql`). */
function manyLogsTrimSql(log: string): string {
  return (
    `DELETE FROM ${log} AS old USING (SELECT e.ctid AS id FROM head CROSS JOIN LATERAL ` +
    `(SELECT e.ctid FROM ${log} AS e WHERE e.log = head.log AND e.seq > head.prev_trimmed - 64 ` +
    'AND e.seq <= head.trimmed OFFSET 0) AS e WHERE head.trimmed > head.prev_trimmed) AS gone WHERE old.ctid = gone.id'
  );
}

/**
 * The byte bound's trim mark inside the head's update (`h`: the head row as it is; 0 without a
 * bound), walking up from `from`, the mark the other bounds set.
 */
function byteBoundSql(log: string, name: string, maxBytes: string, bytes: string, from: string): string {
  return (
    `CASE WHEN ${maxBytes} IS NULL THEN 0 ELSE coalesce(` +
    `(SELECT e.seq - 1 FROM ${log} AS e WHERE e.log = ${name} AND e.seq > ${from} ` +
    `AND (e.bytes_before IS NULL OR e.bytes_before >= h.bytes + ${bytes} - ${maxBytes}) ORDER BY e.seq LIMIT 1), ` +
    `(SELECT max(e.seq) FROM ${log} AS e WHERE e.log = ${name} AND e.seq <= h.last), 0) END`
  );
}
