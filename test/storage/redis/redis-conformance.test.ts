import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { testOptionStore } from 'commerce-plugin-framework/testing';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { describeWithService } from '../../support/services';

describeWithService('REDIS_URL', 'RedisOptionStore on Redis', (url) => {
  const client = new Redis(url);
  const keyPrefix = `cpf-test:conformance:${Math.random().toString(36).slice(2, 10)}:`;
  afterAll(async () => {
    const leftovers = await client.keys(`${keyPrefix}*`);
    if (leftovers.length > 0) await client.del(...leftovers);
    client.disconnect();
  });

  testOptionStore('RedisOptionStore', () => new RedisOptionStore({ client, keyPrefix }), {
    makeSibling: () => new RedisOptionStore({ client, keyPrefix }),
  });
});
