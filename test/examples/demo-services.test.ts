import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../../examples/demo/start-demo';
import { dropOptionTables } from '../storage/fixtures/postgres-cleanup';
import { deleteStoreKeys } from '../storage/fixtures/redis-cleanup';
import { describeWithService } from '../support/services';
import { type RunningChild, startChild } from './support/child-process';
import { DemoClient, eventually } from './support/demo-client';

describeWithService('DATABASE_URL', 'two demo processes on one PostgreSQL', (databaseUrl) => {
  const table = `demo_e2e_${randomBytes(4).toString('hex')}`;
  const token = 'two-process-token';
  let first: RunningChild;
  let second: RunningChild;

  beforeAll(async () => {
    const env = { DATABASE_URL: databaseUrl, DEMO_TABLE: table, DEMO_TOKEN: token };
    [first, second] = await Promise.all([
      startChild('examples/demo/main.ts', env),
      startChild('examples/demo/main.ts', env),
    ]);
  });
  afterAll(async () => {
    first?.kill();
    second?.kill();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await dropOptionTables(client, table);
    await client.end();
  });

  it('say they run on PostgreSQL (password hidden)', () => {
    expect(first.output()).toMatch(new RegExp(`Store: PostgreSQL at .*, table "${table}"`));
  });

  it("see each other's changes (LISTEN/NOTIFY), without a restart", async () => {
    const a = new DemoClient(first.url, token);
    const b = new DemoClient(second.url, token);
    expect(await b.value('max_retries')).toBe(3);
    await a.update('max_retries', 8);
    // The change travels through NOTIFY: typically milliseconds; bounded generously for a loaded machine.
    await eventually(() => b.value('max_retries'), 8, 3_000);
    await b.update('mode', 'live');
    await eventually(() => a.value('mode'), 'live', 3_000);
    const status = await a.call('GET', '/api/commerce/v3/system_status');
    expect(status.json.commerce_acme_pay.live).toBe(true);
  });

  it('both stop cleanly on SIGTERM', async () => {
    expect(await Promise.all([first.stop(), second.stop()])).toEqual([0, 0]);
  });
});

describeWithService('REDIS_URL', 'the demo on Redis', (redisUrl) => {
  const keyPrefix = `cpf:demo-test:${randomBytes(4).toString('hex')}:`;
  let demo: RunningDemo;

  beforeAll(async () => {
    demo = await startDemo({ port: 0, redisUrl, keyPrefix, onError: () => {} });
  });
  afterAll(async () => {
    await demo?.close();
    const redis = new Redis(redisUrl);
    await deleteStoreKeys(redis, keyPrefix);
    await redis.quit();
  });

  it('stores the settings under its key prefix', async () => {
    expect(demo.store).toEqual({
      kind: 'redis',
      description: expect.stringContaining(`keys "${keyPrefix}*"`),
    });
    const client = new DemoClient(demo.url, demo.token);
    expect((await client.update('fee_percent', 2.25)).json.value).toBe(2.25);
    const redis = new Redis(redisUrl);
    try {
      expect(await redis.get(`${keyPrefix}framework_acme_pay_fee_percent`)).toBe('2.25');
    } finally {
      await redis.quit();
    }
  });
});

describeWithService('DATABASE_URL', 'startDemo precedence', (databaseUrl) => {
  it('takes DATABASE_URL over REDIS_URL', async () => {
    const table = `demo_prec_${randomBytes(4).toString('hex')}`;
    const demo = await startDemo({
      port: 0,
      databaseUrl,
      redisUrl: 'redis://127.0.0.1:1',
      table,
      onError: () => {},
    });
    try {
      expect(demo.store.kind).toBe('postgres');
    } finally {
      await demo.close();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await dropOptionTables(client, table);
      await client.end();
    }
  });
});
