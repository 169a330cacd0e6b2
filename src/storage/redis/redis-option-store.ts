import type { OptionStoreError } from '../../errors/option-store-error';
import type { OptionStore } from '../option-store';
import { RemoteStoreCore } from '../remote/remote-store-core';
import type { RedisCommandClient } from './redis-client';
import { DELETE_AND_PUBLISH, SET_AND_PUBLISH } from './redis-scripts';
import { RedisSubscriptionFeed } from './subscription-feed';

/** Options of {@link RedisOptionStore}. */
export interface RedisOptionStoreOptions {
  /** An ioredis client. It stays the caller's: `close()` does not end it. */
  client: RedisCommandClient;
  /** Prepended to every key: option `k` lives in the Redis key `${keyPrefix}k`. Default `cpf:options:`. */
  keyPrefix?: string;
  /** How long one operation may take before it rejects with a timed-out `OptionStoreError`, in ms. Default 5000; 0: no limit. */
  timeoutMs?: number;
  /**
   * Receives change-feed problems: subscriber connection errors (ioredis reconnects by itself)
   * or an error thrown by a `watch` subscriber. Default: ignored.
   */
  onWatchError?: (error: OptionStoreError) => void;
}

const STORE_NAME = 'RedisOptionStore';
const DEFAULT_TIMEOUT_MS = 5_000;
/** The default key prefix. */
export const DEFAULT_REDIS_KEY_PREFIX = 'cpf:options:';

/**
 * An {@link OptionStore} in Redis, through an ioredis client: one string key per option.
 *
 * - Keys are `${keyPrefix}${key}` (default prefix `cpf:options:`); `getMany` is one `MGET`.
 * - Each write is a Lua script that changes the key and publishes the change in one atomic
 *   step, on the channel `option-store-changes:${keyPrefix}` ({@link RedisOptionStore.channel}).
 * - `watch` subscribes on a connection of its own (`client.duplicate()`, which the store
 *   owns and ends); after the subscriber reconnects it asks its subscribers to re-read
 *   (`onResync`), since messages published meanwhile are lost.
 * - Every failure, and every operation that outlasts `timeoutMs`, rejects with an
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

  readonly #client: RedisCommandClient;
  readonly #core: RemoteStoreCore;

  /**
   * @param options - the client, and optionally the key prefix, operation timeout and watch error handler
   * @throws TypeError when `client` is not an ioredis client or `keyPrefix` is not a string
   */
  constructor(options: RedisOptionStoreOptions) {
    const { client } = options;
    const methods = ['get', 'mget', 'eval', 'duplicate'] as const;
    if (
      typeof client !== 'object' ||
      client === null ||
      methods.some((name) => typeof client[name] !== 'function')
    ) {
      throw new TypeError('RedisOptionStore: `client` must be an ioredis client (new Redis(url))');
    }
    const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
    if (typeof keyPrefix !== 'string') throw new TypeError('RedisOptionStore: `keyPrefix` must be a string');
    this.#client = client;
    this.keyPrefix = keyPrefix;
    this.channel = `option-store-changes:${keyPrefix}`;
    this.#core = new RemoteStoreCore({
      store: STORE_NAME,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      onWatchError: options.onWatchError,
      openFeed: (events) => new RedisSubscriptionFeed(client, this.channel, events, this.#core.context),
    });
  }

  /** {@inheritDoc OptionStore.get} */
  get(key: string): Promise<string | undefined> {
    return this.#core.run('get', async () => (await this.#client.get(this.keyPrefix + key)) ?? undefined);
  }

  /** {@inheritDoc OptionStore.getMany} */
  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0 && !this.#core.closed) return Promise.resolve(new Map());
    return this.#core.run('getMany', async () => {
      const unique = [...new Set(keys)];
      const values = await this.#client.mget(unique.map((key) => this.keyPrefix + key));
      const found = new Map<string, string>();
      unique.forEach((key, index) => {
        const value = values[index];
        if (typeof value === 'string') found.set(key, value);
      });
      return found;
    });
  }

  /** {@inheritDoc OptionStore.set} */
  set(key: string, value: string): Promise<void> {
    return this.#core.run(
      'set',
      async () => {
        await this.#client.eval(
          SET_AND_PUBLISH,
          1,
          this.keyPrefix + key,
          value,
          this.channel,
          this.#core.changeMessage(key),
        );
      },
      key,
    );
  }

  /** {@inheritDoc OptionStore.delete} */
  delete(key: string): Promise<boolean> {
    return this.#core.run(
      'delete',
      async () => {
        const removed = await this.#client.eval(
          DELETE_AND_PUBLISH,
          1,
          this.keyPrefix + key,
          this.channel,
          this.#core.changeMessage(key),
        );
        return Number(removed) > 0;
      },
      key,
    );
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
}
