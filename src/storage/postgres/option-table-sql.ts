import type { OptionTableName } from './table-name';

/**
 * The SQL a {@link PostgresOptionStore} runs against its table. The table name is checked and
 * quoted (see `optionTableName`); keys, values, the channel and the notification payload are
 * always bound parameters.
 *
 * Writes notify in the same statement as they change the row: the notification is sent when,
 * and only when, the change commits, so no instance hears of a write that did not happen and
 * none misses one that did.
 */
export interface OptionTableSql {
  /** `$1` the quoted table name as text: one row, `present` true when the table exists. */
  readonly exists: string;
  /** Creates the table when missing. */
  readonly create: string;
  /** `$1` key: the value row, if any. */
  readonly get: string;
  /** `$1` text[] of keys: key and value rows of the keys present. */
  readonly getMany: string;
  /** `$1` key, `$2` value, `$3` channel, `$4` payload: upserts the row and notifies. */
  readonly set: string;
  /** `$1` key, `$2` channel, `$3` payload: deletes the row and notifies; one row when a row was removed. */
  readonly delete: string;
}

/** The statements for `table`. */
export function optionTableSql(table: OptionTableName): OptionTableSql {
  const t = table.sql;
  return {
    exists: 'SELECT to_regclass($1) IS NOT NULL AS present',
    create:
      `CREATE TABLE IF NOT EXISTS ${t} (` +
      'key text COLLATE "C" PRIMARY KEY, ' +
      'value text NOT NULL, ' +
      'updated_at timestamptz NOT NULL DEFAULT now())',
    get: `SELECT value FROM ${t} WHERE key = $1`,
    getMany: `SELECT key, value FROM ${t} WHERE key = ANY($1::text[])`,
    set:
      `WITH written AS (INSERT INTO ${t} (key, value, updated_at) VALUES ($1, $2, now()) ` +
      'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at ' +
      'RETURNING 1) SELECT pg_notify($3, $4) FROM written',
    delete:
      `WITH removed AS (DELETE FROM ${t} WHERE key = $1 RETURNING 1) ` +
      'SELECT pg_notify($2, $3) FROM removed',
  };
}
