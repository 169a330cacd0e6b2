import { OptionStoreError, type OptionStoreOperation } from '../../errors/option-store-error';
import { assertValidCommit, type StoreCommit, type StoreCommitResult } from '../store-commit';
import {
  decodeChangeMessage,
  encodeChangeMessage,
  encodeVersionedMessage,
  newInstanceId,
  type VersionedMessage,
} from './change-message';
import { type ChangeListener, ChangeWatchers } from './change-watchers';
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
  /**
   * How long one operation may take, in ms; 0: no limit. The settings layer bounds its store
   * calls itself (`storeTimeoutMs`), so its stores need none; this is for standalone use.
   */
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
 * How long a change feed's connection attempt (connect, LISTEN, SUBSCRIBE) may take, in ms:
 * a feed retries on its own, so its waits are always bounded, whatever the operations' limit.
 */
export const FEED_CONNECT_TIMEOUT_MS = 10_000;

/**
 * What the networked option stores (PostgreSQL, Redis) share: the closed state, running an
 * operation with its optional time limit (a timed-out write of this instance that completes
 * after all is reported to its own subscribers), the `watch` subscribers, and the change feed's
 * lifecycle: opened on the first subscriber, stopped when the last one leaves or the store
 * closes. Messages the instance sent itself are ignored, as the `watch` contract requires.
 */
export class RemoteStoreCore {
  /** The store's name and operation time limit, as the operations use them. */
  readonly context: StoreOperationContext;
  /** The store's name and the change feed's connection time limit ({@link FEED_CONNECT_TIMEOUT_MS}). */
  readonly feedContext: StoreOperationContext;

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
    this.feedContext = { store, timeoutMs: FEED_CONNECT_TIMEOUT_MS };
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
   * The change message announcing that this instance changed `keys` (the resync form when it
   * would exceed `maxBytes`).
   */
  changeMessage(keys: readonly string[], maxBytes?: number): string {
    return encodeChangeMessage(this.#instanceId, keys, maxBytes);
  }

  /**
   * The versioned message announcing that this instance changed `keys` to `texts` (parallel: a
   * text, `null` deleted, `undefined` not known), when it fits `maxBytes` (see
   * `encodeVersionedMessage`); the store fills in the version as it commits.
   */
  versionedMessage(
    keys: readonly string[],
    texts: readonly (string | null | undefined)[],
    maxBytes?: number,
  ): VersionedMessage | undefined {
    return encodeVersionedMessage(this.#instanceId, keys, texts, maxBytes);
  }

  /**
   * Runs one operation: rejects at once when the store is closed, else with the store's
   * time limit and errors. `writtenKeys`: the keys a write changes, reported to this instance's
   * own subscribers if the write completes after it timed out.
   */
  run<T>(
    operation: OptionStoreOperation,
    work: () => Promise<T>,
    writtenKeys?: readonly string[],
  ): Promise<T> {
    if (this.#closed) return Promise.reject(closedStoreError(this.context.store, operation));
    return runStoreOperation(
      this.context,
      operation,
      work,
      writtenKeys === undefined ? undefined : () => this.#watchers.reportChanges(writtenKeys),
    );
  }

  /**
   * Runs a store's `commit`: rejects a malformed commit (a `TypeError`, before anything is
   * sent), else runs `work` as {@link RemoteStoreCore.run} does, with every key of the commit
   * reported to own subscribers if it lands after it timed out.
   */
  runCommit(commit: StoreCommit, work: () => Promise<StoreCommitResult>): Promise<StoreCommitResult> {
    try {
      assertValidCommit(commit);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#closed) return Promise.reject(closedStoreError(this.context.store, 'commit'));
    // The keys are listed only if the commit lands after it timed out.
    return runStoreOperation(this.context, 'commit', work, () =>
      this.#watchers.reportChanges(commit.writes.map((write) => write.key)),
    );
  }

  /** The store's `watch`: adds a subscriber, opening the feed for the first one. */
  watch(onChange: ChangeListener, onResync?: () => void): () => void {
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
    // This instance's own message (`<kind>:<its id>` then `:` or the end) is not decoded at all.
    const id = this.#instanceId;
    if (text.startsWith(id, 2) && (text.length === id.length + 2 || text.charCodeAt(id.length + 2) === 58))
      return;
    const message = decodeChangeMessage(text);
    if (message.sender === id) return;
    if (message.kind === 'change') this.#watchers.reportChanges(message.keys, message.changes);
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
