import { OptionStoreError } from '../../errors/option-store-error';
import { runStoreOperation, type StoreOperationContext } from '../remote/store-operation';
import type { RedisSubscriber } from './redis-client';

/** What a {@link RedisSubscriptionFeed} reports to its store. */
export interface SubscriptionFeedEvents {
  /** A message arrived on the store's channel. */
  onMessage(message: string): void;
  /** SUBSCRIBE is in place: the first time and after every reconnect; earlier messages may have been missed. */
  onActive(): void;
  /** The subscriber connection failed or closed (ioredis reconnects it by itself). */
  onError(error: OptionStoreError): void;
}

/**
 * The change feed of a Redis store: a subscriber connection of its own, made by the store with
 * the caller's `client.duplicate()` and owned (and ended) by the feed. ioredis reconnects it
 * with its own `retryStrategy`; on every `ready` the feed subscribes again itself (automatic
 * resubscription is off, so the moment the subscription is back is known) and then reports
 * `onActive`, since messages published while it was away are lost.
 *
 * For a Redis Cluster the subscriber is a duplicated `Cluster`: a classic `PUBLISH` reaches
 * every node, and ioredis keeps one subscriber connection to some node. When that node fails,
 * ioredis moves the subscription to another node by itself, without a `ready` of the cluster
 * client: messages published during that move can be missed without a resync (the whole
 * cluster client reconnecting does report one).
 */
export class RedisSubscriptionFeed {
  readonly #subscriber: RedisSubscriber;
  readonly #channel: string;
  readonly #events: SubscriptionFeedEvents;
  readonly #timing: StoreOperationContext;
  #stopped = false;

  /**
   * @param subscriber - the feed's own connection (duplicated from the caller's client)
   * @param channel - the pub/sub channel
   * @param events - where messages, (re)subscriptions and errors go
   * @param timing - the store's name and the subscribe timeout
   */
  constructor(
    subscriber: RedisSubscriber,
    channel: string,
    events: SubscriptionFeedEvents,
    timing: StoreOperationContext,
  ) {
    this.#channel = channel;
    this.#events = events;
    this.#timing = timing;
    this.#subscriber = subscriber;
    subscriber.on('message', (from, message) => {
      if (!this.#stopped && from === channel) events.onMessage(message);
    });
    subscriber.on('ready', () => void this.#subscribe());
    subscriber.on('error', (error) => {
      if (!this.#stopped)
        events.onError(new OptionStoreError('watch', { store: timing.store, cause: error }));
    });
    // A server-side close (a killed connection, a restart) comes without an 'error'.
    subscriber.on('close', () => {
      if (this.#stopped) return;
      const cause = new Error('the subscriber connection closed; ioredis reconnects it');
      events.onError(new OptionStoreError('watch', { store: timing.store, cause }));
    });
    if (subscriber.status === 'ready') void this.#subscribe();
    else if (subscriber.status === 'wait') subscriber.connect().catch(() => undefined);
  }

  /** Ends the subscriber connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#subscriber.disconnect();
  }

  async #subscribe(): Promise<void> {
    if (this.#stopped) return;
    try {
      await runStoreOperation(this.#timing, 'watch', () => this.#subscriber.subscribe(this.#channel));
    } catch (error) {
      if (this.#stopped) return;
      this.#events.onError(error as OptionStoreError);
      // Drop the connection; ioredis reopens it and the next 'ready' subscribes again.
      this.#subscriber.disconnect(true);
      return;
    }
    if (!this.#stopped) this.#events.onActive();
  }
}
