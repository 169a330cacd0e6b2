import type { OptionStoreError, OptionStoreOperation } from '../../errors/option-store-error';
import type { OptionStore } from '../option-store';
import { type ChangeFeedEvents, RemoteStoreCore } from '../remote/remote-store-core';
import type { NotificationFeed, NotificationFeedEvents } from './notification-feed';
import { type OptionTableSql, optionTableSql } from './option-table-sql';
import { PgliteFeed } from './pglite-feed';
import { PoolListenerFeed } from './pool-listener-feed';
import {
  type ClassifiedPostgresClient,
  classifyPostgresClient,
  type PostgresQueryable,
} from './postgres-client';
import type { ReconnectOptions } from './reconnect-delay';
import { SharedConnectionFeed } from './shared-connection-feed';
import { type OptionTableName, optionTableName } from './table-name';

/** Options of {@link PostgresOptionStore}. */
export interface PostgresOptionStoreOptions {
  /**
   * A `pg` Pool (recommended for servers), Client or PoolClient, or a PGlite instance. It
   * stays the caller's: `close()` does not end it.
   */
  client: PostgresQueryable;
  /** The table, optionally schema-qualified (`shop.options`); created on first use. Default `options`. */
  table?: string;
  /** How long one operation may take before it rejects with a timed-out `OptionStoreError`, in ms. Default 5000; 0: no limit. */
  timeoutMs?: number;
  /** Backoff bounds for reopening a lost LISTEN connection (pg Pool only). */
  reconnect?: ReconnectOptions;
  /**
   * Receives change-feed problems: a lost or failed LISTEN connection (reopened by itself for
   * a Pool), or an error thrown by a `watch` subscriber. Default: ignored.
   */
  onWatchError?: (error: OptionStoreError) => void;
}

const STORE_NAME = 'PostgresOptionStore';
const DEFAULT_TIMEOUT_MS = 5_000;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_PAYLOAD_BYTES = 7_999;
/** SQLSTATEs of a CREATE TABLE that lost a race with another instance creating the same table. */
const CONCURRENT_CREATE_CODES = new Set(['23505', '42P07']);

/**
 * An {@link OptionStore} in a PostgreSQL table, through a `pg` Pool/Client or an embedded
 * PGlite database: one code path for both.
 *
 * - The table (default `options`: `key text PRIMARY KEY, value text NOT NULL, updated_at
 *   timestamptz`) is created on first use; two instances starting at once are safe.
 * - `getMany` is one query (`key = ANY($1)`); writes are upserts; keys and values are only
 *   ever bound parameters.
 * - `watch` uses LISTEN/NOTIFY on the table's channel ({@link PostgresOptionStore.channel}).
 *   Each write notifies in the same statement, so it is announced exactly when it commits.
 *   With a Pool the store opens one connection of its own for LISTEN, reopens it with
 *   backoff when it is lost and then asks its subscribers to re-read (`onResync`).
 * - Every failure, and every operation that outlasts `timeoutMs`, rejects with an
 *   `OptionStoreError` naming the store and the operation, with the driver's error as `cause`.
 * - `close()` ends only the LISTEN connection the store opened; the client stays open.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * pool.on('error', () => {}); // an idle connection dropped by the server must not crash the app
 * const store = new PostgresOptionStore({ client: pool });
 * ```
 *
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
 *
 * const store = new PostgresOptionStore({ client: new PGlite('./.data/options') });
 * ```
 */
export class PostgresOptionStore implements OptionStore {
  /** The table name as given (default `options`). */
  readonly table: string;
  /**
   * The LISTEN/NOTIFY channel of the table. After editing the table by hand, run
   * `SELECT pg_notify('<channel>', '')` to make every running instance re-read its settings.
   */
  readonly channel: string;

  readonly #client: ClassifiedPostgresClient;
  readonly #tableName: OptionTableName;
  readonly #sql: OptionTableSql;
  readonly #reconnect: ReconnectOptions;
  readonly #core: RemoteStoreCore;
  #tableReady: Promise<void> | null = null;

  /**
   * @param options - the client, and optionally the table, operation timeout, reconnect backoff and watch error handler
   * @throws TypeError for a client without `query` or an invalid table name
   */
  constructor(options: PostgresOptionStoreOptions) {
    this.#client = classifyPostgresClient(options.client);
    this.#tableName = optionTableName(options.table ?? 'options');
    this.table = this.#tableName.name;
    this.channel = this.#tableName.channel;
    this.#sql = optionTableSql(this.#tableName);
    this.#reconnect = options.reconnect ?? {};
    this.#core = new RemoteStoreCore({
      store: STORE_NAME,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      onWatchError: options.onWatchError,
      openFeed: (events) => this.#openFeed(events),
    });
  }

  /** {@inheritDoc OptionStore.get} */
  get(key: string): Promise<string | undefined> {
    return this.#run('get', async () => {
      const { rows } = await this.#query(this.#sql.get, [key]);
      const row = rows[0] as { value?: unknown } | undefined;
      return typeof row?.value === 'string' ? row.value : undefined;
    });
  }

  /** {@inheritDoc OptionStore.getMany} */
  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0 && !this.#core.closed) return Promise.resolve(new Map());
    return this.#run('getMany', async () => {
      const found = new Map<string, string>();
      const { rows } = await this.#query(this.#sql.getMany, [[...new Set(keys)]]);
      for (const row of rows as Array<{ key?: unknown; value?: unknown }>) {
        if (typeof row.key === 'string' && typeof row.value === 'string') found.set(row.key, row.value);
      }
      return found;
    });
  }

  /** {@inheritDoc OptionStore.set} */
  set(key: string, value: string): Promise<void> {
    return this.#run(
      'set',
      async () => {
        await this.#query(this.#sql.set, [key, value, this.channel, this.#changeMessage(key)]);
      },
      key,
    );
  }

  /** {@inheritDoc OptionStore.delete} */
  delete(key: string): Promise<boolean> {
    return this.#run(
      'delete',
      async () => {
        const { rows } = await this.#query(this.#sql.delete, [key, this.channel, this.#changeMessage(key)]);
        return rows.length > 0;
      },
      key,
    );
  }

  /**
   * Reports sets and deletes made through other store instances on the same table, in this
   * process or another. `onResync` is called whenever LISTEN (re)starts, because changes
   * made before that moment may have been missed; also when another instance changed a key
   * too long to name in a notification (NOTIFY payloads are limited to 8000 bytes).
   *
   * A timed-out write of this instance that completes after all is reported to its own
   * subscribers too: its caller was told it failed, so for them it is someone else's change.
   */
  watch(onChange: (key: string) => void, onResync?: () => void): () => void {
    return this.#core.watch(onChange, onResync);
  }

  /** Stops the change feed and ends the LISTEN connection the store opened; the client stays open. */
  close(): Promise<void> {
    return this.#core.close();
  }

  #run<T>(operation: OptionStoreOperation, work: () => Promise<T>, writtenKey?: string): Promise<T> {
    return this.#core.run(
      operation,
      async () => {
        await this.#ensureTable();
        return work();
      },
      writtenKey,
    );
  }

  #query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> {
    return this.#client.client.query(text, params);
  }

  #ensureTable(): Promise<void> {
    this.#tableReady ??= this.#createTable().catch((error: unknown) => {
      this.#tableReady = null;
      throw error;
    });
    return this.#tableReady;
  }

  async #createTable(): Promise<void> {
    const { rows } = await this.#query(this.#sql.exists, [this.#tableName.sql]);
    if ((rows[0] as { present?: unknown } | undefined)?.present === true) return;
    try {
      await this.#query(this.#sql.create);
    } catch (error) {
      // CREATE TABLE IF NOT EXISTS still fails when another session creates the same table at
      // the same moment; that session committed it, so the table is there.
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !CONCURRENT_CREATE_CODES.has(code)) throw error;
    }
  }

  #changeMessage(key: string): string {
    return this.#core.changeMessage(key, MAX_NOTIFY_PAYLOAD_BYTES);
  }

  #openFeed({ onMessage, onActive, onError }: ChangeFeedEvents): NotificationFeed | null {
    const events: NotificationFeedEvents = { onPayload: onMessage, onActive, onError };
    const timing = this.#core.context;
    const { kind, client } = this.#client;
    switch (kind) {
      case 'pglite':
        return new PgliteFeed(client, this.channel, events, timing);
      case 'pool':
        return new PoolListenerFeed(client, this.channel, events, timing, this.#reconnect);
      case 'connection':
        return new SharedConnectionFeed(client, this.channel, events, timing);
      case 'query-only':
        return null;
    }
  }
}
