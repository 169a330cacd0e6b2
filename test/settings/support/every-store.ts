/**
 * Every store of the package as two app instances over one data set — memory, PGlite,
 * PostgreSQL, Redis and a Redis Cluster the tests start — for suites that must hold on each.
 * Server stores need `DATABASE_URL` / `REDIS_URL`; without them they are skipped with a printed
 * reason, except under `REQUIRE_SERVICES=1`, where a missing service fails.
 */
import { MemoryOptionStore } from 'commerce-plugin-framework';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { Cluster } from 'ioredis';
import { describe } from 'vitest';
import { REAL_STORES, type StorePair, storePair } from '../../reliability/support/real-stores';
import { describeWithRedisCluster } from '../../support/redis-cluster';

/** Opens a fresh pair of store instances over new, empty data. */
export type OpenPair = () => Promise<StorePair>;

/** A memory store and a sibling sharing its data. */
export function memoryPair(): StorePair {
  const first = new MemoryOptionStore();
  return storePair([first, first.share()], () => undefined);
}

let counter = 0;

/**
 * Declares `body` once per store kind, as `describe(`${name} on ${kind}`)`, with a function that
 * opens a fresh pair of instances over new data.
 */
export function describeOnEveryStore(name: string, body: (open: OpenPair, kind: string) => void): void {
  describe(`${name} on memory`, () => body(async () => memoryPair(), 'memory'));
  for (const kind of REAL_STORES) {
    const missing = kind.unavailable();
    if (missing !== undefined && process.env.REQUIRE_SERVICES !== '1') {
      console.log(`[skip] ${name} on ${kind.name}: ${missing}`);
      continue;
    }
    describe(`${name} on ${kind.name}`, () =>
      body(async () => {
        if (missing !== undefined) throw new Error(`${missing} but REQUIRE_SERVICES=1`);
        return kind.open();
      }, kind.name));
  }
  describeWithRedisCluster(`${name} on a Redis Cluster`, (cluster) => {
    body(async () => {
      const clients = [new Cluster([...cluster().nodes]), new Cluster([...cluster().nodes])];
      for (const client of clients) client.on('error', () => {});
      const keyPrefix = `cpf-test:lifecycle:${Date.now().toString(36)}${(counter++).toString(36)}:`;
      const stores = clients.map((client) => new RedisOptionStore({ client, keyPrefix }));
      return storePair(stores, () => {
        for (const client of clients) client.disconnect();
      });
    }, 'Redis Cluster');
  });
}
