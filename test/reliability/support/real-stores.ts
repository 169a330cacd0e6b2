/**
 * The real stores the integrity tests run on, each opened as two app instances over the same
 * data: PGlite (two stores on one embedded database), PostgreSQL (two pools on one table),
 * Redis (two clients on one key prefix). Every kind cleans up after itself.
 */

import type { OptionStore } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { Redis } from 'ioredis';
import pg from 'pg';
import { dropOptionTables } from '../../storage/fixtures/postgres-cleanup';
import { deleteStoreKeys } from '../../storage/fixtures/redis-cleanup';
import { freshPglite } from '../../support/pglite-template';
import { serviceUrl } from '../../support/services';

/** Two store instances over the same data, and how to drop it. */
export interface StorePair {
  readonly first: OptionStore;
  readonly second: OptionStore;
  /** Closes the stores and clients and removes the data. */
  close(): Promise<void>;
}

/** A kind of real store. */
export interface RealStoreKind {
  readonly name: string;
  /** Why the kind cannot run here, or `undefined` when it can. */
  readonly unavailable: () => string | undefined;
  readonly open: () => Promise<StorePair>;
}

/**
 * The pair of `stores` (two instances over the same data): closing it closes both stores, then
 * runs `cleanup` (drop the data, end the clients).
 */
export function storePair(
  stores: readonly (OptionStore & { close(): Promise<void> })[],
  cleanup: () => Promise<void> | void,
): StorePair {
  const [first, second] = stores as [
    OptionStore & { close(): Promise<void> },
    OptionStore & { close(): Promise<void> },
  ];
  return {
    first,
    second,
    async close() {
      await first.close();
      await second.close();
      await cleanup();
    },
  };
}

let counter = 0;
const unique = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** PGlite, PostgreSQL and Redis (the server kinds need `DATABASE_URL` / `REDIS_URL`). */
export const REAL_STORES: readonly RealStoreKind[] = [
  {
    name: 'PGlite',
    unavailable: () => undefined,
    async open() {
      const database = await freshPglite();
      const table = `integrity_${unique()}`;
      const stores = [0, 1].map(() => new PostgresOptionStore({ client: database, table }));
      return storePair(stores, () => database.close());
    },
  },
  {
    name: 'PostgreSQL',
    unavailable: () => (serviceUrl('DATABASE_URL') ? undefined : 'DATABASE_URL is not set'),
    async open() {
      const url = serviceUrl('DATABASE_URL')!;
      const pools = [
        new pg.Pool({ connectionString: url, max: 8 }),
        new pg.Pool({ connectionString: url, max: 8 }),
      ];
      for (const pool of pools) pool.on('error', () => {});
      const table = `integrity_${unique()}`;
      const stores = pools.map((client) => new PostgresOptionStore({ client, table }));
      return storePair(stores, async () => {
        await dropOptionTables(pools[0]!, table);
        for (const pool of pools) await pool.end();
      });
    },
  },
  {
    name: 'Redis',
    unavailable: () => (serviceUrl('REDIS_URL') ? undefined : 'REDIS_URL is not set'),
    async open() {
      const url = serviceUrl('REDIS_URL')!;
      const clients = [new Redis(url), new Redis(url)];
      const keyPrefix = `cpf-test:integrity:${unique()}:`;
      const stores = clients.map((client) => new RedisOptionStore({ client, keyPrefix }));
      return storePair(stores, async () => {
        await deleteStoreKeys(clients[0]!, keyPrefix);
        for (const each of clients) each.disconnect();
      });
    },
  },
];
