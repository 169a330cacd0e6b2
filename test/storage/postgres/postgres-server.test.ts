import { OptionStoreError } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';
import { eventually } from '../fixtures/shop-settings';

describeWithService('DATABASE_URL', 'PostgresOptionStore on a PostgreSQL server', (url) => {
  const { pool, table: freshTable } = postgresSuite(url, { max: 4, prefix: 'cpf_server' });
  /** A second session, for transactions that hold locks while the store works. */
  const admin = new pg.Client({ connectionString: url });
  /** The backends LISTENing on `channel`. */
  const listenerPids = async (channel: string): Promise<number[]> => {
    const { rows } = await pool.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
      [`LISTEN "${channel}"`],
    );
    return rows.map((row) => row.pid);
  };
  /** The backends waiting for a lock while running a statement that starts with `start`. */
  const blockedPids = async (start: string): Promise<number[]> => {
    const { rows } = await pool.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND starts_with(query, $1)",
      [start],
    );
    return rows.map((row) => row.pid);
  };

  beforeAll(() => admin.connect());
  afterAll(async () => {
    await admin.query('ROLLBACK').catch(() => undefined);
    await admin.end();
  });

  it('instances starting at the same moment on a fresh table all succeed', async () => {
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    for (const each of pools) each.on('error', () => {});
    try {
      for (let round = 0; round < 5; round++) {
        const table = freshTable();
        const stores = pools.map((client) => new PostgresOptionStore({ client, table }));
        await Promise.all(stores.map((store, index) => store.set(`from-${index}`, String(index))));
        expect((await stores[0]!.getMany(['from-0', 'from-1', 'from-2', 'from-3'])).size).toBe(4);
      }
    } finally {
      await Promise.all(pools.map((each) => each.end()));
    }
  });

  it('instances committing with a change log at the same moment on fresh tables all succeed', async () => {
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    for (const each of pools) each.on('error', () => {});
    try {
      for (let round = 0; round < 8; round++) {
        const table = freshTable();
        const stores = pools.map((client) => new PostgresOptionStore({ client, table }));
        const results = await Promise.all(
          stores.map((store, index) =>
            store.commit({
              writes: [{ key: `k${index}`, value: 'v' }],
              log: { name: 'log', entries: [`e${index}`], keep: 10 },
            }),
          ),
        );
        expect(results.every((result) => result.ok)).toBe(true);
        expect((await stores[0]!.readLog('log', 10)).sort()).toEqual(['e0', 'e1', 'e2', 'e3']);
      }
    } finally {
      await Promise.all(pools.map((each) => each.end()));
    }
  });

  it('a commit that waited on a row another session inserted meanwhile rolls back and reports its text', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: pool, table });
    await store.set('other', 'before');
    await admin.query('BEGIN');
    await admin.query(`INSERT INTO "${table}" (key, value) VALUES ('k', 'theirs')`);
    const commit = store.commit({
      writes: [
        { key: 'other', value: 'after', expect: 'before' },
        { key: 'k', value: 'mine', expect: null },
      ],
      log: { name: 'log', entries: ['entry'], keep: 5 },
    });
    // The store's INSERT … ON CONFLICT waits for the other session's uncommitted row…
    expect(await eventually(async () => (await blockedPids('WITH input AS')).length === 1)).toBe(true);
    // …which commits: the condition no longer holds, and the whole statement rolls back.
    await admin.query('COMMIT');
    expect(await commit).toEqual({ ok: false, current: new Map([['k', 'theirs']]) });
    expect(await store.getMany(['other', 'k'])).toEqual(
      new Map([
        ['other', 'before'],
        ['k', 'theirs'],
      ]),
    );
    expect(await store.readLog('log', 5)).toEqual([]);
  });

  it('runs commits as named prepared statements on each connection, unless preparedStatements is false', async () => {
    const prepared = async (preparedStatements: boolean): Promise<string[]> => {
      const single = new pg.Pool({ connectionString: url, max: 1 });
      single.on('error', () => {});
      try {
        const store = new PostgresOptionStore({ client: single, table: freshTable(), preparedStatements });
        await store.commit({
          writes: [{ key: 'k', value: 'v' }],
          log: { name: 'log', entries: ['e'], keep: 5 },
        });
        expect(await store.commit({ writes: [{ key: 'k', value: 'w', expect: 'v' }] })).toEqual({ ok: true });
        expect(await store.commit({ writes: [{ key: 'k', value: 'x', expect: 'v' }] })).toEqual({
          ok: false,
          current: new Map([['k', 'w']]),
        });
        // A delete, or several keys, take the general statement; one key set the single-key one.
        expect(await store.commit({ writes: [{ key: 'k', value: null, expect: 'w' }] })).toEqual({
          ok: true,
        });
        const { rows } = await single.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
        return rows.map((row) => row.name.replace(store.channel, '<channel>')).sort();
      } finally {
        await single.end();
      }
    };
    // `keep: 5` trims at every append (a chance of 8 × 1 / 5): the shape with the trim steps (`t`);
    // each notification is versioned (`v`).
    expect(await prepared(true)).toEqual(['<channel>_csltv', '<channel>_csv', '<channel>_cv']);
    expect(await prepared(false)).toEqual([]);
  });

  it('a CREATE TABLE that loses the race to another session is not an error', async () => {
    const table = freshTable();
    await admin.query('BEGIN');
    await admin.query(
      `CREATE TABLE "${table}" (key text COLLATE "C" PRIMARY KEY, value text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
    );
    const store = new PostgresOptionStore({ client: pool, table });
    const first = store.get('k');
    // The store's CREATE TABLE IF NOT EXISTS now waits for the other session's uncommitted one…
    expect(
      await eventually(async () => (await blockedPids(`CREATE TABLE IF NOT EXISTS "${table}"`)).length === 1),
    ).toBe(true);
    // …which commits: PostgreSQL then fails the waiting CREATE with a unique violation.
    await admin.query('COMMIT');
    await expect(first).resolves.toBeUndefined();
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
  });

  it("works on a single pg Client: queries and watch on the caller's connection, which close() leaves open", async () => {
    const table = freshTable();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const onClient = new PostgresOptionStore({ client, table });
      const onPool = new PostgresOptionStore({ client: pool, table });
      const seen: string[] = [];
      let resyncs = 0;
      onClient.watch(
        (key) => seen.push(key),
        () => resyncs++,
      );
      expect(await eventually(() => resyncs === 1)).toBe(true);
      await onClient.set('own', 'x');
      await onPool.set('theirs', 'y');
      expect(await eventually(() => seen.includes('theirs'))).toBe(true);
      expect(seen).toEqual(['theirs']);
      await onClient.close();
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('close() ends the LISTEN connection it opened and leaves the pool open', async () => {
    const store = new PostgresOptionStore({ client: pool, table: freshTable() });
    let resyncs = 0;
    store.watch(
      () => {},
      () => resyncs++,
    );
    expect(await eventually(() => resyncs === 1)).toBe(true);
    expect(await listenerPids(store.channel)).toHaveLength(1);
    const poolSize = pool.totalCount;
    await store.close();
    expect(await eventually(async () => (await listenerPids(store.channel)).length === 0)).toBe(true);
    expect(pool.ended).toBe(false);
    expect(pool.totalCount).toBe(poolSize);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('the last unsubscribe ends the LISTEN connection; a new subscriber opens one again', async () => {
    const store = new PostgresOptionStore({ client: pool, table: freshTable() });
    let resyncs = 0;
    const first = store.watch(
      () => {},
      () => resyncs++,
    );
    const second = store.watch(() => {});
    expect(await eventually(() => resyncs === 1)).toBe(true);
    first();
    expect(await listenerPids(store.channel)).toHaveLength(1);
    second();
    expect(await eventually(async () => (await listenerPids(store.channel)).length === 0)).toBe(true);
    const third = store.watch(
      () => {},
      () => resyncs++,
    );
    expect(await eventually(() => resyncs === 2)).toBe(true);
    expect(await listenerPids(store.channel)).toHaveLength(1);
    third();
    await store.close();
  });

  it('an operation that outlasts timeoutMs rejects as timed out; a write that lands later is reported to own subscribers', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: pool, table, timeoutMs: 300 });
    await store.set('k', 'before');
    const seen: string[] = [];
    store.watch((key) => seen.push(key));
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    try {
      const write = await store.set('k', 'late').catch((caught: unknown) => caught);
      expect(write).toBeInstanceOf(OptionStoreError);
      expect(write).toMatchObject({ store: 'PostgresOptionStore', operation: 'set', timedOut: true });
      expect((write as Error).message).toBe(
        'PostgresOptionStore.set timed out after 300 ms (its outcome is unknown)',
      );
      const read = await store.get('k').catch((caught: unknown) => caught);
      expect(read).toMatchObject({ operation: 'get', timedOut: true });
    } finally {
      await admin.query('COMMIT');
    }
    // The blocked write goes through once the lock is released; its caller was told it failed.
    expect(await eventually(() => seen.includes('k'))).toBe(true);
    expect(await new PostgresOptionStore({ client: pool, table }).get('k')).toBe('late');
    await store.close();
  });
});
