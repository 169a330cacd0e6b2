import type { StoreCommit } from '../store-commit';
import type { PgPool, PreparedQuery, QueryRows } from './postgres-client';

/**
 * How many rows (writes, checks and log entries together) make a commit large enough to run
 * without PostgreSQL's JIT compilation: the planner's cost of the commit statement grows with its
 * rows and passes `jit_above_cost` (default 100,000) at about 10,000 writes, where compiling the
 * statement's expressions (60–100 ms) costs more than the whole execution saves. Smaller commits
 * never reach the threshold and keep the one-statement path.
 */
export const JIT_FREE_COMMIT_ROWS = 4096;

/** Whether `commit` is large enough to run without JIT (see {@link JIT_FREE_COMMIT_ROWS}). */
export function isLargeCommit(commit: StoreCommit): boolean {
  let rows = commit.writes.length + (commit.checks?.length ?? 0) + (commit.log?.entries.length ?? 0);
  for (const log of commit.logs ?? []) rows += log.entries.length;
  return rows >= JIT_FREE_COMMIT_ROWS;
}

/**
 * Runs the commit statement `query` on a connection of `pool` in a transaction of its own with
 * JIT compilation off for that transaction only (`SET LOCAL`: the connection goes back to the pool
 * as it came). The statement is still the one atomic step it is alone; the transaction adds two
 * round trips (`BEGIN; SET LOCAL` and `COMMIT`), a fraction of a millisecond against the tens of
 * milliseconds a large commit takes. A failure of the statement rolls the transaction back and
 * rejects with the statement's error, as the statement alone would. Resolves to `'unsupported'`
 * without running anything when the server refuses the setting (a PostgreSQL without `jit`).
 */
export async function queryWithoutJit(
  pool: PgPool,
  query: PreparedQuery,
  prepared: boolean,
): Promise<QueryRows | 'unsupported'> {
  const connection = await pool.connect();
  let broken: Error | undefined;
  /** Ends the transaction; a connection where that fails is not given back for reuse. */
  const end = async (statement: 'COMMIT' | 'ROLLBACK'): Promise<void> => {
    try {
      await connection.query(statement);
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  };
  try {
    try {
      await connection.query('BEGIN; SET LOCAL jit = off');
    } catch {
      await end('ROLLBACK');
      return 'unsupported';
    }
    let rows: QueryRows;
    try {
      rows = prepared ? await connection.query(query) : await connection.query(query.text, query.values);
    } catch (error) {
      await end('ROLLBACK');
      throw error;
    }
    await end('COMMIT');
    return rows;
  } finally {
    connection.release(broken);
  }
}
