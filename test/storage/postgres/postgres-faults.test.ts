import { OptionStoreError } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';
import { eventually, ShopSettings, uniqueSuffix } from '../fixtures/shop-settings';
import { expectNoAcknowledgedWriteLost } from '../fixtures/writes-under-kills';

describeWithService('DATABASE_URL', 'PostgresOptionStore when connections die', (url) => {
  const suffix = uniqueSuffix();
  const { pool, table: freshTable } = postgresSuite(url, { max: 4, prefix: 'cpf_faults' });
  /** Holds locks in a transaction. */
  const admin = new pg.Client({ connectionString: url });
  /** Kills backends, outside any transaction. */
  const killer = new pg.Client({ connectionString: url });
  const listenerPids = async (channel: string): Promise<number[]> => {
    const { rows } = await killer.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
      [`LISTEN "${channel}"`],
    );
    return rows.map((row) => row.pid);
  };
  /** Terminates a backend and waits (up to 5 s) until it is gone. */
  const terminate = async (pid: number) => {
    await killer.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
  };

  beforeAll(async () => {
    await admin.connect();
    await killer.connect();
  });
  afterAll(async () => {
    await admin.query('ROLLBACK').catch(() => undefined);
    await admin.end();
    await killer.end();
  });

  it('a write whose connection is killed mid-flight rejects with OptionStoreError and changes nothing', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: pool, table });
    await store.set('k', 'before');
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    const write = store.set('k', 'in flight').catch((caught: unknown) => caught);
    let pid: number | undefined;
    expect(
      await eventually(async () => {
        const { rows } = await killer.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND starts_with(query, $1)",
          [`WITH written AS (INSERT INTO "${table}"`],
        );
        pid = rows[0]?.pid;
        return pid !== undefined;
      }),
    ).toBe(true);
    await terminate(pid!);
    const error = await write;
    await admin.query('ROLLBACK');
    expect(error).toBeInstanceOf(OptionStoreError);
    expect(error).toMatchObject({ store: 'PostgresOptionStore', operation: 'set', timedOut: false });
    expect(((error as Error).cause as Error).message).toMatch(/terminat/i);
    // The store goes on: the pool replaced the dead connection.
    await store.set('after', 'ok');
    const fresh = new PostgresOptionStore({ client: pool, table });
    expect(await fresh.getMany(['k', 'after'])).toEqual(
      new Map([
        ['k', 'before'],
        ['after', 'ok'],
      ]),
    );
  });

  it('a lost LISTEN connection is reopened, reported, and followed by a resync', async () => {
    const table = freshTable();
    const errors: OptionStoreError[] = [];
    const watcher = new PostgresOptionStore({
      client: pool,
      table,
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
      onWatchError: (error) => errors.push(error),
    });
    const writer = new PostgresOptionStore({ client: pool, table });
    const seen: string[] = [];
    let resyncs = 0;
    watcher.watch(
      (key) => seen.push(key),
      () => resyncs++,
    );
    expect(await eventually(() => resyncs === 1)).toBe(true);
    const [before] = await listenerPids(watcher.channel);
    await terminate(before!);
    await writer.set('during-the-gap', 'x');
    expect(await eventually(() => resyncs === 2)).toBe(true);
    const after = await listenerPids(watcher.channel);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(errors[0]).toBeInstanceOf(OptionStoreError);
    expect(errors[0]).toMatchObject({ operation: 'watch', store: 'PostgresOptionStore' });
    await writer.set('after-the-gap', 'y');
    expect(await eventually(() => seen.includes('after-the-gap'))).toBe(true);
    await watcher.close();
    expect(await eventually(async () => (await listenerPids(watcher.channel)).length === 0)).toBe(true);
  });

  it('a settings instance whose LISTEN connection died still sees a change made meanwhile, without load()', async () => {
    const table = freshTable();
    // The writer is a bare store: it does not watch, so the reader's is the only LISTEN connection.
    const writer = new PostgresOptionStore({ client: pool, table });
    // The reader's connections (its pool's and its LISTEN connection, opened with the pool's
    // options) carry a name of their own. The LISTEN connection also runs the reader's reads, so
    // its last statement is not always the LISTEN: it is found by that name.
    const applicationName = `cpf_reader_${suffix}`;
    const readerPool = new pg.Pool({ connectionString: url, max: 2, application_name: applicationName });
    readerPool.on('error', () => {});
    const readerPids = async (): Promise<number[]> => {
      const { rows } = await killer.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      return rows.map((row) => row.pid);
    };
    // The first retry comes after 0.6 to 1.2 s: long enough for the write below to land in the gap.
    const readerStore = new PostgresOptionStore({
      client: readerPool,
      table,
      reconnect: { initialDelayMs: 1_200 },
    });
    const reader = new ShopSettings('shop', readerStore);
    // A store asks its subscribers to re-read when its LISTEN is in place: that is when to kill it.
    let listening = false;
    const unwatch = readerStore.watch(
      () => {},
      () => {
        listening = true;
      },
    );
    try {
      await reader.load();
      await writer.get('warm-up');
      expect(reader.getSetting('mode')!.getValue()).toBeNull();
      expect(await eventually(() => listening)).toBe(true);
      for (const pid of await readerPids()) await terminate(pid);
      await writer.set(reader.getOptionName('mode'), 'live');
      // The NOTIFY of that write found nobody listening for the reader: only the resync can tell it.
      expect(await readerPids()).toEqual([]);
      expect(await eventually(() => reader.getSetting('mode')!.getValue() === 'live')).toBe(true);
    } finally {
      unwatch();
      reader.dispose();
      await readerStore.close();
      await readerPool.end();
    }
  });

  it('no acknowledged write is lost while connections are killed during a run of writes', async () => {
    const table = freshTable();
    const applicationName = `cpf_chaos_${suffix}`;
    const chaosPool = new pg.Pool({ connectionString: url, max: 3, application_name: applicationName });
    chaosPool.on('error', () => {});
    try {
      const store = new PostgresOptionStore({ client: chaosPool, table });
      await store.get('warm-up');
      await expectNoAcknowledgedWriteLost({
        store,
        reader: new PostgresOptionStore({ client: pool, table }),
        count: 120,
        pauseMs: 15,
        killConnections: async () => {
          const { rows } = await killer.query<{ done: boolean }>(
            'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1',
            [applicationName],
          );
          return rows.filter((row) => row.done).length;
        },
      });
    } finally {
      await chaosPool.end();
    }
  });
});
