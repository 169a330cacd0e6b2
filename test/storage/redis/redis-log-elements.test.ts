import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeWithService } from '../../support/services';
import { deleteStoreKeys } from '../fixtures/redis-cleanup';
import { uniqueSuffix } from '../fixtures/shop-settings';

describeWithService('REDIS_URL', 'RedisOptionStore change-log elements and meta keys (0.3)', (url) => {
  const admin = new Redis(url);
  const keyPrefix = `cpf-test:log-elements:${uniqueSuffix()}:`;
  const store = new RedisOptionStore({ client: admin, keyPrefix });
  const listKey = (log: string) => `option-store-log:${keyPrefix}${log}`;
  const metaKey = (log: string) => `option-store-log-meta:${keyPrefix}${log}`;
  afterAll(async () => {
    await deleteStoreKeys(admin, keyPrefix);
    admin.disconnect();
  });

  it('a tag rides in its list element; readLog answers the entry texts; the meta key counts bytes under a byte bound', async () => {
    const result = await store.commit({
      writes: [{ key: 'k', value: '1' }],
      log: { name: 'fresh', entries: ['{"a":1}', 'é', '{"b":2}'], keep: 5 },
    });
    expect(result).toEqual({ ok: true });
    expect(await admin.lrange(listKey('fresh'), 0, -1)).toEqual(['{"b":2}', '\né', '{"a":1}']);
    expect(await admin.get(metaKey('fresh')), 'without maxBytes: not counted').toBe('?');
    await store.commit({
      writes: [{ key: 'k', value: '2' }],
      log: {
        name: 'fresh',
        entries: ['x', '{"c":3}'],
        keep: 5,
        maxBytes: 100,
        tags: ['title', 'line\nfeed'],
      },
    });
    expect(await admin.lrange(listKey('fresh'), 0, 1)).toEqual(['"line\\nfeed"\n{"c":3}', '"title"\nx']);
    expect(await store.readLog('fresh', 10)).toEqual(['{"c":3}', 'x', '{"b":2}', 'é', '{"a":1}']);
    expect(await admin.get(metaKey('fresh')), 'counted once, then kept').toBe(String(7 + 2 + 7 + 1 + 7));
    await store.commit({
      writes: [{ key: 'k', value: '3' }],
      log: { name: 'fresh', entries: ['y'], keep: 5, maxBytes: 100 },
    });
    expect(await admin.get(metaKey('fresh'))).toBe(`${24 + 1 - 7}t`);
    await store.commit({
      writes: [{ key: 'k', value: '4' }],
      log: { name: 'fresh', entries: ['z'], keep: 5 },
    });
    expect(await admin.get(metaKey('fresh')), 'a commit without maxBytes stops counting').toBe('?t');
    await store.commit({
      writes: [{ key: 'k', value: '5' }],
      log: { name: 'fresh', entries: ['{"d":4}'], keep: 5, maxBytes: 9 },
    });
    expect(await store.readLog('fresh', 10)).toEqual(['{"d":4}', 'z', 'y']);
    expect(await admin.get(metaKey('fresh'))).toBe('9t');
  });

  it('a list written by 0.2 reads back unchanged, counts as trimmed, and gets counted at its first byte-bounded append', async () => {
    // 0.2 pushed plain entry texts, newest at the head, and kept no meta hash.
    await admin.lpush(listKey('old'), '{"v":1}', 'plain 0.2 entry');
    expect(await store.readLog('old', 10)).toEqual(['plain 0.2 entry', '{"v":1}']);
    expect(await store.readLogPage('old', { limit: 10 })).toEqual({
      entries: ['plain 0.2 entry', '{"v":1}'],
      total: 2,
      trimmed: true,
    });
    await store.commit({
      writes: [{ key: 'k', value: '4' }],
      log: { name: 'old', entries: ['{"v":2}'], keep: 10, maxBytes: 1000, tags: ['t'] },
    });
    expect(await admin.get(metaKey('old'))).toBe(`${7 + 15 + 7}t`);
    expect(await store.readLogPage('old', { limit: 10, tag: 't' })).toEqual({
      entries: ['{"v":2}'],
      total: 1,
      trimmed: true,
    });
    expect(await store.readLog('old', 10)).toEqual(['{"v":2}', 'plain 0.2 entry', '{"v":1}']);
  });

  it('a meta key of another type fails the commit before anything is written', async () => {
    await admin.rpush(metaKey('wrong'), 'not a string');
    const error = await store
      .commit({ writes: [{ key: 'untouched', value: 'x' }], log: { name: 'wrong', entries: ['e'], keep: 5 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(await store.get('untouched')).toBeUndefined();
    expect(await admin.llen(listKey('wrong'))).toBe(0);
  });
});
