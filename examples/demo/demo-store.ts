import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { OptionStore } from 'commerce-plugin-framework';

/** Which store the demo runs on. */
export type DemoStoreKind = 'pglite' | 'postgres' | 'redis';

/** Where the demo keeps its settings. */
export interface DemoStoreOptions {
  /** A PostgreSQL URL: use that server (wins over `redisUrl`). */
  databaseUrl?: string;
  /** A Redis URL: use that server (when no `databaseUrl`). */
  redisUrl?: string;
  /** Embedded PGlite's data directory, when neither URL is given. Default `.data/pglite`. */
  dataDir?: string;
  /** The PostgreSQL/PGlite table. Default `options`. */
  table?: string;
  /** The Redis key prefix. Default `cpf:options:`. */
  keyPrefix?: string;
}

/** The file the generated settings key is kept in: beside the PGlite data directory. */
export function settingsKeyFile(options: DemoStoreOptions): string {
  return resolve(dirname(resolve(options.dataDir ?? DEFAULT_DATA_DIR)), 'settings.key');
}

/** An open store, with what to tell the user about it and how to close it. */
export interface DemoStore {
  readonly kind: DemoStoreKind;
  /** For the start-up banner, e.g. `PGlite (embedded PostgreSQL) in /app/.data/pglite`. */
  readonly description: string;
  readonly store: OptionStore;
  /** Closes the store and the connection or database it runs on. */
  close(): Promise<void>;
}

/** The default PGlite data directory, relative to the working directory. */
export const DEFAULT_DATA_DIR = '.data/pglite';

/** A URL without its password, for printing. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Opens the demo's store: PostgreSQL when `databaseUrl` is set, else Redis when `redisUrl` is
 * set, else an embedded PGlite database on disk in `dataDir` (one process at a time). Only the
 * driver in use is loaded.
 */
export async function openDemoStore(options: DemoStoreOptions): Promise<DemoStore> {
  if (options.databaseUrl) {
    const [{ default: pg }, { PostgresOptionStore }] = await Promise.all([
      import('pg'),
      import('commerce-plugin-framework/stores/postgres'),
    ]);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 5 });
    pool.on('error', () => {}); // an idle connection dropped by the server must not crash the demo
    const store = new PostgresOptionStore({ client: pool, table: options.table });
    return {
      kind: 'postgres',
      description: `PostgreSQL at ${withoutPassword(options.databaseUrl)}, table "${store.table}"`,
      store,
      async close() {
        await store.close();
        await pool.end();
      },
    };
  }
  if (options.redisUrl) {
    const [{ Redis }, { RedisOptionStore }] = await Promise.all([
      import('ioredis'),
      import('commerce-plugin-framework/stores/redis'),
    ]);
    const client = new Redis(options.redisUrl, { maxRetriesPerRequest: 2 });
    client.on('error', () => {}); // reconnects by itself; requests fail with a store error meanwhile
    const store = new RedisOptionStore({ client, keyPrefix: options.keyPrefix });
    return {
      kind: 'redis',
      description: `Redis at ${withoutPassword(options.redisUrl)}, keys "${store.keyPrefix}*"`,
      store,
      async close() {
        await store.close();
        await client.quit();
      },
    };
  }
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const [{ PGlite }, { PostgresOptionStore }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('commerce-plugin-framework/stores/postgres'),
  ]);
  const db = new PGlite(dataDir);
  await db.waitReady;
  const store = new PostgresOptionStore({ client: db, table: options.table });
  return {
    kind: 'pglite',
    description: `PGlite (embedded PostgreSQL) in ${dataDir}`,
    store,
    async close() {
      await store.close();
      await db.close();
    },
  };
}
