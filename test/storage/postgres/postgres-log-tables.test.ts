import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { expect, it } from 'vitest';
import { commitRequest } from '../../../src/storage/postgres/commit-parameters';
import { optionTableSql } from '../../../src/storage/postgres/option-table-sql';
import { optionTableName } from '../../../src/storage/postgres/table-name';
import type { StoreCommit } from '../../../src/storage/store-commit';
import { utf8Length } from '../../../src/storage/utf8-length';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';

describeWithService('DATABASE_URL', 'PostgresOptionStore change-log tables (0.3)', (url) => {
  const { pool, table: freshTable } = postgresSuite(url, { max: 4, prefix: 'cpf_logs' });

  /** The log table's columns, whether the tag index of earlier 0.3 builds is there, and the sequence's next number. */
  const layout = async (table: string) => {
    const { rows } = await pool.query(
      'SELECT to_regclass($1) IS NOT NULL AS tagIndex, ' +
        '(SELECT array_agg(attname::text ORDER BY attname) FROM pg_attribute WHERE attrelid = to_regclass($2) AND attnum > 0 AND NOT attisdropped) AS logColumns, ' +
        '(SELECT array_agg(attname::text ORDER BY attname) FROM pg_attribute WHERE attrelid = to_regclass($3) AND attnum > 0 AND NOT attisdropped) AS headColumns',
      [`"${table}_log_tag"`, `"${table}_log"`, `"${table}_log_head"`],
    );
    const { rows: sequence } = await pool.query(`SELECT last_value::text AS last FROM "${table}_log_seq"`);
    return { ...rows[0], sequenceAt: BigInt(sequence[0].last) };
  };

  /** The log's entries as stored, oldest first. */
  const storedEntries = async (table: string, log: string): Promise<string[]> => {
    const { rows } = await pool.query(`SELECT entry FROM "${table}_log" WHERE log = $1 ORDER BY seq`, [log]);
    return rows.map((row: { entry: string }) => row.entry);
  };

  it('log tables of 0.2 are brought to this version on first use; their entries stay, older than every new one, and count by their bytes', async () => {
    const table = freshTable();
    // The tables as 0.2 created them, with three entries.
    await pool.query(
      `CREATE TABLE "${table}" (key text COLLATE "C" PRIMARY KEY, value text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
    );
    await pool.query(
      `CREATE TABLE "${table}_log" (log text COLLATE "C" NOT NULL, seq bigint NOT NULL, entry text NOT NULL, PRIMARY KEY (log, seq))`,
    );
    await pool.query(
      `CREATE TABLE "${table}_log_head" (log text COLLATE "C" PRIMARY KEY, last bigint NOT NULL, trimmed bigint NOT NULL, prev_trimmed bigint NOT NULL)`,
    );
    await pool.query(
      `INSERT INTO "${table}_log" VALUES ('L', 1, '{"n":1}'), ('L', 2, '{"n":2}'), ('L', 3, '{"n":3}'), ('T', 5, '{"t":5}')`,
    );
    await pool.query(`INSERT INTO "${table}_log_head" VALUES ('L', 3, 0, 0), ('T', 5, 4, 4)`);
    const store = new PostgresOptionStore({ client: pool, table });
    const append = (log: string, entries: string[], bounds: { keep: number; maxBytes?: number }) =>
      store.commit({
        writes: [{ key: 'k', value: entries.join() }],
        log: { name: log, entries, ...bounds, tags: entries.map(() => 't') },
      });
    expect(await append('L', ['{"n":4}'], { keep: 10 })).toEqual({ ok: true });
    expect(await store.readLog('L', 10), 'the entries of 0.2 stay, in their order').toEqual([
      '{"n":4}',
      '{"n":3}',
      '{"n":2}',
      '{"n":1}',
    ]);
    expect(await store.readLogPage('L', { limit: 10, tag: 't' })).toEqual({
      entries: ['{"n":4}'],
      total: 1,
      trimmed: false,
    });
    expect(await store.readLogPage('T', { limit: 10 }), 'a log 0.2 trimmed has lost entries').toEqual({
      entries: ['{"t":5}'],
      total: 1,
      trimmed: true,
    });
    expect(await append('L', ['{"n":5}'], { keep: 10, maxBytes: 8 })).toEqual({ ok: true });
    expect(await store.readLogPage('L', { limit: 10 }), 'they count by their bytes').toEqual({
      entries: ['{"n":5}'],
      total: 1,
      trimmed: true,
    });
    expect(await storedEntries(table, 'L'), 'a change of bounds trims at once').toEqual(['{"n":5}']);
    expect(await append('N', ['{"new":1}'], { keep: 10 }), 'a new log in the old head table').toEqual({
      ok: true,
    });
    const { rows: heads } = await pool.query(
      `SELECT log, last::int AS last, prev_trimmed::int AS prev, lost FROM "${table}_log_head" ORDER BY log`,
    );
    expect(
      heads,
      'the old columns get 0 for a new log: an instance of 0.2 still running reads it as empty',
    ).toEqual([
      { log: 'L', last: 3, prev: 0, lost: true },
      { log: 'N', last: 0, prev: 0, lost: false },
      { log: 'T', last: 5, prev: 4, lost: true },
    ]);
    const upgraded = await layout(table);
    expect(upgraded).toMatchObject({
      tagindex: false,
      logcolumns: ['entry', 'keep', 'log', 'max_bytes', 'seq', 'tag'],
      headcolumns: ['last', 'log', 'lost', 'prev_trimmed', 'trimmed'],
    });
    // Above every number 0.2 gave, with room for the numbers a 0.2 instance still running gives.
    expect(upgraded.sequenceAt).toBeGreaterThan(5n + 2n ** 32n);
    await store.close();
  });

  it('log tables of earlier 0.3 builds are brought to this version; their tag index goes', async () => {
    const table = freshTable();
    await pool.query(
      `CREATE TABLE "${table}" (key text COLLATE "C" PRIMARY KEY, value text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
    );
    await pool.query(
      `CREATE TABLE "${table}_log" (log text COLLATE "C" NOT NULL, seq bigint NOT NULL, entry text NOT NULL, tag text COLLATE "C", bytes_before bigint, PRIMARY KEY (log, seq))`,
    );
    await pool.query(
      `CREATE TABLE "${table}_log_head" (log text COLLATE "C" PRIMARY KEY, last bigint NOT NULL, trimmed bigint NOT NULL, prev_trimmed bigint NOT NULL, bytes bigint NOT NULL DEFAULT 0)`,
    );
    await pool.query(
      `CREATE INDEX "${table}_log_tag" ON "${table}_log" (log, tag, seq) WHERE tag IS NOT NULL`,
    );
    await pool.query(
      `INSERT INTO "${table}_log" VALUES ('L', 7, 'a', 'x', 0), ('L', 8, 'b', 'y', 1), ('L', 9, 'c', 'x', 2)`,
    );
    await pool.query(`INSERT INTO "${table}_log_head" VALUES ('L', 9, 6, 6, 3)`);
    const store = new PostgresOptionStore({ client: pool, table });
    expect(await store.readLogPage('L', { limit: 10, tag: 'x' })).toEqual({
      entries: ['c', 'a'],
      total: 2,
      trimmed: true,
    });
    await store.commit({
      writes: [{ key: 'k', value: 'd' }],
      log: { name: 'L', entries: ['d'], keep: 3, tags: ['x'] },
    });
    expect(await store.readLog('L', 10)).toEqual(['d', 'c', 'b']);
    expect(await layout(table)).toMatchObject({
      tagindex: false,
      logcolumns: ['bytes_before', 'entry', 'keep', 'log', 'max_bytes', 'seq', 'tag'],
      headcolumns: ['bytes', 'last', 'log', 'lost', 'prev_trimmed', 'trimmed'],
    });
    await store.close();
  });

  // keep 2: each commit trims the log as well (a chance of 8 × 1 / 2), through the statement with the
  // trim steps; keep 1000: almost every commit runs the one without them (a chance of 0.8%).
  it.each([2, 1000])(
    'a commit to a log never waits for another commit to the same log that is still open (keep %i)',
    async (keep) => {
      const table = freshTable();
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      const open = new PostgresOptionStore({ client: holder, table });
      const other = new PostgresOptionStore({ client: pool, table });
      try {
        // The log has its head row already (and with keep 2 has lost entries): no commit below needs it.
        await other.commit({
          writes: [{ key: 'k0', value: 'x' }],
          log: { name: 'L', entries: ['1', '2', '3'], keep },
        });
        await holder.query('BEGIN');
        await open.commit({
          writes: [{ key: 'k1', value: 'x' }],
          log: { name: 'L', entries: ['held'], keep },
        });
        let settled = false;
        const second = other
          .commit({ writes: [{ key: 'k2', value: 'y' }], log: { name: 'L', entries: ['free'], keep } })
          .finally(() => {
            settled = true;
          });
        // Until the second commit settles, no session may be waiting for a lock on these tables.
        while (!settled) {
          const { rows } = await pool.query(
            "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1",
            [`%${table}%`],
          );
          expect(rows[0].waiting, 'a commit waits for the open one').toBe(0);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(await second).toEqual({ ok: true });
        await holder.query('COMMIT');
        expect(await other.readLog('L', 10), 'numbered in the order they were sent').toEqual(
          ['free', 'held', '3', '2', '1'].slice(0, keep),
        );
      } finally {
        await open.close();
        await other.close();
        await holder.end();
      }
    },
  );

  it('concurrent commits to one log under both bounds keep the newest entries that fit', async () => {
    const table = freshTable();
    const stores = Array.from({ length: 4 }, () => new PostgresOptionStore({ client: pool, table }));
    const maxBytes = 60;
    const entryOf = (index: number) => `${index}:${'é'.repeat(index % 7)}`;
    await Promise.all(
      Array.from({ length: 48 }, (_, index) =>
        stores[index % stores.length]!.commit({
          writes: [{ key: `k${index % 5}`, value: String(index) }],
          log: { name: 'shared', entries: [entryOf(index)], keep: 12, maxBytes, tags: [`t${index % 3}`] },
        }),
      ),
    );
    // One more commit once they are all in: its trim sees every entry.
    await stores[0]!.commit({
      writes: [{ key: 'last', value: 'x' }],
      log: { name: 'shared', entries: ['last'], keep: 12, maxBytes },
    });
    const kept = await stores[0]!.readLog('shared', 100);
    expect(kept[0]).toBe('last');
    expect(kept.length).toBeLessThanOrEqual(12);
    expect(kept.reduce((sum, entry) => sum + utf8Length(entry), 0)).toBeLessThanOrEqual(maxBytes);
    const page = await stores[0]!.readLogPage('shared', { limit: 100 });
    expect(page).toEqual({ entries: kept, total: kept.length, trimmed: true });
    const byTag = await Promise.all(
      ['t0', 't1', 't2'].map((tag) => stores[0]!.readLogPage('shared', { limit: 100, tag })),
    );
    expect(byTag.reduce((sum, each) => sum + each.total, 0)).toBe(kept.length - 1);
    for (const store of stores) await store.close();
  });

  it('scan pages keys by the primary key and log names by the head table', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: pool, table });
    for (const key of ['p/a', 'p/b', 'p/c', 'p%', 'q']) await store.set(key, 'v');
    await store.commit({
      writes: [{ key: 'q', value: 'w' }],
      logs: [{ name: 'p/log', entries: ['e'], keep: 2 }],
    });
    // Pages come in key order (ordered), each after the previous one's last item.
    expect(await store.scan({ prefix: 'p/', count: 2 })).toEqual({
      items: ['p/a', 'p/b'],
      cursor: 'p/b',
      ordered: true,
    });
    expect(await store.scan({ prefix: 'p/', count: 2, cursor: 'p/b' })).toEqual({
      items: ['p/c'],
      cursor: null,
      ordered: true,
    });
    expect(await store.scan({ prefix: 'p/', count: 5, values: true })).toEqual({
      items: ['p/a', 'p/b', 'p/c'],
      values: ['v', 'v', 'v'],
      cursor: null,
      ordered: true,
    });
    expect(await store.scan({ prefix: 'p', count: 10, logs: true })).toEqual({
      items: ['p/log'],
      cursor: null,
      ordered: true,
    });
    await store.close();
  });

  it('the commit and log read statements reach a log through its keys, never by reading a whole table, whatever the statistics', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: pool, table });
    const history = { keep: 1000, maxBytes: 1 << 20 };
    // A few logs in tables never analysed (as on a server without autovacuum): a prepared
    // statement's generic plan made now, while the tables are small, is kept as they grow, so
    // a plan that reads a whole table because it is small would read it on every commit.
    await store.commit({
      writes: [{ key: 'L1', value: 'v' }],
      logs: ['L1', 'L2'].map((name) => ({ name, entries: ['a', 'b'], ...history })),
    });
    const commits: Record<string, StoreCommit> = {
      'one key, one log': {
        writes: [{ key: 'L1', value: 'w', expect: 'v' }],
        checks: [{ key: 'L2', expect: null }],
        log: { name: 'L1', entries: ['d'], tags: ['t'], ...history },
      },
      'many logs sharing their bounds': {
        writes: [{ key: 'L1', value: 'w' }],
        logs: ['L1', 'L2', 'new'].map((name) => ({ name, entries: ['d', 'e'], ...history })),
      },
      'many logs with bounds of their own': {
        writes: [{ key: 'L1', value: 'w' }],
        logs: [
          { name: 'L1', entries: ['d'], keep: 5 },
          { name: 'L2', entries: ['d'], ...history },
        ],
      },
    };
    const sql = optionTableSql(optionTableName(table));
    const { logSql, logHeadSql } = optionTableName(table);
    const tables = [logSql, logHeadSql].map((name) => name.replaceAll('"', ''));
    const scanned = (node: PlanNode): string[] => [
      ...(node['Node Type'] === 'Seq Scan' ? [String(node['Relation Name'])] : []),
      ...(node.Plans ?? []).flatMap(scanned),
    ];
    const literal = (value: unknown) =>
      value === null
        ? 'NULL'
        : typeof value === 'string'
          ? `'${value.replaceAll("'", "''")}'`
          : String(value);
    const session = await pool.connect();
    try {
      // This session only: the plan every prepared commit settles on after its first executions.
      await session.query('SET plan_cache_mode = force_generic_plan');
      const statements: Array<[what: string, text: string, values: unknown[]]> = [
        // Each commit with the trim steps and without (the commits that draw no trim).
        ...Object.entries(commits).flatMap(
          ([what, commit]): Array<[string, string, unknown[]]> =>
            [true, false].map((trims) => {
              const options = trims ? { forceTrims: true } : { draw: () => false };
              const { shape, values } = commitRequest(commit, store.channel, 'message', options);
              expect(shape.trims === true).toBe(trims);
              return [`${what}${trims ? ', trimming' : ''}`, sql.commitStatement(shape).text, values];
            }),
        ),
        ['readLog', sql.readLog, ['L1', 10]],
        ['readLogPage', sql.readLogPage, ['L1', 0, 10]],
        ['readLogPage with a tag', sql.readLogPageTagged, ['L1', 0, 10, 't']],
      ];
      for (const [what, text, values] of statements) {
        await session.query(`PREPARE generic AS ${text}`);
        const { rows } = await session.query(
          `EXPLAIN (FORMAT JSON) EXECUTE generic(${values.map(literal).join(', ')})`,
        );
        await session.query('DEALLOCATE generic');
        const plan = (rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan;
        expect(
          scanned(plan).filter((relation) => tables.includes(relation)),
          `${what}: no sequential scan of the log tables`,
        ).toEqual([]);
      }
    } finally {
      session.release(true);
    }
    await store.close();
  });
});

/** A node of a plan as `EXPLAIN (FORMAT JSON)` gives it. */
interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly Plans?: PlanNode[];
}
