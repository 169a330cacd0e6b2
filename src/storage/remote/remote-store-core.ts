import { OptionStoreError, type OptionStoreOperation } from '../../errors/option-store-error';
import { decodeChangeMessage, encodeChangeMessage, newInstanceId } from './change-message';
import { ChangeWatchers } from './change-watchers';
import { closedStoreError, runStoreOperation, type StoreOperationContext } from './store-operation';

/** What a store's change feed reports to {@link RemoteStoreCore}. */
export interface ChangeFeedEvents {
  /** A change message arrived on the store's channel. */
  onMessage(text: string): void;
  /** The feed is listening: the first time and after every reconnect; earlier messages may have been missed. */
  onActive(): void;
  /** The feed failed or lost its connection. */
  onError(error: OptionStoreError): void;
}

/** A running change feed; created started, ended by `stop`. */
export interface ChangeFeed {
  /** Stops listening and ends the connections the feed opened. */
  stop(): Promise<void>;
}

/** What {@link RemoteStoreCore} needs from the store it serves. */
export interface RemoteStoreCoreOptions {
  /** The store's name for errors, e.g. `RedisOptionStore`. */
  readonly store: string;
  /** How long one operation may take, in ms; 0: no limit. */
  readonly timeoutMs: number;
  /** Receives change-feed problems and errors thrown by `watch` subscribers. */
  readonly onWatchError: ((error: OptionStoreError) => void) | undefined;
  /**
   * Starts the store's change feed, reporting to `events`; called on the first `watch` (and
   * again after the last subscriber left). `null`: the client cannot carry a feed.
   */
  readonly openFeed: (events: ChangeFeedEvents) => ChangeFeed | null;
}

/**
 * What the networked option stores (PostgreSQL, Redis) share: the closed state, running an
 * operation with its timeout (a timed-out write of this instance that completes after all is
 * reported to its own subscribers), the `watch` subscribers, and the change feed's lifecycle:
 * opened on the first subscriber, stopped when the last one leaves or the store closes.
 * Messages the instance sent itself are ignored, as the `watch` contract requires.
 */
export class RemoteStoreCore {
  /** The store's name and operation timeout, as the operations and feeds use them. */
  readonly context: StoreOperationContext;

  readonly #onWatchError: ((error: OptionStoreError) => void) | undefined;
  readonly #openFeed: (events: ChangeFeedEvents) => ChangeFeed | null;
  readonly #instanceId = newInstanceId();
  readonly #watchers: ChangeWatchers;
  readonly #events: ChangeFeedEvents;
  #feed: ChangeFeed | null = null;
  #closed = false;

  /** @param options - the store's name, timeout, watch error handler and feed factory */
  constructor(options: RemoteStoreCoreOptions) {
    const { store } = options;
    this.context = { store, timeoutMs: options.timeoutMs };
    this.#onWatchError = options.onWatchError;
    this.#openFeed = options.openFeed;
    this.#watchers = new ChangeWatchers((error) =>
      this.#reportWatchError(
        new OptionStoreError('watch', {
          store,
          cause: error,
          message: `${store}.watch: a subscriber threw: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
    );
    this.#events = {
      onMessage: (text) => this.#onMessage(text),
      onActive: () => this.#watchers.reportResync(),
      onError: (error) => this.#reportWatchError(error),
    };
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * The change message announcing that this instance changed `key` (the resync form when it
   * would exceed `maxBytes`).
   */
  changeMessage(key: string, maxBytes?: number): string {
    return encodeChangeMessage(this.#instanceId, key, maxBytes);
  }

  /**
   * Runs one operation: rejects at once when the store is closed, else with the store's
   * timeout and errors. `writtenKey`: the key a write changes, reported to this instance's own
   * subscribers if the write completes after it timed out.
   */
  run<T>(operation: OptionStoreOperation, work: () => Promise<T>, writtenKey?: string): Promise<T> {
    if (this.#closed) return Promise.reject(closedStoreError(this.context.store, operation));
    return runStoreOperation(
      this.context,
      operation,
      work,
      writtenKey === undefined ? undefined : () => this.#watchers.reportChange(writtenKey),
    );
  }

  /** The store's `watch`: adds a subscriber, opening the feed for the first one. */
  watch(onChange: (key: string) => void, onResync?: () => void): () => void {
    if (this.#closed) return () => {};
    const remove = this.#watchers.add(onChange, onResync);
    this.#feed ??= this.#openFeed(this.#events);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      if (remove()) this.#stopFeed();
    };
  }

  /** The store's `close`: drops every subscriber and stops the feed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watchers.clear();
    const feed = this.#feed;
    this.#feed = null;
    await feed?.stop();
  }

  #stopFeed(): void {
    const feed = this.#feed;
    this.#feed = null;
    feed?.stop().catch((error: unknown) => {
      this.#reportWatchError(new OptionStoreError('watch', { store: this.context.store, cause: error }));
    });
  }

  #onMessage(text: string): void {
    const message = decodeChangeMessage(text);
    if (message.sender === this.#instanceId) return;
    if (message.kind === 'change') this.#watchers.reportChange(message.key);
    else this.#watchers.reportResync();
  }

  #reportWatchError(error: OptionStoreError): void {
    try {
      this.#onWatchError?.(error);
    } catch {
      // The error handler's own failure has nowhere further to go.
    }
  }
}
