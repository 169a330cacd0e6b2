/**
 * A second app instance in its own Node process, for the cross-process If-Match test.
 *
 * Usage: `node --import tsx test/reliability/support/if-match-peer.ts postgres <url> <table>`
 * (from the repository root). Prints `{"ready":true}` once loaded; reads one line
 * `{"tag":…, "count":n}`, fires `n` concurrent writes of the setting `title` with that If-Match,
 * prints `{"accepted":a,"refused":r}` and exits.
 */
import { createInterface } from 'node:readline';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { ShopSettings } from '../../storage/fixtures/shop-settings';

const [, url, table] = process.argv.slice(2);
if (!url || !table) throw new Error('usage: if-match-peer.ts postgres <url> <table>');
const lifetime = setTimeout(() => process.exit(2), 60_000);
const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

const pool = new pg.Pool({ connectionString: url, max: 8 });
pool.on('error', () => {});
const store = new PostgresOptionStore({ client: pool, table });
const settings = new ShopSettings('shop', store);
await settings.load();
say({ ready: true });

const input = createInterface({ input: process.stdin });
input.once('line', async (line) => {
  const { tag, count } = JSON.parse(line) as { tag: string; count: number };
  const outcomes = await Promise.allSettled(
    Array.from({ length: count }, (_, index) =>
      settings.updateValue('title', `peer-${index}`, { ifMatch: tag }),
    ),
  );
  const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
  const refused = outcomes.filter(
    (outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: unknown }).code === 412,
  ).length;
  say({ accepted, refused });
  clearTimeout(lifetime);
  settings.dispose();
  await store.close();
  await pool.end();
  process.exit(0);
});
