import { runStoreOperation } from '../remote/store-operation';
import {
  listenStatement,
  type NotificationFeed,
  type NotificationFeedEvents,
  type NotificationFeedTiming,
} from './notification-feed';
import type { PgConnection, PgNotification } from './postgres-client';

/**
 * LISTEN on the caller's own pg Client (or PoolClient), the connection the store queries
 * through. The store does not own that connection, so it neither ends nor reopens it: when
 * it is lost, queries fail too, and the caller replaces the client (use a Pool to have the
 * store reconnect by itself). Stopping removes the store's handler but issues no UNLISTEN,
 * which would also silence other stores listening on the same connection and channel.
 */
export class SharedConnectionFeed implements NotificationFeed {
  readonly #connection: PgConnection;
  readonly #handler: (message: PgNotification) => void;
  #stopped = false;

  /**
   * @param connection - the caller's connection
   * @param channel - the channel to LISTEN on
   * @param events - where notifications, activation and errors go
   * @param timing - the store's name and the LISTEN timeout
   */
  constructor(
    connection: PgConnection,
    channel: string,
    events: NotificationFeedEvents,
    timing: NotificationFeedTiming,
  ) {
    this.#connection = connection;
    this.#handler = (message) => {
      if (!this.#stopped && message.channel === channel) events.onPayload(message.payload ?? '');
    };
    connection.on('notification', this.#handler);
    runStoreOperation(timing, 'watch', () => connection.query(listenStatement(channel))).then(
      () => {
        if (!this.#stopped) events.onActive();
      },
      (error) => {
        if (!this.#stopped) events.onError(error);
      },
    );
  }

  /** Removes the store's notification handler from the caller's connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#connection.removeListener('notification', this.#handler);
  }
}
