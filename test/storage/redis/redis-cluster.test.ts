import { OptionStoreError } from 'commerce-plugin-framework';
import { type RedisClusterClient, RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { testOptionStore } from 'commerce-plugin-framework/testing';
import { Cluster } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterSlot } from '../../../src/storage/redis/cluster-slot';
import { AWKWARD_KEY_SUFFIXES } from '../../../src/testing/awkward-text';
import { describeWithRedisCluster } from '../../support/redis-cluster';
import { BATCHES, checkBatchIntegrity } from '../fixtures/batch-integrity';
import { followsWithoutReads } from '../fixtures/versioned-follow';

describeWithRedisCluster('RedisOptionStore on a local 3-master Redis Cluster', (cluster) => {
  const clients: Cluster[] = [];
  /** A new cluster client (disconnected after the file). */
  const connect = (): Cluster => {
    const client = new Cluster([...cluster().nodes]);
    client.on('error', () => {});
    clients.push(client);
    return client;
  };
  let shared: Cluster | undefined;
  const client = (): Cluster => {
    shared ??= connect();
    return shared;
  };
  afterAll(() => {
    for (const each of clients) each.disconnect();
  });
  let prefixNumber = 0;
  const freshPrefix = () => `cpf-test:cluster:${++prefixNumber}:`;
  /** The slot Redis itself computes for `key`. */
  const keySlot = async (key: string): Promise<number> => Number(await client().cluster('KEYSLOT', key));

  /** The cluster client with its MGETs recorded, and the most that were in flight at once. */
  const countingMgets = (): { client: RedisClusterClient; mgets: string[][]; maxInFlight: () => number } => {
    const inner = client();
    const mgets: string[][] = [];
    let inFlight = 0;
    let most = 0;
    return {
      mgets,
      maxInFlight: () => most,
      client: {
        isCluster: true,
        get: (key) => inner.get(key),
        mget: async (keys) => {
          mgets.push(keys);
          most = Math.max(most, ++inFlight);
          try {
            return await inner.mget(keys);
          } finally {
            inFlight--;
          }
        },
        eval: (script, count, ...args) => inner.eval(script, count, ...args),
        lrange: (key, start, stop) => inner.lrange(key, start, stop),
        scan: (...args) => inner.scan(...args),
        nodes: (role) => inner.nodes(role),
        duplicate: (nodes, options) => inner.duplicate(nodes, options),
      },
    };
  };

  const conformancePrefix = freshPrefix();
  testOptionStore(
    'RedisOptionStore (Cluster)',
    () => new RedisOptionStore({ client: client(), keyPrefix: conformancePrefix }),
    { makeSibling: () => new RedisOptionStore({ client: connect(), keyPrefix: conformancePrefix }) },
  );

  const batchPrefix = freshPrefix();
  checkBatchIntegrity({
    open: () => new RedisOptionStore({ client: client(), keyPrefix: batchPrefix }),
    batches: BATCHES,
    partition: 'eu/de',
  });

  it('computes the slot of a key as Redis does (CRC16 of the hash tag)', async () => {
    const keys = [
      'plain',
      '{user1000}.following',
      'foo{}{bar}',
      'foo{{bar}}zap',
      'foo{bar}{zap}',
      '{}empty-tag',
      'astral 😀 {é}',
      ...AWKWARD_KEY_SUFFIXES,
    ];
    for (const key of keys) expect(clusterSlot(key), key).toBe(await keySlot(key));
  });

  it("hash-tags keys by partition: a scope's keys, its commits and its log share one slot", async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client: client(), keyPrefix });
    expect(store.cluster).toBe(true);
    const result = await store.commit({
      writes: [
        { key: 'a@eu/de', value: '1', expect: null },
        { key: 'b@eu/de', value: '2' },
      ],
      log: { name: 'log@eu/de', entries: ['{"entry":1}'], keep: 5 },
    });
    expect(result).toEqual({ ok: true });
    await store.set('global', 'g');
    await store.set('odd@a}b', 'braced');
    const raw = client();
    expect(await raw.get(`${keyPrefix}{eu/de}a@eu/de`)).toBe('1');
    expect(await raw.get(`${keyPrefix}{@}global`)).toBe('g');
    expect(await raw.get(`${keyPrefix}{a)b}odd@a}b`)).toBe('braced');
    const logKey = `option-store-log:${keyPrefix}{eu/de}log@eu/de`;
    expect(await raw.lrange(logKey, 0, -1)).toEqual(['{"entry":1}']);
    expect(await keySlot(logKey)).toBe(await keySlot(`${keyPrefix}{eu/de}a@eu/de`));
    const metaKey = `option-store-log-meta:${keyPrefix}{eu/de}log@eu/de`;
    expect(await raw.get(metaKey)).toBe('?');
    expect(await keySlot(metaKey)).toBe(await keySlot(logKey));
    expect(await store.getMany(['a@eu/de', 'b@eu/de', 'global', 'odd@a}b'])).toEqual(
      new Map([
        ['a@eu/de', '1'],
        ['b@eu/de', '2'],
        ['global', 'g'],
        ['odd@a}b', 'braced'],
      ]),
    );
  });

  it('getMany sends one MGET per slot, all at once', async () => {
    const keyPrefix = freshPrefix();
    const writer = new RedisOptionStore({ client: client(), keyPrefix });
    const keys = ['', 'eu', 'eu/de', 'us', 'us/ny'].flatMap((scope) =>
      ['a', 'b', 'c'].map((name) => (scope === '' ? name : `${name}@${scope}`)),
    );
    for (const key of keys) await writer.set(key, key);
    const slots = new Set(
      await Promise.all(keys.map((key) => keySlot(`${keyPrefix}{${key.split('@')[1] ?? '@'}}${key}`))),
    );
    expect(slots.size).toBeGreaterThan(1);
    const counting = countingMgets();
    const reader = new RedisOptionStore({ client: counting.client, keyPrefix });
    expect(await reader.getMany(keys)).toEqual(new Map(keys.map((key) => [key, key])));
    expect(counting.mgets).toHaveLength(slots.size);
    expect(counting.maxInFlight()).toBe(slots.size);
    for (const group of counting.mgets) expect(new Set(group.map(clusterSlot)).size).toBe(1);
  });

  it('listKeys scans every master', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client: client(), keyPrefix });
    const keys = Array.from({ length: 30 }, (_, index) => `key@p${index}`);
    for (const key of keys) await store.set(key, 'v');
    const masters = client().nodes('master');
    expect(masters).toHaveLength(3);
    const holding = await Promise.all(masters.map(async (node) => (await node.keys(`${keyPrefix}*`)).length));
    expect(holding.filter((count) => count > 0).length).toBeGreaterThan(1);
    expect(new Set(await store.listKeys('key@'))).toEqual(new Set(keys));
    expect(new Set(await store.listKeys('key@p1'))).toEqual(
      new Set(keys.filter((key) => key.startsWith('key@p1'))),
    );
    expect(await store.listKeys('other')).toEqual([]);
  });

  it('a commit across partitions in different slots rejects and writes nothing', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client: client(), keyPrefix });
    expect(clusterSlot(`${keyPrefix}{eu}a@eu`)).not.toBe(clusterSlot(`${keyPrefix}{us}b@us`));
    const error = await store
      .commit({
        writes: [
          { key: 'a@eu', value: '1' },
          { key: 'b@us', value: '2' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionStoreError);
    expect((error as Error).message).toContain('partition');
    expect(await store.getMany(['a@eu', 'b@us'])).toEqual(new Map());
  });

  it('commits stay in one slot: a check or a log of another partition rejects, and crossPartitionCommits is false', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client: client(), keyPrefix });
    expect(store.crossPartitionCommits).toBe(false);
    await store.set('record@us', 'v1');
    for (const commit of [
      { writes: [{ key: 'a@eu', value: '1' }], checks: [{ key: 'record@us', expect: 'v1' }] },
      { writes: [{ key: 'a@eu', value: '1' }], logs: [{ name: 'log@us', entries: ['e'], keep: 5 }] },
    ]) {
      const error = await store.commit(commit).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OptionStoreError);
      expect((error as Error).message).toContain('partition');
    }
    expect(await store.get('a@eu')).toBeUndefined();
    expect(await store.readLog('log@us', 5)).toEqual([]);
    const inOne = await store.commit({
      writes: [{ key: 'a@us', value: '1' }],
      checks: [{ key: 'record@us', expect: 'v1' }],
      logs: [
        { name: 'log@us', entries: ['e1'], keep: 5, tags: ['a'] },
        { name: 'other@us', entries: ['e2'], keep: 5 },
      ],
    });
    expect(inOne).toEqual({ ok: true });
    expect(await store.readLogPage('log@us', { limit: 5, tag: 'a' })).toEqual({
      entries: ['e1'],
      total: 1,
      trimmed: false,
    });
  });

  it('scan walks every master, its cursor naming the master; keys and log names alike', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client: client(), keyPrefix });
    const keys = Array.from({ length: 30 }, (_, index) => `key@p${index}`);
    for (const key of keys) {
      await store.commit({
        writes: [{ key, value: 'v' }],
        log: { name: `log@${key.slice(4)}`, entries: ['e'], keep: 5 },
      });
    }
    // The masters in the order the store numbers them (by address), and the master of each key.
    const address = (node: { options: { host?: string; port?: number } }) =>
      `${node.options.host}:${node.options.port}`;
    const masters = [...client().nodes('master')].sort((a, b) => (address(a) < address(b) ? -1 : 1));
    const masterOf = new Map<string, number>();
    for (const [index, node] of masters.entries()) {
      for (const redisKey of await node.keys(`${keyPrefix}*`)) {
        const key = /\}(key@p\d+)$/.exec(redisKey)?.[1];
        if (key !== undefined) masterOf.set(key, index);
      }
    }
    expect(new Set(masterOf.values()).size).toBe(3);
    const masterIndex = (cursor: string | null) =>
      cursor === null ? masters.length : Number(cursor.split(':')[0]);
    const scanAll = async (logs: boolean) => {
      const items = new Set<string>();
      let cursor: string | null = null;
      do {
        // A page starts on the master its cursor names and ends on the one its next cursor names:
        // every key it holds lives on a master in between.
        const page = await store.scan({ prefix: logs ? 'log@' : 'key@', cursor, count: 1, logs });
        const first = cursor === null ? 0 : masterIndex(cursor);
        const last = Math.min(masterIndex(page.cursor), masters.length - 1);
        expect(masterIndex(page.cursor)).toBeGreaterThanOrEqual(first);
        for (const item of page.items) {
          items.add(item);
          const master = masterOf.get(logs ? `key@${item.slice(4)}` : item)!;
          expect(master).toBeGreaterThanOrEqual(first);
          expect(master).toBeLessThanOrEqual(last);
        }
        cursor = page.cursor;
      } while (cursor !== null);
      return items;
    };
    expect(await scanAll(false)).toEqual(new Set(keys));
    expect(await scanAll(true)).toEqual(new Set(keys.map((key) => `log@${key.slice(4)}`)));
    await expect(store.scan({ prefix: '', cursor: 'not a cursor', count: 5 })).rejects.toThrow(TypeError);
  });

  describe('versioned change messages, a version counter per partition', () => {
    followsWithoutReads(
      () => new RedisOptionStore({ client: connect(), keyPrefix: 'cpf-test:cluster:versioned:' }),
    );
  });

  it('a key prefix with its own {hash tag} puts every key in one slot', async () => {
    const keyPrefix = `cpf-test:{pinned}:${++prefixNumber}:`;
    const writer = new RedisOptionStore({ client: client(), keyPrefix });
    const keys = ['a', 'b@eu', 'c@us/ny'];
    for (const key of keys) await writer.set(key, key);
    const result = await writer.commit({
      writes: [
        { key: 'a', value: 'A' },
        { key: 'b@eu', value: 'B' },
      ],
    });
    expect(result).toEqual({ ok: true });
    const counting = countingMgets();
    const reader = new RedisOptionStore({ client: counting.client, keyPrefix });
    expect((await reader.getMany(keys)).size).toBe(3);
    expect(counting.mgets).toHaveLength(1);
    expect(new Set(await reader.listKeys(''))).toEqual(new Set(keys));
  });
});
