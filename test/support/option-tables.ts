import { optionTableName } from '../../src/storage/postgres/table-name';

/** What can run one statement: a pg `Client`, `Pool` or `PoolClient`. */
interface Queryable {
  query(text: string): Promise<unknown>;
}

/**
 * Drops a PostgreSQL store's option table and the change-log tables beside it (`_log`, whose
 * sequence goes with it, and `_log_head`), by the names the store gives them.
 */
export async function dropOptionTables(client: Queryable, table: string): Promise<void> {
  const name = optionTableName(table);
  await client.query(`DROP TABLE IF EXISTS ${name.sql}, ${name.logSql}, ${name.logHeadSql}`);
}
