import { OptionStoreError } from '../../errors/option-store-error';
import type { OptionStore } from '../option-store';
import { RemoteStoreCore } from '../remote/remote-store-core';
import type { StoreCommit, StoreCommitResult } from '../store-commit';
import { clusterSlot } from './cluster-slot';
import {
  isClusterClient,
  type RedisClusterClient,
  type RedisCommandClient,
  type RedisScanner,
  type RedisSubscriber,
} from './redis-client';
import { clusterLayout, type RedisKeyLayout, standaloneLayout } from './redis-key-layout';
import { COMMIT, DELETE_AND_PUBLISH, type LuaScript, SET_AND_PUBLISH } from './redis-scripts';
import { RedisSubscriptionFeed } from './subscription-feed';

/** Options of {@link RedisOptionStore}. */
export interface RedisOptionStoreOptions {
  /**
   * An ioredis client: a `Redis`, or a `Cluster` for Redis Cluster (recognised by its
   * `isCluster` flag). It stays the caller's: `close()` does not end it.
   */
  client: RedisCommandClient | RedisClusterClient;
  /**
   * Prepended to every key: option `k` lives in the Redis key `${keyPrefix}k` (with a Cluster,
   * `${keyPrefix}{partition}k`). Default `cpf:options:`. With a Cluster, a prefix that contains
   * a `{…}` hash tag puts all of the store's data in one slot.
   */
  keyPrefix?: string;
  /**
   * How long one operation may take before it rejects with a timed-out `OptionStoreError`, in
   * ms. Default 0: no limit. For standalone use: the settings layer bounds its store calls
   * itself (`storeTimeoutMs`). The change feed's subscription attempts are bounded either way.
   */
  timeoutMs?: number;
  /**
   * Receives change-feed problems: subscriber connection errors (ioredis reconnects by itself)
   * or an error thrown by a `watch` subscriber. Default: ignored.
   */
  onWatchError?: (error: OptionStoreError) => void;
}

const STORE_NAME = 'RedisOptionStore';
/** The default key prefix. */
export const DEFAULT_REDIS_KEY_PREFIX = 'cpf:options:';
/** Keys asked per SCAN step. */
const SCAN_COUNT = 1_000;
/** The Redis type of option keys (SCAN's TYPE filter). */
const OPTION_KEY_TYPE = 'string';

/**
 * An {@link OptionStore} in Redis or Redis Cluster, through an ioredis client: one string key
 * per option.
 *
 * - Keys are `${keyPrefix}${key}` (default prefix `cpf:options:`); `getMany` is one `MGET`.
 *   With a `Cluster`, keys are hash-tagged by their partition (the scope after the first `@`;
 *   see docs/stores.md), and `getMany` sends one `MGET` per slot, all at once.
 * - Each write is a Lua script that changes the key and publishes the change in one atomic
 *   step, on the channel `option-store-changes:${keyPrefix}` ({@link RedisOptionStore.channel}).
 * - `commit` is one Lua script: it checks every condition, then sets and deletes the keys,
 *   pushes the log entries onto the log list, trims it and publishes one change message.
 *   `readLog` is an `LRANGE`; `listKeys` a `SCAN` (of every master, with a Cluster).
 * - `watch` subscribes on a connection of its own (`client.duplicate()`, which the store
 *   owns and ends); after the subscriber reconnects it asks its subscribers to re-read
 *   (`onResync`), since messages published meanwhile are lost.
 * - Every failure, and every operation that outlasts `timeoutMs` (when set), rejects with an
 *   `OptionStoreError` naming the store and the operation.
 * - `close()` ends only the subscriber connection; the client stays open.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
 *
 * const store = new RedisOptionStore({ client: new Redis(process.env.REDIS_URL!) });
 * ```
 */
export class RedisOptionStore implements OptionStore {
  /** The prefix of every key. */
  readonly keyPrefix: string;
  /**
   * The pub/sub channel of this key prefix. After changing keys by hand, publish any message
   * on it (`PUBLISH <channel> resync`) to make every running instance re-read its settings.
   */
  readonly channel: string;
  /** Whether the client is a Redis Cluster client (and keys are hash-tagged by partition). */
  readonly cluster: boolean;

  readonly #client: RedisCommandClient | RedisClusterClient;
  readonly #layout: RedisKeyLayout;
  readonly #core: RemoteStoreCore;

  /**
   * @param options - the client, and optionally the key prefix, operation time limit and watch error handler
   * @throws TypeError when `client` is not an ioredis client or `keyPrefix` is not a string
   */
  constructor(options: RedisOptionStoreOptions) {
    const { client } = options;
    const methods = ['get', 'mget', 'eval', 'lrange', 'scan', 'duplicate'] as const;
    if (
      typeof client !== 'object' ||
      client === null ||
      methods.some((name) => typeof client[name] !== 'function')
    ) {
      throw new TypeError(
        'RedisOptionStore: `client` must be an ioredis client (new Redis(url) or new Cluster(nodes))',
      );
    }
    const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
    if (typeof keyPrefix !== 'string') throw new TypeError('RedisOptionStore: `keyPrefix` must be a string');
    this.#client = client;
    this.keyPrefix = keyPrefix;
    this.cluster = isClusterClient(client);
    this.#layout = this.cluster ? clusterLayout(keyPrefix) : standaloneLayout(keyPrefix);
    this.channel = `option-store-changes:${keyPrefix}`;
    this.#core = new RemoteStoreCore({
      store: STORE_NAME,
      timeoutMs: options.timeoutMs ?? 0,
      onWatchError: options.onWatchError,
      openFeed: (events) =>
        new RedisSubscriptionFeed(this.#openSubscriber(), this.channel, events, this.#core.feedContext),
    });
  }

  /** {@inheritDoc OptionStore.get} */
  get(key: string): Promise<string | undefined> {
    return this.#core.run(
      'get',
      async () => (await this.#client.get(this.#layout.optionKey(key))) ?? undefined,
    );
  }

  /** {@inheritDoc OptionStore.getMany} */
  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0 && !this.#core.closed) return Promise.resolve(new Map());
    return this.#core.run('getMany', async () => {
      const unique = [...new Set(keys)];
      const found = new Map<string, string>();
      // One MGET per slot (one for all keys on a standalone Redis), sent together: one round.
      await Promise.all(
        this.#bySlot(unique).map(async (group) => {
          const values = await this.#client.mget(group.map((key) => this.#layout.optionKey(key)));
          group.forEach((key, index) => {
            const value = values[index];
            if (typeof value === 'string') found.set(key, value);
          });
        }),
      );
      return found;
    });
  }

  /** {@inheritDoc OptionStore.set} */
  set(key: string, value: string): Promise<void> {
    return this.#core.run('set', async () => {
      await this.#eval(
        SET_AND_PUBLISH,
        1,
        this.#layout.optionKey(key),
        value,
        this.channel,
        this.#core.changeMessage([key]),
      );
    }, [key]);
  }

  /** {@inheritDoc OptionStore.delete} */
  delete(key: string): Promise<boolean> {
    return this.#core.run('delete', async () => {
      const removed = await this.#eval(
        DELETE_AND_PUBLISH,
        1,
        this.#layout.optionKey(key),
        this.channel,
        this.#core.changeMessage([key]),
      );
      return Number(removed) > 0;
    }, [key]);
  }

  /**
   * Applies every write of `commit` and appends its log entries in one atomic step, only when
   * every write's `expect` condition holds; otherwise changes nothing and reports the current
   * text of each key whose condition failed (see `OptionStore.commit`).
   *
   * One Lua script (one round trip), which Redis runs atomically. With a Cluster, every key of
   * the commit and its log must share one slot — they do when they share a partition, as the
   * contract requires; a commit across slots rejects without writing anything.
   */
  commit(commit: StoreCommit): Promise<StoreCommitResult> {
    return this.#core.runCommit(commit, async () => {
      const { writes } = commit;
      const keys = writes.map((write) => write.key);
      const log = commit.log !== undefined && commit.log.entries.length > 0 ? commit.log : undefined;
      const redisKeys = keys.map((key) => this.#layout.optionKey(key));
      if (log) redisKeys.push(this.#layout.logKey(log.name));
      this.#assertOneSlot(redisKeys);
      const args: string[] = [
        String(writes.length),
        log ? '1' : '0',
        String(log?.keep ?? 0),
        this.channel,
        this.#core.changeMessage(keys),
      ];
      for (const { value, expect } of writes) {
        args.push(value === null ? '0' : '1', value ?? '', conditionMode(expect), expect ?? '');
      }
      if (log) args.push(...log.entries.slice(-log.keep));
      const failed = await this.#eval(COMMIT, redisKeys.length, ...redisKeys, ...args);
      return commitResult(writes, failed);
    });
  }

  /**
   * Runs `script` by its hash (`EVALSHA`: the script's text is not sent again with every write),
   * and by its text when the server does not know it yet (`NOSCRIPT`: after a restart or a
   * `SCRIPT FLUSH`, on another cluster node) — a refused `EVALSHA` ran nothing, so running the
   * text then is safe — or when the client has no `evalsha`.
   */
  #eval(script: LuaScript, keyCount: number, ...args: string[]): Promise<unknown> {
    const client = this.#client;
    if (typeof client.evalsha !== 'function') return client.eval(script.text, keyCount, ...args);
    return client.evalsha(script.sha1, keyCount, ...args).catch((error: unknown) => {
      if (!isNoScript(error)) throw error;
      return client.eval(script.text, keyCount, ...args);
    });
  }

  /** {@inheritDoc OptionStore.readLog} */
  readLog(log: string, limit: number): Promise<string[]> {
    return this.#core.run('readLog', async () => {
      if (!(limit >= 1)) return [];
      return this.#client.lrange(this.#layout.logKey(log), 0, Math.floor(limit) - 1);
    });
  }

  /** {@inheritDoc OptionStore.listKeys} */
  listKeys(prefix: string): Promise<string[]> {
    return this.#core.run('listKeys', async () => {
      const client = this.#client;
      const scanners: RedisScanner[] = isClusterClient(client) ? client.nodes('master') : [client];
      const pattern = this.#layout.scanPattern(prefix);
      const pages = await Promise.all(scanners.map((scanner) => scanAll(scanner, pattern)));
      const keys = new Set<string>();
      for (const redisKey of pages.flat()) {
        const key = this.#layout.optionKeyOf(redisKey);
        if (key?.startsWith(prefix)) keys.add(key);
      }
      return [...keys];
    });
  }

  /**
   * Reports sets and deletes made through other store instances with the same key prefix on
   * the same Redis, in this process or another. `onResync` is called whenever the subscription
   * (re)starts, because messages published before that moment may have been missed.
   *
   * A timed-out write of this instance that completes after all is reported to its own
   * subscribers too: its caller was told it failed, so for them it is someone else's change.
   */
  watch(onChange: (key: string) => void, onResync?: () => void): () => void {
    return this.#core.watch(onChange, onResync);
  }

  /** Stops the change feed and ends the subscriber connection; the client stays open. */
  close(): Promise<void> {
    return this.#core.close();
  }

  #openSubscriber(): RedisSubscriber {
    const client = this.#client;
    return isClusterClient(client)
      ? client.duplicate([], { lazyConnect: false })
      : client.duplicate({ autoResubscribe: false, lazyConnect: false });
  }

  /** `keys` grouped by cluster slot (one group on a standalone Redis). */
  #bySlot(keys: readonly string[]): string[][] {
    if (!this.cluster) return [[...keys]];
    const groups = new Map<number, string[]>();
    for (const key of keys) {
      const slot = clusterSlot(this.#layout.optionKey(key));
      const group = groups.get(slot);
      if (group) group.push(key);
      else groups.set(slot, [key]);
    }
    return [...groups.values()];
  }

  /** With a Cluster, refuses a commit whose Redis keys span slots (Redis would answer CROSSSLOT). */
  #assertOneSlot(redisKeys: readonly string[]): void {
    if (!this.cluster) return;
    const slot = clusterSlot(redisKeys[0]!);
    if (redisKeys.some((key) => clusterSlot(key) !== slot)) {
      throw new OptionStoreError('commit', {
        store: STORE_NAME,
        message: `${STORE_NAME}.commit failed: the keys of one commit must share a partition (the text after the first "@") on a Redis Cluster`,
      });
    }
  }
}

/** The script's condition mode of `expect`. */
function conditionMode(expect: string | null | undefined): string {
  if (expect === undefined) return '0';
  return expect === null ? '1' : '2';
}

/** Reads the script's answer: an empty array, or triples of write index, presence and text. */
function commitResult(writes: StoreCommit['writes'], failed: unknown): StoreCommitResult {
  const triples = Array.isArray(failed) ? (failed as unknown[]) : [];
  if (triples.length === 0) return { ok: true };
  const current = new Map<string, string | null>();
  for (let at = 0; at + 2 < triples.length; at += 3) {
    const write = writes[Number(triples[at]) - 1];
    if (write) current.set(write.key, triples[at + 1] === '1' ? String(triples[at + 2]) : null);
  }
  return { ok: false, current };
}

/** Every key `scanner` holds that matches `pattern` (string keys only), walking SCAN to its end. */
async function scanAll(scanner: RedisScanner, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, page] = await scanner.scan(
      cursor,
      'MATCH',
      pattern,
      'COUNT',
      SCAN_COUNT,
      'TYPE',
      OPTION_KEY_TYPE,
    );
    keys.push(...page);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/** Whether Redis refused an `EVALSHA` because it does not have the script cached. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
