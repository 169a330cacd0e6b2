import type { OptionStoreError } from '../../errors/option-store-error';

/** What a {@link NotificationFeed} reports to its store. */
export interface NotificationFeedEvents {
  /** A notification arrived on the store's channel. */
  onPayload(payload: string): void;
  /**
   * LISTEN is in place: the first time, and again after every reconnect. Notifications sent
   * before this moment may have been missed, so the store asks its subscribers to re-read.
   */
  onActive(): void;
  /** Listening failed or its connection was lost (the feed reconnects when it can). */
  onError(error: OptionStoreError): void;
}

/** A running LISTEN on one channel; created started, ended by `stop`. */
export interface NotificationFeed {
  /** Stops listening and ends the connections the feed opened. */
  stop(): Promise<void>;
}

/** How a feed bounds its own waits. */
export interface NotificationFeedTiming {
  /** The store's name for errors. */
  readonly store: string;
  /** How long connecting and LISTEN may take. */
  readonly timeoutMs: number;
}

/** `LISTEN` text for a channel name (the channel is made of `[a-z0-9_]` only). */
export function listenStatement(channel: string): string {
  return `LISTEN "${channel}"`;
}
