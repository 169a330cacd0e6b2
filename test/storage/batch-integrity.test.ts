/**
 * Store-level proofs of the atomic write (issue 13): a reader never sees part of a batch, a
 * process killed mid-batch leaves every batch whole with exactly its log entries, and a failure
 * at any call of a write leaves the change and its history entry together or neither.
 * (The same proofs on Redis Cluster are in redis/redis-cluster.test.ts.)
 */
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { suitePglite } from '../support/pglite-template';
import { describeWithService } from '../support/services';
import { BATCHES, checkBatchIntegrity, PGLITE_BATCHES } from './fixtures/batch-integrity';
import { postgresSuite } from './fixtures/postgres-suite';
import { deleteStoreKeys } from './fixtures/redis-cleanup';
import { uniqueSuffix } from './fixtures/shop-settings';

describe('batch integrity on PGlite', () => {
  const database = suitePglite();
  checkBatchIntegrity({
    open: () => new PostgresOptionStore({ client: database(), table: 'batch_integrity' }),
    batches: PGLITE_BATCHES,
    partition: 'eu/de',
  });
});

describeWithService('DATABASE_URL', 'batch integrity on PostgreSQL', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 4, prefix: 'cpf_batches' });
  const table = newTable();
  const crashTable = newTable();
  checkBatchIntegrity({
    open: () => new PostgresOptionStore({ client: pool, table }),
    batches: BATCHES,
    crash: {
      kind: 'postgres',
      url,
      name: crashTable,
      reader: () => new PostgresOptionStore({ client: pool, table: crashTable }),
    },
  });
});

describeWithService('REDIS_URL', 'batch integrity on Redis', (url) => {
  const client = new Redis(url);
  const keyPrefix = `cpf-test:batches:${uniqueSuffix()}:`;
  const crashPrefix = `${keyPrefix}crash:`;
  afterAll(async () => {
    await deleteStoreKeys(client, keyPrefix);
    client.disconnect();
  });
  checkBatchIntegrity({
    open: () => new RedisOptionStore({ client, keyPrefix }),
    batches: BATCHES,
    crash: {
      kind: 'redis',
      url,
      name: crashPrefix,
      reader: () => new RedisOptionStore({ client, keyPrefix: crashPrefix }),
    },
  });
});
