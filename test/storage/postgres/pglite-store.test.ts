import { OptionStoreError } from 'commerce-plugin-framework';
import { PostgresOptionStore, type PostgresQueryable } from 'commerce-plugin-framework/stores/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeChangeMessage } from '../../../src/storage/remote/change-message';
import { waitUntil } from '../../../src/testing/wait-until';
import { freshPglite } from '../../support/pglite-template';

const database = await freshPglite();
afterAll(() => database.close());

let tableNumber = 0;
/** A fresh table name for one test. */
const freshTable = () => `pglite_store_${++tableNumber}`;

/** A queryable that counts the statements it forwards to the real database (no listen: no change feed). */
function countingClient(): { client: PostgresQueryable; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    client: {
      query: (text, params) => {
        statements.push(text);
        return database.query(text, params);
      },
    },
  };
}

async function tableExists(name: string): Promise<boolean> {
  const { rows } = await database.query<{ present: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [name],
  );
  return rows[0]!.present;
}

describe('PostgresOptionStore: table', () => {
  it('rejects table names that are not identifiers, before any query', () => {
    for (const table of [
      '',
      'opt-ions',
      '1options',
      'a.b.c',
      'x"; DROP TABLE y; --',
      'sp ace',
      '.x',
      'x.',
      'a'.repeat(64),
    ]) {
      expect(() => new PostgresOptionStore({ client: database, table }), table).toThrow(TypeError);
    }
    expect(() => new PostgresOptionStore({ client: database, table: 'a'.repeat(63) })).not.toThrow();
    expect(() => new PostgresOptionStore({ client: database, table: 'shop.Options_$1' })).not.toThrow();
  });

  it('rejects a client without query', () => {
    expect(() => new PostgresOptionStore({ client: {} as PostgresQueryable })).toThrow(TypeError);
  });

  it('creates the table on first use with the documented columns', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: database, table });
    expect(await tableExists(table)).toBe(false);
    await store.get('anything');
    const { rows } = await database.query<{ column_name: string; data_type: string; is_nullable: string }>(
      'SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
      [table],
    );
    expect(rows).toEqual([
      { column_name: 'key', data_type: 'text', is_nullable: 'NO' },
      { column_name: 'value', data_type: 'text', is_nullable: 'NO' },
      { column_name: 'updated_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
    ]);
    // A second instance on the existing table does not try to create it again.
    const { client, statements } = countingClient();
    await new PostgresOptionStore({ client, table }).get('x');
    expect(statements.some((text) => text.startsWith('CREATE'))).toBe(false);
    await store.close();
  });

  it('defaults to the table "options"', async () => {
    const store = new PostgresOptionStore({ client: database });
    expect(store.table).toBe('options');
    // The channel is a wire name: every version of the package must derive the same one.
    expect(store.channel).toBe('cpf_options_ef286ca5');
    expect(new PostgresOptionStore({ client: database, table: 'Shop.Options' }).channel).toMatch(
      /^cpf_shop_options_[0-9a-f]{8}$/,
    );
    await store.set('default-table', 'yes');
    const { rows } = await database.query('SELECT value FROM options WHERE key = $1', ['default-table']);
    expect(rows).toEqual([{ value: 'yes' }]);
    await store.delete('default-table');
  });

  it('quotes the name: mixed case and schema-qualified names are used exactly as written', async () => {
    await database.query('CREATE SCHEMA IF NOT EXISTS shop');
    const upper = new PostgresOptionStore({ client: database, table: 'Options_Mixed' });
    const lower = new PostgresOptionStore({ client: database, table: 'options_mixed' });
    const qualified = new PostgresOptionStore({ client: database, table: 'shop.options' });
    await upper.set('k', 'upper');
    await lower.set('k', 'lower');
    await qualified.set('k', 'qualified');
    expect(await tableExists('"Options_Mixed"')).toBe(true);
    expect(await tableExists('options_mixed')).toBe(true);
    expect(await tableExists('shop.options')).toBe(true);
    expect(await upper.get('k')).toBe('upper');
    expect(await lower.get('k')).toBe('lower');
    expect(await qualified.get('k')).toBe('qualified');
    expect(upper.channel).not.toBe(lower.channel);
  });

  it('reports a failed table creation as an OptionStoreError and tries again on the next call', async () => {
    const store = new PostgresOptionStore({ client: database, table: 'missing_schema.options' });
    const error = await store.get('k').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionStoreError);
    expect(error).toMatchObject({ store: 'PostgresOptionStore', operation: 'get', timedOut: false });
    expect((error as Error).message).toMatch(/^PostgresOptionStore\.get failed: /);
    expect((error as Error).cause).toMatchObject({ code: '3F000' }); // invalid_schema_name
    await database.query('CREATE SCHEMA missing_schema');
    await store.set('k', 'now it exists');
    expect(await store.get('k')).toBe('now it exists');
  });
});

describe('PostgresOptionStore: queries', () => {
  it('getMany is one query, and no query at all for an empty list', async () => {
    const table = freshTable();
    const { client, statements } = countingClient();
    const store = new PostgresOptionStore({ client, table });
    await store.set('a', '1'); // creates the table
    statements.length = 0;
    const keys = Array.from({ length: 500 }, (_, index) => `k${index}`);
    expect((await store.getMany(['a', ...keys])).size).toBe(1);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/= ANY\(\$1/);
    statements.length = 0;
    expect(await store.getMany([])).toEqual(new Map());
    expect(statements).toHaveLength(0);
  });

  it('a set and a delete are one statement each: the row change and its notification together', async () => {
    const { client, statements } = countingClient();
    const store = new PostgresOptionStore({ client, table: freshTable() });
    await store.get('warm-up');
    statements.length = 0;
    await store.set('k', 'v');
    expect(await store.delete('k')).toBe(true);
    expect(await store.delete('k')).toBe(false);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/^WITH written AS \(INSERT .* ON CONFLICT \(key\) DO UPDATE .*pg_notify/);
    expect(statements[1]).toMatch(/^WITH removed AS \(DELETE .*pg_notify/);
    for (const text of statements) expect(text).not.toContain("'k'");
  });

  it('a value PostgreSQL cannot hold rejects with OptionStoreError and writes nothing', async () => {
    const store = new PostgresOptionStore({ client: database, table: freshTable() });
    await store.set('k', 'before');
    const error = await store.set('k', 'nul \u0000 inside').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionStoreError);
    expect(error).toMatchObject({ operation: 'set', store: 'PostgresOptionStore' });
    expect(await store.get('k')).toBe('before');
  });
});

describe('PostgresOptionStore: watch on PGlite', () => {
  it('asks subscribers to re-read once LISTEN is in place', async () => {
    const store = new PostgresOptionStore({ client: database, table: freshTable() });
    let resyncs = 0;
    const unsubscribe = store.watch(
      () => {},
      () => resyncs++,
    );
    expect(await waitUntil(() => resyncs === 1, 5_000)).toBe(true);
    unsubscribe();
    await store.close();
  });

  it('a key too long for a NOTIFY payload is written, and reported as a resync', async () => {
    const table = freshTable();
    const watcher = new PostgresOptionStore({ client: database, table });
    const writer = new PostgresOptionStore({ client: database, table });
    const changes: string[] = [];
    let resyncs = 0;
    watcher.watch(
      (key) => changes.push(key),
      () => resyncs++,
    );
    expect(await waitUntil(() => resyncs === 1, 5_000)).toBe(true);
    const longKey = `long-${'\u{1f600}'.repeat(2_000)}`; // 8 005 bytes in UTF-8
    await writer.set(longKey, 'long');
    expect(await writer.get(longKey)).toBe('long');
    expect(await waitUntil(() => resyncs === 2, 5_000)).toBe(true);
    await writer.set('short', 'x');
    expect(await waitUntil(() => changes.includes('short'), 5_000)).toBe(true);
    expect(changes).toEqual(['short']);
    await watcher.close();
    await writer.close();
  });

  it('any other notification on the channel (an operator after a manual edit) is a resync', async () => {
    const store = new PostgresOptionStore({ client: database, table: freshTable() });
    let resyncs = 0;
    store.watch(
      () => {},
      () => resyncs++,
    );
    expect(await waitUntil(() => resyncs === 1, 5_000)).toBe(true);
    await database.query('SELECT pg_notify($1, $2)', [store.channel, '']);
    expect(await waitUntil(() => resyncs === 2, 5_000)).toBe(true);
    await store.close();
  });

  it('a subscriber that throws does not stop the others, and its error goes to onWatchError', async () => {
    const table = freshTable();
    const errors: OptionStoreError[] = [];
    const watcher = new PostgresOptionStore({ client: database, table, onWatchError: (e) => errors.push(e) });
    const writer = new PostgresOptionStore({ client: database, table });
    const seen: string[] = [];
    watcher.watch(() => {
      throw new Error('subscriber bug');
    });
    let resyncs = 0;
    watcher.watch(
      (key) => seen.push(key),
      () => resyncs++,
    );
    expect(await waitUntil(() => resyncs === 1, 5_000)).toBe(true);
    await writer.set('k', 'v');
    expect(await waitUntil(() => seen.includes('k'), 5_000)).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toBeInstanceOf(OptionStoreError);
    expect(errors[0]!.message).toContain('subscriber bug');
    await watcher.close();
  });

  it('a client that only answers query has no change feed, and watch is harmless', async () => {
    const { client } = countingClient();
    const store = new PostgresOptionStore({ client, table: freshTable() });
    const unsubscribe = store.watch(() => {});
    unsubscribe();
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
  });
});

describe('PostgresOptionStore: close', () => {
  it('leaves the caller-owned PGlite open, and rejects later operations', async () => {
    const store = new PostgresOptionStore({ client: database, table: freshTable() });
    const unsubscribe = store.watch(() => {});
    await store.set('k', 'v');
    await store.close();
    await store.close(); // a second close is harmless
    unsubscribe();
    expect(database.closed).toBe(false);
    expect((await database.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    for (const operation of [store.get('k'), store.getMany(['k']), store.set('k', 'w'), store.delete('k')]) {
      const error = await operation.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OptionStoreError);
      expect((error as Error).message).toContain('closed');
    }
    expect(store.watch(() => {})).toBeTypeOf('function');
    expect(await new PostgresOptionStore({ client: database, table: store.table }).get('k')).toBe('v');
  });
});

describe('PostgresOptionStore: the store capability', () => {
  it('a commit is one statement: writes, log append and trim, and notification; a refused one too', async () => {
    const { client, statements } = countingClient();
    const store = new PostgresOptionStore({ client, table: freshTable() });
    await store.commit({
      writes: [{ key: 'a', value: '1' }],
      log: { name: 'log', entries: ['e0'], keep: 2 },
    });
    statements.length = 0;
    const applied = await store.commit({
      writes: [
        { key: 'a', value: '2', expect: '1' },
        { key: "b'; DROP TABLE x; --", value: 'secret value', expect: null },
        { key: 'c', value: null },
      ],
      log: { name: 'log', entries: ['e1', 'e2'], keep: 2 },
    });
    expect(applied).toEqual({ ok: true });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^WITH input AS \(SELECT \* FROM unnest\(/);
    expect(statements[0]).toContain('pg_notify');
    for (const text of ['DROP TABLE x', 'secret value', 'e1']) expect(statements[0]).not.toContain(text);
    expect(await store.readLog('log', 10)).toEqual(['e2', 'e1']);
    statements.length = 0;
    const refused = await store.commit({ writes: [{ key: 'a', value: '3', expect: '1' }] });
    expect(refused).toEqual({ ok: false, current: new Map([['a', '2']]) });
    expect(statements).toHaveLength(1);
    expect(await store.get('a')).toBe('2');
  });

  it('keeps the change log in the table <table>_log beside the options table, created on first use', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: database, table });
    await store.set('k', 'v');
    expect(await tableExists(`${table}_log`)).toBe(false);
    await store.commit({
      writes: [{ key: 'k', value: 'w' }],
      log: { name: 'history', entries: ['entry'], keep: 5 },
    });
    const { rows } = await database.query(`SELECT log, entry FROM "${table}_log"`);
    expect(rows).toEqual([{ log: 'history', entry: 'entry' }]);
    const long = `t${'x'.repeat(62)}`;
    const longStore = new PostgresOptionStore({ client: database, table: long });
    await longStore.commit({
      writes: [{ key: 'k', value: 'v' }],
      log: { name: 'history', entries: ['e'], keep: 5 },
    });
    const { rows: logTables } = await database.query<{ relname: string }>(
      "SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'txxx%_log'",
    );
    expect(logTables).toHaveLength(1);
    expect(logTables[0]!.relname).toMatch(/^tx+_[0-9a-f]{8}_log$/);
    expect(logTables[0]!.relname.length).toBe(63);
    expect(await longStore.readLog('history', 5)).toEqual(['e']);
  });

  it('numbers log entries from one sequence, trims lazily near the bound, and at once when the bounds change', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: database, table });
    const append = (log: string, entry: string, keep: number) =>
      store.commit({ writes: [{ key: log, value: entry }], log: { name: log, entries: [entry], keep } });
    const stored = async (log: string) =>
      (
        await database.query<{ seq: string; entry: string }>(
          `SELECT e.seq::text AS seq, e.entry FROM "${table}_log" AS e WHERE e.log = $1 ORDER BY e.seq`,
          [log],
        )
      ).rows;
    let most = 0;
    for (let n = 1; n <= 200; n++) {
      await append('h', `e${n}`, 10);
      if (n % 50 === 0) await append('other', `o${n / 50}`, 10);
      most = Math.max(most, (await stored('h')).length);
    }
    expect(await store.readLog('h', 100)).toEqual(
      Array.from({ length: 10 }, (_, index) => `e${200 - index}`),
    );
    // A trim is drawn with a chance of 8 / 10 per commit here: 40 commits in a row without one
    // would take a chance of 0.2^40.
    expect(most, 'the log stays near its bound').toBeLessThanOrEqual(50);
    const [h, other] = [await stored('h'), await stored('other')];
    expect(h.map((row) => row.entry)).toEqual(
      h.map((row) => row.entry).sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))),
    );
    expect(other.map((row) => row.entry)).toEqual(['o1', 'o2', 'o3', 'o4']);
    expect(BigInt(other[3]!.seq), 'the logs share one sequence: o4 came right after e200').toBe(
      BigInt(h.at(-1)!.seq) + 1n,
    );
    const { rows: heads } = await database.query(`SELECT log, lost FROM "${table}_log_head" ORDER BY log`);
    expect(heads).toEqual([
      { log: 'h', lost: true },
      { log: 'other', lost: false },
    ]);
    // A smaller keep trims everything beyond it in one commit; a larger one keeps what is there.
    await store.commit({
      writes: [{ key: 'k', value: 'x' }],
      log: { name: 'h', entries: ['e201', 'e202'], keep: 3 },
    });
    expect(await store.readLog('h', 100)).toEqual(['e202', 'e201', 'e200']);
    expect((await stored('h')).map((row) => row.entry)).toEqual(['e200', 'e201', 'e202']);
    await append('h', 'e203', 50);
    expect(await store.readLog('h', 100)).toEqual(['e203', 'e202', 'e201', 'e200']);
  });

  it('announces a commit in ONE notification naming every key, or a resync beyond the payload limit', async () => {
    const store = new PostgresOptionStore({ client: database, table: freshTable() });
    const payloads: string[] = [];
    const unlisten = await database.listen(`"${store.channel}"`, (payload) => payloads.push(payload));
    try {
      await store.commit({
        writes: [
          { key: 'a', value: '1' },
          { key: 'b "quoted"', value: null },
          { key: 'c@eu', value: '3' },
        ],
      });
      expect(await waitUntil(() => payloads.length === 1, 5_000)).toBe(true);
      expect(payloads[0]).toMatch(/^m:[0-9a-f]{24}:/);
      // Versioned: an instance of 0.2 reads the keys and one more string that names no setting.
      const read = JSON.parse(payloads[0]!.slice(27)) as string[];
      expect(read.slice(0, 3)).toEqual(['a', 'b "quoted"', 'c@eu']);
      expect(read).toHaveLength(4);
      expect(read[3]!.charCodeAt(0)).toBe(0);
      expect(read[3]!.slice(1)).toMatch(/^v1:[1-9]\d*:/);
      // This version reads the texts too; a delete without a condition may have removed nothing.
      expect(decodeChangeMessage(payloads[0]!)).toMatchObject({
        keys: ['a', 'b "quoted"', 'c@eu'],
        changes: [{ text: '1' }, undefined, { text: '3' }],
      });
      await store.commit({ writes: [{ key: 'one', value: '1' }] });
      expect(await waitUntil(() => payloads.length === 2, 5_000)).toBe(true);
      expect(decodeChangeMessage(payloads[1]!)).toMatchObject({ keys: ['one'], changes: [{ text: '1' }] });
      const many = Array.from({ length: 200 }, (_, index) => ({
        key: `long-key-${'x'.repeat(40)}-${index}`,
        value: 'v',
      }));
      await store.commit({ writes: many });
      expect(await waitUntil(() => payloads.length === 3, 5_000)).toBe(true);
      expect(payloads[2]).toMatch(/^r:[0-9a-f]{24}$/);
      const refused = await store.commit({ writes: [{ key: 'a', value: '2', expect: 'not 1' }] });
      expect(refused.ok).toBe(false);
      await store.set('after', 'x');
      expect(await waitUntil(() => payloads.length === 4, 5_000)).toBe(true);
      expect(payloads[3]).toMatch(/:after$/);
    } finally {
      await unlisten();
    }
  });
});

describe('PostgresOptionStore: listKeys', () => {
  it('reads a prefix as a range of the primary key index, not a scan of the table', async () => {
    const table = freshTable();
    const store = new PostgresOptionStore({ client: database, table });
    await store.set('warm-up', 'x');
    await database.query(
      `INSERT INTO "${table}" (key, value) SELECT 'k' || n || '@scope' || (n % 50), 'v' FROM generate_series(1, 5000) AS n`,
    );
    await database.query(`ANALYZE "${table}"`);
    const { client, statements } = countingClient();
    const listed = await new PostgresOptionStore({ client, table }).listKeys('k42@');
    expect(listed).toEqual(['k42@scope42']);
    const listKeys = statements.find((text) => text.includes('starts_with'))!;
    const { rows } = await database.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${listKeys}`, ['k42@', 'k42A']);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index (Only )?Scan/);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});
