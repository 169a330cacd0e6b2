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

/** How often an active feed looks whether the caller ended its pool, in ms. */
const POOL_END_CHECK_MS = 250;

/**
 * LISTEN for a pg Pool: a connection of its own, opened with the pool's options and Client
 * class (as pg-pool opens its connections) so that it takes no slot from the pool. When that
 * connection is lost it is opened again, with backoff, until the feed is stopped; every
 * successful (re)connect is reported through `onActive`.
 *
 * The connection lives as long as the pool: once the caller has ended the pool (`pool.end()`,
 * seen as pg-pool's `ending` flag, looked at before every read, on every notification and every
 * 250 ms), the feed runs no read, ends its connection, reports the end through `onError` and
 * never reconnects. Reads then go to the pool and reject as it does, and the connection no
 * longer keeps the process alive after the pool is gone.
 */
export class PoolListenerFeed implements NotificationFeed {
  readonly #pool: PgPool;
  readonly #channel: string;
  readonly #events: NotificationFeedEvents;
  readonly #timing: NotificationFeedTiming;
  readonly #reconnect: ReconnectOptions;
  #connection: PgConnection | null = null;
  /** The connection once LISTEN is in place on it (until it is lost or the feed stops). */
  #active: PgConnection | null = null;
  /** Reads running on the active connection. */
  #reading = 0;
  #stopped = false;
  #attempt = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #poolEndTimer: ReturnType<typeof setInterval> | undefined;
  /** Abandons the connection attempt in flight (set while one runs). */
  #abandonConnect: (() => void) | undefined;

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

  /**
   * Runs a read on the feed's own connection when it is listening and runs no other read, and
   * answers `undefined` otherwise (the caller then reads through the pool). The connection is
   * warm by construction — a notification just came in on it — so the read after a change
   * never waits for the pool to open a connection after its idle timeout, nor for a checkout.
   * A read that fails there (the connection was lost meanwhile) is left to the caller to retry.
   */
  tryRead<T>(read: (connection: PgConnection) => Promise<T>): Promise<T> | undefined {
    if (this.#poolEnded()) return undefined;
    const connection = this.#active;
    if (connection === null || this.#reading > 0) return undefined;
    this.#reading++;
    const done = () => {
      this.#reading--;
    };
    const running = read(connection);
    running.then(done, done);
    return running;
  }

  /** Stops reconnecting and ends the feed's own connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#active = null;
    // A connection attempt in flight is given up at once: its time limit (a timer) must not
    // keep the process alive after the store was closed.
    this.#abandonConnect?.();
    clearTimeout(this.#retryTimer);
    clearInterval(this.#poolEndTimer);
    const connection = this.#connection;
    this.#connection = null;
    if (connection) await this.#endQuietly(connection);
  }

  async #connect(): Promise<void> {
    this.#retryTimer = undefined;
    if (this.#stopped || this.#poolEnded()) return;
    const connection = new this.#pool.Client({ keepAlive: true, ...this.#pool.options });
    this.#connection = connection;
    connection.on('notification', (message: PgNotification) => {
      if (this.#connection === connection && message.channel === this.#channel && !this.#poolEnded()) {
        this.#events.onPayload(message.payload ?? '');
      }
    });
    // Listeners stay attached after the connection is dropped, so a late 'error' is never unhandled.
    connection.on('error', (error: unknown) => this.#lost(connection, error));
    connection.on('end', () => this.#lost(connection, new Error('the LISTEN connection ended')));
    const abandoned = new Promise<never>((_, reject) => {
      this.#abandonConnect = () =>
        reject(new Error('the store was closed while the LISTEN connection opened'));
    });
    try {
      await runStoreOperation(this.#timing, 'watch', () =>
        Promise.race([
          (async () => {
            await connection.connect();
            await connection.query(listenStatement(this.#channel));
          })(),
          abandoned,
        ]),
      );
    } catch (error) {
      this.#lost(connection, error);
      return;
    } finally {
      this.#abandonConnect = undefined;
    }
    if (this.#connection !== connection) return;
    if (this.#poolEnded()) return;
    this.#attempt = 0;
    this.#active = connection;
    this.#watchPoolEnd();
    this.#events.onActive();
  }

  /**
   * Whether the caller ended the pool; the first time it is seen, the feed shuts down for good
   * (see the class notes).
   */
  #poolEnded(): boolean {
    if (this.#pool.ending !== true) return false;
    if (!this.#stopped) {
      void this.stop();
      this.#events.onError(
        new OptionStoreError('watch', {
          store: this.#timing.store,
          message: `${this.#timing.store}.watch stopped: the pool was ended`,
        }),
      );
    }
    return true;
  }

  /** Looks now and then whether the pool was ended, while the connection is active (the timer never keeps the process alive). */
  #watchPoolEnd(): void {
    clearInterval(this.#poolEndTimer);
    const timer = setInterval(() => this.#poolEnded(), POOL_END_CHECK_MS);
    (timer as { unref?: () => void }).unref?.();
    this.#poolEndTimer = timer;
  }

  #lost(connection: PgConnection, error: unknown): void {
    if (this.#connection !== connection) return;
    this.#connection = null;
    this.#active = null;
    clearInterval(this.#poolEndTimer);
    void this.#endQuietly(connection);
    if (this.#stopped || this.#poolEnded()) return;
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
