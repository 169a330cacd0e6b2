import { OptionStoreError } from '../../errors/option-store-error';
import { runStoreOperation } from '../remote/store-operation';
import {
  listenStatement,
  type NotificationFeed,
  type NotificationFeedEvents,
  type NotificationFeedTiming,
} from './notification-feed';
import type { PgConnection, PgNotification, PgPool } from './postgres-client';
import { type ReconnectOptions, reconnectDelay } from './reconnect-delay';

/**
 * LISTEN for a pg Pool: a connection of its own, opened with the pool's options and Client
 * class (as pg-pool opens its connections) so that it takes no slot from the pool. When that
 * connection is lost it is opened again, with backoff, until the feed is stopped; every
 * successful (re)connect is reported through `onActive`.
 */
export class PoolListenerFeed implements NotificationFeed {
  readonly #pool: PgPool;
  readonly #channel: string;
  readonly #events: NotificationFeedEvents;
  readonly #timing: NotificationFeedTiming;
  readonly #reconnect: ReconnectOptions;
  #connection: PgConnection | null = null;
  #stopped = false;
  #attempt = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param pool - the caller's pool; the feed opens its own connection from it
   * @param channel - the channel to LISTEN on
   * @param events - where notifications, (re)connects and errors go
   * @param timing - the store's name and the connect timeout
   * @param reconnect - the backoff bounds
   */
  constructor(
    pool: PgPool,
    channel: string,
    events: NotificationFeedEvents,
    timing: NotificationFeedTiming,
    reconnect: ReconnectOptions,
  ) {
    this.#pool = pool;
    this.#channel = channel;
    this.#events = events;
    this.#timing = timing;
    this.#reconnect = reconnect;
    void this.#connect();
  }

  /** Stops reconnecting and ends the feed's own connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    const connection = this.#connection;
    this.#connection = null;
    if (connection) await this.#endQuietly(connection);
  }

  async #connect(): Promise<void> {
    this.#retryTimer = undefined;
    if (this.#stopped) return;
    const connection = new this.#pool.Client({ keepAlive: true, ...this.#pool.options });
    this.#connection = connection;
    connection.on('notification', (message: PgNotification) => {
      if (this.#connection === connection && message.channel === this.#channel) {
        this.#events.onPayload(message.payload ?? '');
      }
    });
    // Listeners stay attached after the connection is dropped, so a late 'error' is never unhandled.
    connection.on('error', (error: unknown) => this.#lost(connection, error));
    connection.on('end', () => this.#lost(connection, new Error('the LISTEN connection ended')));
    try {
      await runStoreOperation(this.#timing, 'watch', async () => {
        await connection.connect();
        await connection.query(listenStatement(this.#channel));
      });
    } catch (error) {
      this.#lost(connection, error);
      return;
    }
    if (this.#connection !== connection) return;
    this.#attempt = 0;
    this.#events.onActive();
  }

  #lost(connection: PgConnection, error: unknown): void {
    if (this.#connection !== connection) return;
    this.#connection = null;
    void this.#endQuietly(connection);
    if (this.#stopped) return;
    this.#events.onError(
      error instanceof OptionStoreError
        ? error
        : new OptionStoreError('watch', { store: this.#timing.store, cause: error }),
    );
    const timer = setTimeout(() => void this.#connect(), reconnectDelay(this.#attempt++, this.#reconnect));
    (timer as { unref?: () => void }).unref?.();
    this.#retryTimer = timer;
  }

  /** Ends `connection`, waiting at most the feed's timeout and ignoring errors (it may be broken already). */
  async #endQuietly(connection: PgConnection): Promise<void> {
    await runStoreOperation(this.#timing, 'close', () => connection.end()).catch(() => undefined);
  }
}
