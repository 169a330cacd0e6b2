/**
 * 1,000 concurrent PUTs on one setting, spread over two server instances, each with its own
 * settings instance on its own PostgresOptionStore (own pool, own LISTEN connection) over one
 * PostgreSQL database. Afterwards every instance holds the same value, equal to what the
 * database holds, equal to the last acknowledged write in the database's commit order.
 *
 * The commit order is read from a history table filled by a trigger on the option table:
 * concurrent upserts of one row take the row lock in turn, so the trigger's sequence numbers
 * follow the order in which the writes committed.
 */
import { createRestServer, type RestServer } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dropOptionTables } from '../storage/fixtures/postgres-cleanup';
import { describeWithService } from '../support/services';
import { ADMIN_TOKEN, authenticate, SETTINGS_PATH, ShopPlugin } from './support/shop';

const WRITES = 1_000;
const KEY = 'framework_shop_title';

describeWithService('DATABASE_URL', '1,000 concurrent PUTs over two servers on one PostgreSQL', (url) => {
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  const table = `rel_concurrency_${tag}`;
  const history = `rel_history_${tag}`;
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  const pools = [
    new pg.Pool({ connectionString: url, max: 5 }),
    new pg.Pool({ connectionString: url, max: 5 }),
  ];
  for (const pool of [admin, ...pools]) pool.on('error', () => {});
  const stores = pools.map((pool) => new PostgresOptionStore({ client: pool, table }));
  const plugins = stores.map((store) => new ShopPlugin(store));
  const servers: RestServer[] = plugins.map((plugin) =>
    createRestServer({ plugins: [plugin], authenticate }),
  );

  beforeAll(async () => {
    await stores[0]!.set(KEY, 'initial');
    await admin.query(
      `CREATE TABLE "${history}" (seq bigserial PRIMARY KEY, key text NOT NULL, value text NOT NULL)`,
    );
    await admin.query(
      `CREATE FUNCTION "${history}_record"() RETURNS trigger LANGUAGE plpgsql AS $$ ` +
        `BEGIN INSERT INTO "${history}" (key, value) VALUES (NEW.key, NEW.value); RETURN NEW; END $$`,
    );
    await admin.query(
      `CREATE TRIGGER "${history}_trigger" AFTER INSERT OR UPDATE ON "${table}" ` +
        `FOR EACH ROW EXECUTE FUNCTION "${history}_record"()`,
    );
    // Both instances load (and so subscribe to the change feed) before the storm.
    for (const plugin of plugins) await plugin.settings.load();
  });

  afterAll(async () => {
    for (const plugin of plugins) plugin.settings.dispose();
    for (const store of stores) await store.close();
    await dropOptionTables(admin, table);
    await admin.query(`DROP TABLE IF EXISTS "${history}"`);
    await admin.query(`DROP FUNCTION IF EXISTS "${history}_record"()`);
    for (const pool of [admin, ...pools]) await pool.end();
  });

  it('every instance ends with the database value, which is the last acknowledged write in commit order', async () => {
    const statuses = await Promise.all(
      Array.from({ length: WRITES }, async (_, index) => {
        const response = await servers[index % 2]!.fetch(
          new Request(`http://localhost${SETTINGS_PATH}/title`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ value: `write-${index}` }),
          }),
        );
        const body = (await response.json()) as { value?: unknown };
        // The answer holds the value just written.
        expect(body.value).toBe(`write-${index}`);
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const { rows: stored } = await admin.query<{ value: string }>(
      `SELECT value FROM "${table}" WHERE key = $1`,
      [KEY],
    );
    const { rows: commits } = await admin.query<{ value: string }>(
      `SELECT value FROM "${history}" WHERE key = $1 ORDER BY seq`,
      [KEY],
    );
    // Every acknowledged write committed exactly once; the row holds the last one committed.
    expect(commits).toHaveLength(WRITES);
    expect(new Set(commits.map((row) => row.value)).size).toBe(WRITES);
    const last = commits.at(-1)!.value;
    expect(stored[0]?.value).toBe(last);

    // Both instances follow the database through LISTEN/NOTIFY, without load().
    const deadline = Date.now() + 10_000;
    const valuesNow = () => plugins.map((plugin) => plugin.settings.getSetting('title')!.getValue());
    while (valuesNow().some((value) => value !== last) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(valuesNow()).toEqual([last, last]);
    // And over HTTP.
    for (const server of servers) {
      const response = await server.fetch(
        new Request(`http://localhost${SETTINGS_PATH}/title`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        }),
      );
      expect(((await response.json()) as { value: unknown }).value).toBe(last);
    }
  });
});
