import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { utf8Length } from '../../../src/storage/utf8-length';
import { describeWithService } from '../../support/services';
import { uniqueSuffix } from '../fixtures/shop-settings';

describeWithService('DATABASE_URL', 'PostgresOptionStore change-log tables (0.3)', (url) => {
  const suffix = uniqueSuffix();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  const tables: string[] = [];
  const freshTable = () => {
    const table = `cpf_logs_${suffix}_${tables.length}`;
    tables.push(table);
    return table;
  };
  afterAll(async () => {
    for (const table of tables)
      await pool.query(`DROP TABLE IF EXISTS "${table}", "${table}_log", "${table}_log_head"`);
    await pool.end();
  });

  it('log tables of 0.2 are brought to 0.3 on first use; their entries stay, and stop the byte trim until keep removes them', async () => {
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
      `INSERT INTO "${table}_log" VALUES ('L', 1, '{"n":1}'), ('L', 2, '{"n":2}'), ('L', 3, '{"n":3}')`,
    );
    await pool.query(`INSERT INTO "${table}_log_head" VALUES ('L', 3, 0, 0)`);
    const store = new PostgresOptionStore({ client: pool, table });
    const append = (entries: string[], keep: number) =>
      store.commit({
        writes: [{ key: 'k', value: entries.join() }],
        log: { name: 'L', entries, keep, maxBytes: 8, tags: entries.map(() => 't') },
      });
    expect(await append(['{"n":4}'], 10)).toEqual({ ok: true });
    expect(await store.readLog('L', 10), 'entries of 0.2 stop the byte trim').toEqual([
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
    expect(await append(['{"n":5}'], 2)).toEqual({ ok: true });
    expect(await store.readLogPage('L', { limit: 10 }), 'keep removes them').toEqual({
      entries: ['{"n":5}'],
      total: 1,
      trimmed: true,
    });
    const { rows } = await pool.query(
      `SELECT to_regclass($1) IS NOT NULL AS indexed, (SELECT count(*)::int FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname IN ('tag', 'bytes_before')) AS columns`,
      [`"${table}_log_tag"`, `"${table}_log"`],
    );
    expect(rows[0]).toEqual({ indexed: true, columns: 2 });
    await store.close();
  });

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
});
