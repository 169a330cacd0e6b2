import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { testOptionStore } from 'commerce-plugin-framework/testing';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { describeWithService } from '../../support/services';
import { deleteStoreKeys } from '../fixtures/redis-cleanup';

describeWithService('REDIS_URL', 'RedisOptionStore on Redis', (url) => {
  const client = new Redis(url);
  const keyPrefix = `cpf-test:conformance:${Math.random().toString(36).slice(2, 10)}:`;
  afterAll(async () => {
    await deleteStoreKeys(client, keyPrefix);
    client.disconnect();
  });

  testOptionStore('RedisOptionStore', () => new RedisOptionStore({ client, keyPrefix }), {
    makeSibling: () => new RedisOptionStore({ client, keyPrefix }),
  });
});
