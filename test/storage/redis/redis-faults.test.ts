import { OptionStoreError } from 'commerce-plugin-framework';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeWithService } from '../../support/services';
import { deleteStoreKeys } from '../fixtures/redis-cleanup';
import { eventually, ShopSettings, uniqueSuffix } from '../fixtures/shop-settings';
import { expectNoAcknowledgedWriteLost } from '../fixtures/writes-under-kills';

describeWithService('REDIS_URL', 'RedisOptionStore when connections die', (url) => {
  const suffix = uniqueSuffix();
  const admin = new Redis(url);
  const clients: Redis[] = [];
  let number = 0;
  /** A client with a connection name of its own (its duplicated subscriber inherits it). */
  const namedClient = (options: RedisOptions = {}): { client: Redis; name: string } => {
    const name = `cpf-faults-${suffix}-${++number}`;
    const client = new Redis(url, { connectionName: name, ...options });
    client.on('error', () => {}); // killed on purpose: the tests check what the store reports
    clients.push(client);
    return { client, name };
  };
  const freshPrefix = () => `cpf-test:faults:${suffix}:${++number}:`;
  /** Ids of the server-side connections called `name`, of one type. */
  const connectionIds = async (name: string, type: 'normal' | 'pubsub'): Promise<string[]> => {
    const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', type));
    return list
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /(?:^|\s)id=(\d+)/.exec(line)![1]!);
  };
  const kill = (id: string) => admin.call('CLIENT', 'KILL', 'ID', id);

  afterAll(async () => {
    await admin.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    await deleteStoreKeys(admin, `cpf-test:faults:${suffix}:`);
    for (const client of clients) client.disconnect();
    admin.disconnect();
  });

  it('a killed subscriber reconnects, is reported, and asks for a resync', async () => {
    const { client, name } = namedClient();
    const keyPrefix = freshPrefix();
    const errors: OptionStoreError[] = [];
    const watcher = new RedisOptionStore({ client, keyPrefix, onWatchError: (error) => errors.push(error) });
    const writer = new RedisOptionStore({ client: admin, keyPrefix });
    const seen: string[] = [];
    let resyncs = 0;
    watcher.watch(
      (key) => seen.push(key),
      () => resyncs++,
    );
    expect(await eventually(() => resyncs === 1)).toBe(true);
    const [before] = await connectionIds(name, 'pubsub');
    await kill(before!);
    expect(await eventually(() => resyncs === 2)).toBe(true);
    const after = await connectionIds(name, 'pubsub');
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatchObject({ operation: 'watch', store: 'RedisOptionStore' });
    await writer.set('after', 'x');
    expect(await eventually(() => seen.includes('after'))).toBe(true);
    await watcher.close();
  });

  it('a settings instance whose subscriber died still sees a change made meanwhile, without load()', async () => {
    // The subscriber reconnects only after 800 ms: the write below lands while it is away.
    const { client, name } = namedClient({ retryStrategy: () => 800 });
    const keyPrefix = freshPrefix();
    const readerStore = new RedisOptionStore({ client, keyPrefix });
    const reader = new ShopSettings('shop', readerStore);
    const writer = new RedisOptionStore({ client: admin, keyPrefix });
    await reader.load();
    expect(await eventually(async () => (await connectionIds(name, 'pubsub')).length === 1)).toBe(true);
    const [id] = await connectionIds(name, 'pubsub');
    await kill(id!);
    await writer.set(reader.getOptionName('mode'), 'live');
    // Nobody was subscribed when that change was published: only the resync can tell the reader.
    expect(await admin.call('PUBSUB', 'NUMSUB', readerStore.channel)).toEqual([readerStore.channel, 0]);
    expect(await eventually(() => reader.getSetting('mode')!.getValue() === 'live')).toBe(true);
    reader.dispose();
    await readerStore.close();
  });

  it('a write whose connection is killed mid-flight rejects with OptionStoreError and changes nothing', async () => {
    // Without resending, ioredis drops the unanswered command: only the store's timeout ends the wait.
    const { client, name } = namedClient({ autoResendUnfulfilledCommands: false });
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client, keyPrefix, timeoutMs: 500 });
    await store.set('k', 'before');
    const [id] = await connectionIds(name, 'normal');
    await admin.call('CLIENT', 'PAUSE', '3000', 'WRITE');
    let outcome: Promise<unknown>;
    try {
      outcome = store.set('k', 'in flight').catch((caught: unknown) => caught);
      const blocked = await eventually(async () => {
        const list = String(await admin.call('CLIENT', 'LIST', 'ID', id!));
        return /flags=\w*b/.test(list);
      });
      expect(blocked).toBe(true);
      await kill(id!);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
    }
    const error = await outcome;
    expect(error).toBeInstanceOf(OptionStoreError);
    expect(error).toMatchObject({ store: 'RedisOptionStore', operation: 'set', timedOut: true });
    expect(await admin.get(`${keyPrefix}k`)).toBe('before');
    // The store goes on once ioredis has reconnected.
    expect(
      await eventually(() =>
        store.set('after', 'ok').then(
          () => true,
          () => false,
        ),
      ),
    ).toBe(true);
    expect(await admin.get(`${keyPrefix}after`)).toBe('ok');
  });

  it('no acknowledged write is lost while the connection is killed during a run of writes', async () => {
    const { client, name } = namedClient();
    const keyPrefix = freshPrefix();
    const store = new RedisOptionStore({ client, keyPrefix, timeoutMs: 2_000 });
    await store.get('warm-up');
    await expectNoAcknowledgedWriteLost({
      store,
      reader: new RedisOptionStore({ client: admin, keyPrefix }),
      count: 300,
      pauseMs: 10,
      killConnections: async () => {
        let killed = 0;
        for (const id of await connectionIds(name, 'normal')) {
          await kill(id).then(
            () => killed++,
            () => undefined,
          );
        }
        return killed;
      },
    });
  });
});
