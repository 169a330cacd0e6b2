import type { OptionStore } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { suitePglite } from '../support/pglite-template';
import { describeWithService } from '../support/services';
import { PeerProcess } from './fixtures/peer-process';
import { postgresSuite } from './fixtures/postgres-suite';
import { deleteStoreKeys } from './fixtures/redis-cleanup';
import { eventually, ShopSettings, uniqueSuffix } from './fixtures/shop-settings';

/** The bound: a change made through one instance is visible through another within one second. */
const VISIBLE_WITHIN_MS = 1_000;
/** Starting a child process (tsx, drivers, first query) may take much longer than that. */
const PEER_START_MS = 20_000;

/** Two settings instances over two stores on the same data: what one writes, the other follows without load(). */
function checkTwoInstances(makeStore: () => OptionStore): void {
  it('an update through one instance is visible through the other within a second, without load()', async () => {
    const writerStore = makeStore();
    const readerStore = makeStore();
    const writer = new ShopSettings('shop', writerStore);
    const reader = new ShopSettings('shop', readerStore);
    try {
      await reader.load();
      await writer.load();
      expect(reader.getSetting('mode')!.getValue()).toBeNull();

      await writer.updateValue('mode', 'live');
      expect(
        await eventually(() => reader.getSetting('mode')!.getValue() === 'live', VISIBLE_WITHIN_MS),
      ).toBe(true);
      await writer.updateValue('title', 'Acme shop');
      expect(
        await eventually(() => reader.getSetting('title')!.getValue() === 'Acme shop', VISIBLE_WITHIN_MS),
      ).toBe(true);
      await reader.updateValue('mode', 'test');
      expect(
        await eventually(() => writer.getSetting('mode')!.getValue() === 'test', VISIBLE_WITHIN_MS),
      ).toBe(true);
      expect(await writer.deleteValue('mode')).toBe(true);
      expect(await eventually(() => reader.getSetting('mode')!.getValue() === null, VISIBLE_WITHIN_MS)).toBe(
        true,
      );
      expect(await reader.getValue('mode')).toBe('test'); // the default again
    } finally {
      writer.dispose();
      reader.dispose();
      await writerStore.close?.();
      await readerStore.close?.();
    }
  });
}

/** A settings instance here and one in a child process, on the same data. */
function checkTwoProcesses(
  kind: 'postgres' | 'redis',
  url: string,
  name: string,
  makeStore: () => OptionStore,
): void {
  it(
    'an update in one Node process is visible in another within a second, without load()',
    async () => {
      const store = makeStore();
      const local = new ShopSettings('shop', store);
      const peer = new PeerProcess(kind, url, name);
      try {
        await local.load();
        expect(await peer.waitFor((message) => message.ready === true, PEER_START_MS)).toBe(true);

        await local.updateValue('mode', 'live');
        expect(await peer.waitFor((message) => message.mode === 'live', VISIBLE_WITHIN_MS)).toBe(true);

        peer.set('test');
        expect(await peer.waitFor((message) => message.written === 'test', 5_000)).toBe(true);
        expect(
          await eventually(() => local.getSetting('mode')!.getValue() === 'test', VISIBLE_WITHIN_MS),
        ).toBe(true);
      } finally {
        await peer.stop();
        local.dispose();
        await store.close?.();
      }
    },
    PEER_START_MS + 15_000,
  );
}

describe('two settings instances on one PGlite database', () => {
  const database = suitePglite();
  checkTwoInstances(() => new PostgresOptionStore({ client: database(), table: 'multi_instance' }));
});

describeWithService('DATABASE_URL', 'settings instances sharing one PostgreSQL', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 4, prefix: 'cpf_multi' });
  const table = newTable();
  const processesTable = newTable();
  checkTwoInstances(() => new PostgresOptionStore({ client: pool, table }));
  checkTwoProcesses(
    'postgres',
    url,
    processesTable,
    () => new PostgresOptionStore({ client: pool, table: processesTable }),
  );
});

describeWithService('REDIS_URL', 'settings instances sharing one Redis', (url) => {
  const client = new Redis(url);
  const keyPrefix = `cpf-test:multi:${uniqueSuffix()}:`;
  afterAll(async () => {
    await deleteStoreKeys(client, keyPrefix);
    client.disconnect();
  });
  checkTwoInstances(() => new RedisOptionStore({ client, keyPrefix }));
  checkTwoProcesses(
    'redis',
    url,
    `${keyPrefix}processes:`,
    () => new RedisOptionStore({ client, keyPrefix: `${keyPrefix}processes:` }),
  );
});
