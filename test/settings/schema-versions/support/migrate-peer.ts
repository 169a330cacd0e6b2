/**
 * One app instance in its own Node process that runs `migrate()` on the counter settings and
 * prints its report as one JSON line, then exits.
 *
 * Usage (from the repository root): `node --import tsx
 * test/settings/schema-versions/support/migrate-peer.ts <postgres|redis> <url> <table|keyPrefix> [delayMs]`
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import type { OptionStore } from '../../../../src/index';
import { PostgresOptionStore } from '../../../../src/storage/postgres/index';
import { RedisOptionStore } from '../../../../src/storage/redis/index';
import { CounterSettings } from './counter-settings';

const [kind, url, where, delay] = process.argv.slice(2);
if ((kind !== 'postgres' && kind !== 'redis') || !url || !where) {
  throw new Error('usage: migrate-peer.ts <postgres|redis> <url> <table|keyPrefix> [delayMs]');
}
const lifetime = setTimeout(() => process.exit(2), 120_000);
let store: OptionStore & { close(): Promise<void> };
let end: () => Promise<void>;
if (kind === 'postgres') {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  store = new PostgresOptionStore({ client: pool, table: where });
  end = () => pool.end();
} else {
  const client = new Redis(url);
  store = new RedisOptionStore({ client, keyPrefix: where });
  end = async () => {
    client.disconnect();
  };
}
const settings = new CounterSettings(store, Number(delay ?? 0));
const report = await settings.migrate();
process.stdout.write(`${JSON.stringify(report)}\n`);
settings.dispose();
await store.close();
await end();
clearTimeout(lifetime);
