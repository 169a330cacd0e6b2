import { createHash } from 'node:crypto';
import { OptionStoreError } from 'commerce-plugin-framework';
import {
  DEFAULT_REDIS_KEY_PREFIX,
  type RedisCommandClient,
  RedisOptionStore,
} from 'commerce-plugin-framework/stores/redis';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import {
  COMMIT,
  DELETE_AND_PUBLISH,
  READ_LOG_PAGE,
  SET_AND_PUBLISH,
} from '../../../src/storage/redis/redis-scripts';
import { decodeChangeMessage } from '../../../src/storage/remote/change-message';
import { describeWithService } from '../../support/services';
import { deleteStoreKeys } from '../fixtures/redis-cleanup';
import { eventually, uniqueSuffix } from '../fixtures/shop-settings';

describeWithService('REDIS_URL', 'RedisOptionStore', (url) => {
  const suffix = uniqueSuffix();
  const connectionName = `cpf-store-${suffix}`;
  const client = new Redis(url, { connectionName });
  const admin = new Redis(url);
  let prefixNumber = 0;
  const freshPrefix = () => `cpf-test:store:${suffix}:${++prefixNumber}:`;
  /** Subscriber connections opened by the stores of this file (they inherit the client's name). */
  const subscriberCount = async (): Promise<number> => {
    const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
    return list.split('\n').filter((line) => line.includes(` name=${connectionName} `)).length;
  };

  afterAll(async () => {
    await admin.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    await deleteStoreKeys(admin, `cpf-test:store:${suffix}:`);
    client.disconnect();
    admin.disconnect();
  });

  it('runs its scripts by hash (EVALSHA), by text when Redis lost them (NOSCRIPT) or the client has no evalsha', async () => {
    const calls: string[] = [];
    const counting = Object.create(client) as Redis;
    counting.eval = ((...args: Parameters<Redis['eval']>) => {
      calls.push('eval');
      return client.eval(...args);
    }) as Redis['eval'];
    counting.evalsha = ((...args: Parameters<Redis['evalsha']>) => {
      calls.push('evalsha');
      return client.evalsha(...args);
    }) as Redis['evalsha'];
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client: counting, keyPrefix });
    await admin.call('SCRIPT', 'FLUSH');
    await store.set('a', '1'); // not cached: EVALSHA is refused, EVAL runs it and caches it
    await store.set('a', '2');
    expect(await store.commit({ writes: [{ key: 'a', value: '3', expect: '2' }] })).toEqual({ ok: true });
    expect(await store.delete('a')).toBe(true);
    // Each script is sent as text once, the first time the server lacks it.
    expect(calls).toEqual(['evalsha', 'eval', 'evalsha', 'evalsha', 'eval', 'evalsha', 'eval']);
    calls.length = 0;
    await store.set('a', '4');
    expect(await store.commit({ writes: [{ key: 'a', value: '5', expect: '4' }] })).toEqual({ ok: true });
    expect(await store.delete('a')).toBe(true);
    expect(calls).toEqual(['evalsha', 'evalsha', 'evalsha']);
    expect(await admin.get(`${keyPrefix}a`)).toBeNull();

    const withoutEvalsha = Object.create(client) as Redis;
    Object.defineProperty(withoutEvalsha, 'evalsha', { value: undefined });
    const plain = new RedisOptionStore({ client: withoutEvalsha, keyPrefix });
    await plain.set('b', 'x');
    expect(await admin.get(`${keyPrefix}b`)).toBe('x');
  });

  it('knows each script by the SHA-1 of its text', () => {
    for (const script of [SET_AND_PUBLISH, DELETE_AND_PUBLISH, COMMIT, READ_LOG_PAGE]) {
      expect(script.sha1).toBe(createHash('sha1').update(script.text).digest('hex'));
    }
  });

  it('stores option k under the Redis key keyPrefix + k, with the documented default prefix', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client, keyPrefix });
    await store.set('a:b', 'value');
    expect(await admin.get(`${keyPrefix}a:b`)).toBe('value');
    await admin.set(`${keyPrefix}raw`, 'from redis');
    expect(await store.get('raw')).toBe('from redis');

    const byDefault = new RedisOptionStore({ client });
    expect(DEFAULT_REDIS_KEY_PREFIX).toBe('cpf:options:');
    expect(byDefault.keyPrefix).toBe('cpf:options:');
    const key = `test-${suffix}`;
    try {
      await byDefault.set(key, 'default prefix');
      expect(await admin.get(`cpf:options:${key}`)).toBe('default prefix');
    } finally {
      await admin.del(`cpf:options:${key}`);
    }
  });

  it('getMany is one MGET, an empty list sends nothing, and each write is one script', async () => {
    const commands: string[] = [];
    const counted = <T>(command: string, send: () => T): T => {
      commands.push(command);
      return send();
    };
    const counting: RedisCommandClient = {
      get: (key) => counted('get', () => client.get(key)),
      mget: (keys) => counted('mget', () => client.mget(keys)),
      eval: (script, count, ...args) => counted('eval', () => client.eval(script, count, ...args)),
      lrange: (key, start, stop) => counted('lrange', () => client.lrange(key, start, stop)),
      scan: (...args) => counted('scan', () => client.scan(...args)),
      duplicate: (override) => client.duplicate(override),
    };
    const store = new RedisOptionStore({ client: counting, keyPrefix: freshPrefix() });
    await store.set('k0', 'v');
    expect(await store.delete('k0')).toBe(true);
    expect(commands).toEqual(['eval', 'eval']);
    commands.length = 0;
    await store.set('k1', 'one');
    commands.length = 0;
    const found = await store.getMany(Array.from({ length: 500 }, (_, index) => `k${index}`));
    expect(found).toEqual(new Map([['k1', 'one']]));
    expect(commands).toEqual(['mget']);
    commands.length = 0;
    expect(await store.getMany([])).toEqual(new Map());
    expect(commands).toEqual([]);
  });

  it('rejects a client that is not ioredis, and a key prefix that is not text', () => {
    expect(() => new RedisOptionStore({ client: {} as RedisCommandClient })).toThrow(TypeError);
    expect(() => new RedisOptionStore({ client, keyPrefix: 5 as unknown as string })).toThrow(TypeError);
  });

  it('a failed command rejects with an OptionStoreError naming the store and operation', async () => {
    const keyPrefix = freshPrefix();
    await admin.rpush(`${keyPrefix}list`, 'not a string');
    const store = new RedisOptionStore({ client, keyPrefix });
    const error = await store.get('list').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionStoreError);
    expect(error).toMatchObject({ store: 'RedisOptionStore', operation: 'get', timedOut: false });
    expect(((error as Error).cause as Error).message).toMatch(/WRONGTYPE/);
  });

  it('announces a write on the channel of its key prefix, after the value is in place', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client, keyPrefix });
    expect(store.channel).toBe(`option-store-changes:${keyPrefix}`);
    const listener = new Redis(url);
    try {
      const readsOnMessage: Array<string | null> = [];
      const messages: string[] = [];
      listener.on('message', (_channel: string, message: string) => {
        messages.push(message);
        void admin.get(`${keyPrefix}k`).then((value) => readsOnMessage.push(value));
      });
      await listener.subscribe(store.channel);
      await store.set('k', 'new');
      expect(await eventually(() => readsOnMessage.length === 1)).toBe(true);
      expect(readsOnMessage).toEqual(['new']);
      expect(messages[0]).toMatch(/^k:[0-9a-f]{24}:k$/);
      expect(await store.delete('absent')).toBe(false);
      expect(await store.delete('k')).toBe(true);
      expect(await eventually(() => messages.length === 2)).toBe(true);
    } finally {
      listener.disconnect();
    }
  });

  it('any other message on the channel (an operator after a manual edit) is a resync', async () => {
    const store = new RedisOptionStore({ client, keyPrefix: freshPrefix() });
    let resyncs = 0;
    store.watch(
      () => {},
      () => resyncs++,
    );
    expect(await eventually(() => resyncs === 1)).toBe(true);
    await admin.publish(store.channel, 'resync');
    expect(await eventually(() => resyncs === 2)).toBe(true);
    await store.close();
  });

  it('close() ends the subscriber it duplicated and leaves the client open', async () => {
    // Every store of this file is closed by the end of its test: wait until their subscribers are gone.
    expect(await eventually(async () => (await subscriberCount()) === 0)).toBe(true);
    const store = new RedisOptionStore({ client, keyPrefix: freshPrefix() });
    let resyncs = 0;
    const unsubscribe = store.watch(
      () => {},
      () => resyncs++,
    );
    expect(await eventually(() => resyncs === 1)).toBe(true);
    expect(await subscriberCount()).toBe(1);
    await store.set('k', 'v');
    await store.close();
    await store.close();
    unsubscribe();
    expect(await eventually(async () => (await subscriberCount()) === 0)).toBe(true);
    expect(client.status).toBe('ready');
    expect(await client.ping()).toBe('PONG');
    for (const operation of [store.get('k'), store.getMany(['k']), store.set('k', 'w'), store.delete('k')]) {
      const error = await operation.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OptionStoreError);
      expect((error as Error).message).toContain('closed');
    }
    expect(store.watch(() => {})).toBeTypeOf('function');
  });

  it('the last unsubscribe ends the subscriber connection', async () => {
    // Every store of this file is closed by the end of its test: wait until their subscribers are gone.
    expect(await eventually(async () => (await subscriberCount()) === 0)).toBe(true);
    const store = new RedisOptionStore({ client, keyPrefix: freshPrefix() });
    let resyncs = 0;
    const first = store.watch(
      () => {},
      () => resyncs++,
    );
    const second = store.watch(() => {});
    expect(await eventually(() => resyncs === 1)).toBe(true);
    first();
    expect(await subscriberCount()).toBe(1);
    second();
    expect(await eventually(async () => (await subscriberCount()) === 0)).toBe(true);
    await store.close();
  });

  it('an operation that outlasts timeoutMs rejects as timed out; a write that lands later is reported to own subscribers', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client, keyPrefix, timeoutMs: 200 });
    await store.set('k', 'before');
    const seen: string[] = [];
    let resyncs = 0;
    store.watch(
      (key) => seen.push(key),
      () => resyncs++,
    );
    expect(await eventually(() => resyncs === 1)).toBe(true);
    await admin.call('CLIENT', 'PAUSE', '2000', 'WRITE');
    try {
      const error = await store.set('k', 'late').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OptionStoreError);
      expect(error).toMatchObject({ store: 'RedisOptionStore', operation: 'set', timedOut: true });
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
    }
    expect(await eventually(() => seen.includes('k'))).toBe(true);
    expect(await admin.get(`${keyPrefix}k`)).toBe('late');
    await store.close();
  });

  it('keeps the 0.1 key layout on a standalone Redis: scoped keys untagged, logs under option-store-log:', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client, keyPrefix });
    expect(store.cluster).toBe(false);
    await store.commit({
      writes: [{ key: 'k@eu/de', value: 'scoped' }],
      log: { name: 'log@eu/de', entries: ['{"entry":1}'], keep: 3 },
    });
    expect(await admin.get(`${keyPrefix}k@eu/de`)).toBe('scoped');
    expect(await admin.lrange(`option-store-log:${keyPrefix}log@eu/de`, 0, -1)).toEqual(['{"entry":1}']);
    expect(await admin.get(`option-store-log-meta:${keyPrefix}log@eu/de`)).toBe('?');
  });

  it('a commit is one script and one change message naming every key; listKeys lists string keys only', async () => {
    const keyPrefix = freshPrefix();
    const commands: string[] = [];
    const counting: RedisCommandClient = {
      get: (key) => client.get(key),
      mget: (keys) => client.mget(keys),
      eval: (script, count, ...args) => {
        commands.push('eval');
        return client.eval(script, count, ...args);
      },
      lrange: (key, start, stop) => client.lrange(key, start, stop),
      scan: (...args) => client.scan(...args),
      duplicate: (override) => client.duplicate(override),
    };
    const store = new RedisOptionStore({ client: counting, keyPrefix });
    const listener = new Redis(url);
    try {
      const messages: string[] = [];
      listener.on('message', (_channel: string, message: string) => messages.push(message));
      await listener.subscribe(store.channel);
      const result = await store.commit({
        writes: [
          { key: 'a', value: '1', expect: null },
          { key: 'b', value: '2' },
          { key: 'c', value: null },
        ],
        log: { name: 'log', entries: ['e1', 'e2', 'e3'], keep: 2 },
      });
      expect(result).toEqual({ ok: true });
      expect(commands).toEqual(['eval']);
      expect(await eventually(() => messages.length === 1)).toBe(true);
      // One versioned message: the keys, then the commit's version and texts (0: deleted).
      expect(messages[0]).toMatch(/^m:[0-9a-f]{24}:\["a","b","c","\\u0000v1:[1-9]\d*:/);
      expect(decodeChangeMessage(messages[0]!)).toMatchObject({
        keys: ['a', 'b', 'c'],
        changes: [{ text: '1' }, { text: '2' }, { text: undefined }],
      });
      expect(await store.readLog('log', 10)).toEqual(['e3', 'e2']);
      const refused = await store.commit({ writes: [{ key: 'a', value: 'x', expect: 'not 1' }] });
      expect(refused).toEqual({ ok: false, current: new Map([['a', '1']]) });
      await admin.rpush(`${keyPrefix}a-list`, 'not an option');
      expect(new Set(await store.listKeys(''))).toEqual(new Set(['a', 'b']));
      await store.set('after', 'x');
      expect(await eventually(() => messages.length === 2)).toBe(true);
      expect(messages[1]).toMatch(/^k:[0-9a-f]{24}:after$/);
    } finally {
      listener.disconnect();
      await admin.del(`option-store-log:${keyPrefix}log`);
    }
  });

  it('a commit whose log key holds another type fails before writing anything', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client, keyPrefix });
    await store.set('k', 'before');
    await admin.set(`option-store-log:${keyPrefix}log`, 'not a list');
    try {
      const error = await store
        .commit({
          writes: [
            { key: 'k', value: 'after' },
            { key: 'new', value: 'x' },
          ],
          log: { name: 'log', entries: ['e'], keep: 5 },
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OptionStoreError);
      expect(error).toMatchObject({ operation: 'commit', store: 'RedisOptionStore' });
      expect(await store.getMany(['k', 'new'])).toEqual(new Map([['k', 'before']]));
    } finally {
      await admin.del(`option-store-log:${keyPrefix}log`);
    }
  });
});
