import type { OptionStoreError, OptionStoreOperation } from '../../errors/option-store-error';
import type { OptionStore } from '../option-store';
import type { VersionedMessage } from '../remote/change-message';
import { type ChangeFeedEvents, RemoteStoreCore } from '../remote/remote-store-core';
import { withCheckedArguments } from '../remote/store-operation';
import type { StoreCommit, StoreCommitResult } from '../store-commit';
import { checkLogPageQuery, type LogPage, type LogPageQuery } from '../store-log';
import {
  checkScanQuery,
  checkSuffixScanQuery,
  type ScanPage,
  type ScanQuery,
  type SuffixScanPage,
  type SuffixScanQuery,
} from '../store-scan';
import { compareCodePoints, mergeSuffixRuns } from '../suffix-runs';
import { VERSIONED_READ, type VersionedTexts } from '../versioned-reads';
import { booleanArrayLiteral, textArrayLiteral } from './array-literal';
import { commitRequest } from './commit-parameters';
import { COMMIT_CONFLICT_MARKER, LOG_BOUNDS_CHANGED_MARKER } from './commit-statement';
import { isLargeCommit, queryWithoutJit } from './jit-free-commit';
import type { NotificationFeed, NotificationFeedEvents } from './notification-feed';
import { type OptionTableSql, optionTableSql } from './option-table-sql';
import { PgliteFeed } from './pglite-feed';
import { PgliteStatements, supportsPgliteStatements } from './pglite-statements';
import { PoolListenerFeed } from './pool-listener-feed';
import {
  type ClassifiedPostgresClient,
  classifyPostgresClient,
  type PostgresQueryable,
} from './postgres-client';
import { prefixUpperBound } from './prefix-range';
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
  /**
   * How long one operation may take before it rejects with a timed-out `OptionStoreError`, in
   * ms. Default 0: no limit. For standalone use: the settings layer bounds its store calls
   * itself (`storeTimeoutMs`). The change feed's connection attempts are bounded either way.
   */
  timeoutMs?: number;
  /**
   * Whether a pg Pool or Client runs the commit statement as a named prepared statement, parsed
   * and planned once per connection (about half the cost of a commit). Default true. Turn it off
   * behind a pooler that cannot carry prepared statements across transactions (PgBouncer in
   * transaction mode before 1.21, or without `max_prepared_statements`). On PGlite every
   * statement of the store runs as a named prepared statement (parsed and planned once per
   * instance, then one call into the database per operation); false there sends each through
   * PGlite's `query` instead.
   */
  preparedStatements?: boolean;
  /** Backoff bounds for reopening a lost LISTEN connection (pg Pool only). */
  reconnect?: ReconnectOptions;
  /**
   * Receives change-feed problems: a lost or failed LISTEN connection (reopened by itself for
   * a Pool), or an error thrown by a `watch` subscriber. Default: ignored.
   */
  onWatchError?: (error: OptionStoreError) => void;
}

const STORE_NAME = 'PostgresOptionStore';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_PAYLOAD_BYTES = 7_999;
/**
 * SQLSTATEs of a CREATE TABLE that lost a race with another instance creating the same table:
 * a unique violation in the catalogs, a duplicate table, or a duplicate type (the table's row type).
 */
const CONCURRENT_CREATE_CODES = new Set(['23505', '42P07', '42710']);
/** SQLSTATE of a deadlock: PostgreSQL rolled the statement back, so it is safe to send again. */
const DEADLOCK_DETECTED = '40P01';
/** SQLSTATE of the commit's conflict guard (a failed cast of its marker text). */
const INVALID_TEXT_REPRESENTATION = '22P02';
/** How often a commit is sent again after a deadlock, or after a conflict that was gone on reading. */
const MAX_COMMIT_ATTEMPTS = 5;

/**
 * An {@link OptionStore} in a PostgreSQL table, through a `pg` Pool/Client or an embedded
 * PGlite database: one code path for both.
 *
 * - The table (default `options`: `key text PRIMARY KEY, value text NOT NULL, updated_at
 *   timestamptz`) is created on first use; two instances starting at once are safe.
 * - `getMany` is one query (`key = ANY($1)`); writes are upserts; keys and values are only
 *   ever bound parameters.
 * - `commit` (atomic conditional writes with checks and change logs) is ONE statement of
 *   data-modifying CTEs, whatever the client: every write, the checks (rows locked `FOR SHARE`),
 *   the log appends (and their lazy trims), and the notification commit together or not at all;
 *   one commit may span partitions (`crossPartitionCommits`). A commit of 4,096 rows or more
 *   through a Pool runs that statement in a transaction of its own with JIT compilation off
 *   (`SET LOCAL jit = off`: compiling it cost more than it saved). The logs live in the table
 *   `<table>_log`, their entries numbered from the sequence `<table>_log_seq` (no row every
 *   writer of a log locks), with one head row per log in `<table>_log_head`, all created on
 *   first use; reads apply the bounds (`keep`, `maxBytes`) of the newest append (docs/stores.md).
 * - Statements are parsed and planned once: on a pg Pool or Client the commit statements are
 *   named prepared statements per connection; on PGlite every statement of the store is a named
 *   prepared statement of the instance, run as one Bind/Execute/Sync call into the database
 *   (PGlite's own `query` parses and plans each statement anew, in six calls).
 * - `listKeys` and `scan` are index range scans on the primary key (no LIKE patterns; `scan`
 *   pages by key); `readLog` and `readLogPage` read the log table newest first, one page.
 * - `watch` uses LISTEN/NOTIFY on the table's channel ({@link PostgresOptionStore.channel}).
 *   Each write notifies in the same statement, so it is announced exactly when it commits.
 *   With a Pool the store opens one connection of its own for LISTEN, reopens it with
 *   backoff when it is lost and then asks its subscribers to re-read (`onResync`).
 * - Every failure, and every operation that outlasts `timeoutMs` (when set), rejects with an
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
  /** One commit may span partitions: it is one statement in one database. */
  readonly crossPartitionCommits = true;

  readonly #client: ClassifiedPostgresClient;
  readonly #tableName: OptionTableName;
  readonly #sql: OptionTableSql;
  readonly #reconnect: ReconnectOptions;
  readonly #core: RemoteStoreCore;
  readonly #prepared: boolean;
  /** PGlite: every statement runs as a named prepared statement, parsed and planned once per instance. */
  readonly #pglite: PgliteStatements | null;
  #tableReady: Promise<void> | null = null;
  /** True once the table is known to exist (operations then skip the wait for `#tableReady`). */
  #tableKnown = false;
  #logTableReady: Promise<void> | null = null;
  /** True once the log tables are known to exist and be current (commits then skip the wait for `#logTableReady`). */
  #logTableKnown = false;
  /** The change feed's own connection when the client is a Pool and `watch` is in use: reads go there when it is free. */
  #poolFeed: PoolListenerFeed | null = null;
  /** False once the server refused `SET LOCAL jit = off`: large commits then run as the others do. */
  #jitSwitch = true;
  /**
   * True once the database answered a version (`pg_current_wal_insert_lsn()`; not on every
   * PostgreSQL-compatible service): commits then send versioned messages, reads their versions.
   */
  #versioned = false;

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
    this.#prepared = options.preparedStatements ?? true;
    const { kind, client } = this.#client;
    this.#pglite =
      this.#prepared && kind === 'pglite' && supportsPgliteStatements(client)
        ? new PgliteStatements(client)
        : null;
    this.#core = new RemoteStoreCore({
      store: STORE_NAME,
      timeoutMs: options.timeoutMs ?? 0,
      onWatchError: options.onWatchError,
      openFeed: (events) => this.#openFeed(events),
    });
  }

  /** {@inheritDoc OptionStore.get} */
  get(key: string): Promise<string | undefined> {
    return this.#run('get', async () => {
      const { rows } = await this.#read(this.#sql.get, [key]);
      const row = rows[0] as { value?: unknown } | undefined;
      return typeof row?.value === 'string' ? row.value : undefined;
    });
  }

  /** {@inheritDoc OptionStore.getMany} */
  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0 && !this.#core.closed) return Promise.resolve(new Map());
    return this.#run('getMany', async () => (await this.#readTexts(keys, false)).texts);
  }

  /**
   * `getMany` with the version of the read (see `storage/versioned-reads.ts`), in the same
   * statement; no version where the database gives none.
   */
  [VERSIONED_READ](keys: readonly string[]): Promise<VersionedTexts> {
    return this.#run('getMany', async () => {
      const { texts, version } = await this.#readTexts(keys, this.#versioned);
      return { texts, versionOf: () => version };
    });
  }

  /**
   * The texts of `keys` in one statement; `versioned`: with the read's version (a row with a
   * null key), from the same statement.
   */
  async #readTexts(
    keys: readonly string[],
    versioned: boolean,
  ): Promise<{ texts: Map<string, string>; version: string | undefined }> {
    const texts = new Map<string, string>();
    const unique = keys.length === 1 ? keys : [...new Set(keys)];
    const statement = versioned ? this.#sql.getManyVersioned : this.#sql.getMany;
    const { rows } = await this.#read(statement, [textArrayLiteral(unique)]);
    let version: string | undefined;
    for (const row of rows as Array<{ key?: unknown; value?: unknown }>) {
      if (typeof row.value !== 'string') continue;
      if (typeof row.key === 'string') texts.set(row.key, row.value);
      else if (row.key === null) version = row.value;
    }
    return { texts, version };
  }

  /** {@inheritDoc OptionStore.set} */
  set(key: string, value: string): Promise<void> {
    return this.#run('set', async () => {
      await this.#query(this.#sql.set, [key, value, this.channel, this.#changeMessage([key])]);
    }, [key]);
  }

  /** {@inheritDoc OptionStore.delete} */
  delete(key: string): Promise<boolean> {
    return this.#run('delete', async () => {
      const { rows } = await this.#query(this.#sql.delete, [key, this.channel, this.#changeMessage([key])]);
      return rows.length > 0;
    }, [key]);
  }

  /**
   * Applies every write of `commit` and appends its log entries in one atomic step, only when
   * every write's `expect` condition holds; otherwise changes nothing and reports the current
   * text of each key whose condition failed (see `OptionStore.commit`).
   *
   * One statement, so one round trip, for a success and for a refusal alike: it locks the rows
   * of the conditional keys, answers the conditions their current texts break without writing
   * anything (no error), else writes, logs and notifies, all in one transaction. Only a key that
   * another commit inserted while this one ran makes the statement roll itself back (an error),
   * after which the current texts are read in a second query.
   */
  commit(commit: StoreCommit): Promise<StoreCommitResult> {
    return this.#core.runCommit(commit, async () => {
      if (!this.#tableKnown) await this.#ensureTable();
      const keys = commit.writes.map((write) => write.key);
      const message =
        (this.#versioned ? this.#versionedMessage(commit) : undefined) ?? this.#changeMessage(keys);
      let request = commitRequest(commit, this.channel, message);
      if (request.shape.logs !== 'none' && !this.#logTableKnown) await this.#ensureLogTable();
      const large = isLargeCommit(commit);
      for (let attempt = 1; ; attempt++) {
        const { name, text } = this.#sql.commitStatement(request.shape);
        const outcome = await this.#queryCommit(name, text, request.values, large).then(
          ({ rows }) => refusedKeys(rows),
          (error: unknown) => {
            if (isMarked(error, COMMIT_CONFLICT_MARKER)) return 'conflict' as const;
            // A log's bounds changed: the append trims at once, through the statement with the trim steps.
            if (isMarked(error, LOG_BOUNDS_CHANGED_MARKER) && request.shape.trims !== true)
              return 'trim' as const;
            if (errorCode(error) === DEADLOCK_DETECTED && attempt < MAX_COMMIT_ATTEMPTS)
              return 'retry' as const;
            throw error;
          },
        );
        if (outcome === 'trim') {
          request = commitRequest(commit, this.channel, message, { forceTrims: true });
          continue;
        }
        if (outcome === 'retry') continue;
        if (outcome !== 'conflict')
          return outcome.size === 0 ? { ok: true } : { ok: false, current: outcome };
        const current = await this.#failedConditions(commit);
        // Another writer changed a key and changed it back before the read: send it again.
        if (current.size > 0 || attempt >= MAX_COMMIT_ATTEMPTS) return { ok: false, current } as const;
      }
    });
  }

  /** {@inheritDoc OptionStore.readLog} */
  readLog(log: string, limit: number): Promise<string[]> {
    return this.#run('readLog', async () => {
      if (!(limit >= 1)) return [];
      await this.#ensureLogTable();
      const { rows } = await this.#query(this.#sql.readLog, [log, Math.floor(limit)]);
      return (rows as Array<{ entry?: unknown }>).map((row) => String(row.entry));
    });
  }

  /** {@inheritDoc OptionStore.listKeys} */
  listKeys(prefix: string): Promise<string[]> {
    return this.#run('listKeys', async () => {
      const { rows } = await this.#query(this.#sql.listKeys, [prefix, prefixUpperBound(prefix)]);
      return (rows as Array<{ key?: unknown }>).map((row) => String(row.key));
    });
  }

  /** {@inheritDoc OptionStore.readLogPage} */
  readLogPage(log: string, query: LogPageQuery): Promise<LogPage> {
    return withCheckedArguments(
      () => checkLogPageQuery(query),
      ({ limit, offset, tag }) =>
        this.#run('readLogPage', async () => {
          await this.#ensureLogTable();
          const { rows } =
            tag === undefined
              ? await this.#query(this.#sql.readLogPage, [log, offset, limit])
              : await this.#query(this.#sql.readLogPageTagged, [log, offset, limit, tag]);
          return logPage(rows);
        }),
    );
  }

  /** {@inheritDoc OptionStore.scan} */
  scan(query: ScanQuery): Promise<ScanPage> {
    return withCheckedArguments(
      () => checkScanQuery(query),
      ({ prefix, cursor, count, logs, values }) =>
        this.#run('scan', async () => {
          if (logs) await this.#ensureLogTable();
          const text = logs ? this.#sql.scanLogs : values ? this.#sql.scanKeyValues : this.#sql.scanKeys;
          const { rows } = await this.#query(text, [prefix, prefixUpperBound(prefix), cursor, count]);
          const typed = rows as Array<{ item?: unknown; value?: unknown }>;
          const items = typed.map((row) => String(row.item));
          // A full page may be the last one: the next call then answers an empty page and no cursor.
          const next = items.length === count ? items[items.length - 1]! : null;
          if (!values) return { items, cursor: next, ordered: true };
          return { items, cursor: next, ordered: true, values: typed.map((row) => String(row.value)) };
        }),
    );
  }

  /** {@inheritDoc OptionStore.scanSuffixes} */
  scanSuffixes(query: SuffixScanQuery): Promise<SuffixScanPage> {
    return withCheckedArguments(
      () => checkSuffixScanQuery(query),
      (checked) =>
        this.#run('scanSuffixes', async () => {
          const { cursor, count } = checked;
          // The joined prefixes are scanned like the others: their keys up to the page's end.
          const scanned = [...checked.prefixes, ...checked.joined];
          const { rows } = await this.#query(
            cursor === null ? this.#sql.scanSuffixes : this.#sql.scanSuffixesAfter,
            [
              textArrayLiteral(scanned),
              textArrayLiteral(cursor === null ? scanned : scanned.map((prefix) => prefix + cursor)),
              // Never null: `checkSuffixScanQuery` refuses a prefix without an upper bound.
              textArrayLiteral(scanned.map(prefixUpperBound)),
              booleanArrayLiteral([...checked.values, ...checked.joined.map(() => true)]),
              count,
            ],
          );
          const runs = (rows as Array<{ suffixes: string[] | null; texts: string[] | null }>).map(
            ({ suffixes, texts }) => ({ suffixes: suffixes ?? [], texts, full: suffixes?.length === count }),
          );
          return mergeSuffixRuns(checked, runs, compareCodePoints);
        }),
    );
  }

  /** The current text of every conditional or checked key of `commit` whose condition does not hold now. */
  async #failedConditions(commit: StoreCommit): Promise<Map<string, string | null>> {
    const conditional = [
      ...commit.writes.filter((write) => write.expect !== undefined),
      ...(commit.checks ?? []),
    ];
    const { rows } = await this.#query(this.#sql.getMany, [
      textArrayLiteral(conditional.map((write) => write.key)),
    ]);
    const stored = new Map<string, string>();
    for (const row of rows as Array<{ key: string; value: string }>) stored.set(row.key, row.value);
    const current = new Map<string, string | null>();
    for (const { key, expect } of conditional) {
      const text = stored.get(key) ?? null;
      if (text !== expect) current.set(key, text);
    }
    return current;
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

  #run<T>(
    operation: OptionStoreOperation,
    work: () => Promise<T>,
    writtenKeys?: readonly string[],
  ): Promise<T> {
    return this.#core.run(
      operation,
      this.#tableKnown ? work : () => this.#ensureTable().then(work),
      writtenKeys,
    );
  }

  /** A statement with parameters: on PGlite a named prepared statement, else through the client's `query`. */
  #query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.#pglite !== null) return this.#pglite.query(text, params);
    return this.#client.client.query(text, params);
  }

  /**
   * A read: on the change feed's own connection when the client is a Pool, `watch` is in use
   * and that connection is free (so the re-read after a notification never goes through a
   * pool that closed its idle connections); else, or when it fails there, through the client.
   */
  #read(text: string, params: unknown[]): Promise<{ rows: unknown[] }> {
    const onFeed = this.#poolFeed?.tryRead((connection) => connection.query(text, params));
    if (onFeed === undefined) return this.#query(text, params);
    return onFeed.catch(() => this.#query(text, params));
  }

  /** Runs `text` as the prepared statement `name` on a pg Pool or Client (when enabled), else as `#query` does. */
  #queryPrepared(name: string, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
    const { kind, client } = this.#client;
    if (this.#prepared && (kind === 'pool' || kind === 'connection'))
      return client.query({ name, text, values });
    return this.#query(text, values);
  }

  /**
   * Runs a commit statement: a large one on a pg Pool in a transaction of its own without JIT
   * compilation (see `queryWithoutJit`), any other as `#queryPrepared` does.
   */
  async #queryCommit(
    name: string,
    text: string,
    values: unknown[],
    large: boolean,
  ): Promise<{ rows: unknown[] }> {
    if (large && this.#jitSwitch && this.#client.kind === 'pool') {
      const rows = await queryWithoutJit(this.#client.client, { name, text, values }, this.#prepared);
      if (rows !== 'unsupported') return rows;
      this.#jitSwitch = false;
    }
    return this.#queryPrepared(name, text, values);
  }

  #ensureTable(): Promise<void> {
    this.#tableReady ??= this.#createTable().then(
      async () => {
        this.#versioned = await this.#query(this.#sql.version, []).then(
          ({ rows }) => typeof (rows[0] as { v?: unknown } | undefined)?.v === 'string',
          () => false,
        );
        this.#tableKnown = true;
      },
      (error: unknown) => {
        this.#tableReady = null;
        throw error;
      },
    );
    return this.#tableReady;
  }

  #ensureLogTable(): Promise<void> {
    this.#logTableReady ??= this.#createLogTables().then(
      () => {
        this.#logTableKnown = true;
      },
      (error: unknown) => {
        this.#logTableReady = null;
        throw error;
      },
    );
    return this.#logTableReady;
  }

  /**
   * Creates the log tables and their sequence when missing, and brings log tables of 0.2 and of
   * earlier 0.3 builds to this version (new columns; the sequence starts above their entries).
   */
  async #createLogTables(): Promise<void> {
    const { logSql, logHeadSql, logSeqSql } = this.#tableName;
    const [newLog, newHead] = await Promise.all([
      this.#createTable(logSql, this.#sql.createLog),
      this.#createTable(logHeadSql, this.#sql.createLogHead),
    ]);
    if (!(newLog && newHead)) {
      const { rows: current } = await this.#query(this.#sql.logTablesCurrent, [
        logSql,
        logHeadSql,
        logSeqSql,
      ]);
      if ((current[0] as { current?: unknown } | undefined)?.current === true) return;
      for (const statement of this.#sql.upgradeLog) await this.#runDdl(statement);
      const { rows: legacy } = await this.#query(this.#sql.legacyHeadColumns, [logHeadSql]);
      for (const { name } of legacy as Array<{ name: 'last' | 'prev_trimmed' }>)
        await this.#runDdl(this.#sql.legacyHeadDefault(name));
    }
    // Last: the tables count as current once the sequence is there, its start above every entry.
    const { rows } = await this.#query(this.#sql.logSequenceStart, []);
    const start = (rows[0] as { start?: unknown } | undefined)?.start;
    await this.#runDdl(this.#sql.createLogSequence(start === undefined ? 1 : Number(start)));
  }

  /** Creates a table when missing; answers whether it did. */
  async #createTable(quotedName = this.#tableName.sql, create = this.#sql.create): Promise<boolean> {
    const { rows } = await this.#query(this.#sql.exists, [quotedName]);
    if ((rows[0] as { present?: unknown } | undefined)?.present === true) return false;
    await this.#runDdl(create);
    return true;
  }

  /** Runs an idempotent DDL statement (`… IF NOT EXISTS`), ignoring a lost race with another session running it. */
  async #runDdl(statement: string): Promise<void> {
    try {
      await this.#client.client.query(statement);
    } catch (error) {
      // CREATE … IF NOT EXISTS still fails when another session creates the same object at
      // the same moment; that session committed it, so the object is there.
      const code = errorCode(error);
      if (code === undefined || !CONCURRENT_CREATE_CODES.has(code)) throw error;
    }
  }

  /**
   * The versioned message of `commit`: its texts, a delete's only when it expects a text (it then
   * removed a row; a delete of a key that is not there changes nothing, and its version would say
   * nothing of the key's state), when it fits a notification.
   */
  #versionedMessage(commit: StoreCommit): VersionedMessage | undefined {
    const keys: string[] = [];
    const texts: (string | null | undefined)[] = [];
    for (const { key, value, expect } of commit.writes) {
      keys.push(key);
      texts.push(value !== null ? value : typeof expect === 'string' ? null : undefined);
    }
    return this.#core.versionedMessage(keys, texts, MAX_NOTIFY_PAYLOAD_BYTES);
  }

  #changeMessage(keys: readonly string[]): string {
    return this.#core.changeMessage(keys, MAX_NOTIFY_PAYLOAD_BYTES);
  }

  #openFeed({ onMessage, onActive, onError }: ChangeFeedEvents): NotificationFeed | null {
    const events: NotificationFeedEvents = { onPayload: onMessage, onActive, onError };
    const timing = this.#core.feedContext;
    const { kind, client } = this.#client;
    switch (kind) {
      case 'pglite':
        return new PgliteFeed(client, this.channel, events, timing);
      case 'pool': {
        const feed = new PoolListenerFeed(client, this.channel, events, timing, this.#reconnect);
        this.#poolFeed = feed;
        const stop = () => {
          if (this.#poolFeed === feed) this.#poolFeed = null;
          return feed.stop();
        };
        return { stop };
      }
      case 'connection':
        return new SharedConnectionFeed(client, this.channel, events, timing);
      case 'query-only':
        return null;
    }
  }
}

/** The refused keys and their current texts from the rows a commit answered (none: it was applied). */
function refusedKeys(rows: readonly unknown[]): Map<string, string | null> {
  const current = new Map<string, string | null>();
  for (const row of rows as Array<{ key?: unknown; value?: unknown }>) {
    if (typeof row.key === 'string') current.set(row.key, typeof row.value === 'string' ? row.value : null);
  }
  return current;
}

/** A page of a log from the rows of `readLogPage` (none: a log never written). */
function logPage(rows: readonly unknown[]): LogPage {
  const first = rows[0] as { total?: unknown; trimmed?: unknown } | undefined;
  if (first === undefined) return { entries: [], total: 0, trimmed: false };
  const entries: string[] = [];
  for (const row of rows as Array<{ entry?: unknown }>)
    if (typeof row.entry === 'string') entries.push(row.entry);
  return { entries, total: Number(first.total), trimmed: first.trimmed === true };
}

/** The SQLSTATE of a driver error, when it has one. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether `error` is one of the commit's own guards (`marker`: a condition failed, or a log's
 * bounds changed), not a real failure.
 */
function isMarked(error: unknown, marker: string): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return (
    errorCode(error) === INVALID_TEXT_REPRESENTATION &&
    typeof message === 'string' &&
    message.includes(marker)
  );
}
