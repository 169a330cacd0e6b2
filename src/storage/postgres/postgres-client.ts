/**
 * What a {@link PostgresOptionStore} accepts as its client, and how it tells the kinds apart
 * at run time. Only the shapes are described here: the store never imports `pg` or
 * `@electric-sql/pglite` (they are optional peers), so either can be installed alone.
 */

/**
 * Anything that runs a parameterised query the way `pg` and PGlite do: a `pg` Pool, Client or
 * PoolClient, or a PGlite instance. `watch` works for those four; any other object that only
 * answers `query` can read and write but has no change feed.
 */
export interface PostgresQueryable {
  /** Runs `text` with the bound `params`; resolves with the result rows. */
  query(text: string, params?: unknown[]): Promise<QueryRows>;
}

/** What a query resolves with (the part the store reads). */
export interface QueryRows {
  /** The result rows, one object per row keyed by column name. */
  rows: unknown[];
}

/** A query sent as a named prepared statement (pg's query config form). */
export interface PreparedQuery {
  /** The statement's name, unique to its text on a connection. */
  readonly name: string;
  /** The SQL text. */
  readonly text: string;
  /** The bound parameters. */
  readonly values: unknown[];
}

/** A pg Pool, Client or PoolClient: also runs a query as a named prepared statement, parsed and planned once per connection. */
export interface PgPreparingQueryable extends PostgresQueryable {
  /** Runs `text` with the bound `params`; resolves with the result rows. */
  query(text: string, params?: unknown[]): Promise<QueryRows>;
  /** Runs `config` as a named prepared statement; resolves with the result rows. */
  query(config: PreparedQuery): Promise<QueryRows>;
}

/** A pg `Notification` as the store reads it. */
export interface PgNotification {
  readonly channel: string;
  readonly payload?: string | undefined;
}

/** The part of a pg Client (or PoolClient) that the store and its change feed use. */
export interface PgConnection extends PgPreparingQueryable {
  connect(): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: 'notification', listener: (message: PgNotification) => void): unknown;
}

/** A connection checked out of a pg Pool, given back with `release` (an error: the pool drops it). */
export interface PgPoolConnection extends PgPreparingQueryable {
  release(error?: Error | boolean): void;
}

/** The part of a pg Pool that the store and its change feed use: its options and its Client class (pg-pool's own way of opening a connection). */
export interface PgPool extends PgPreparingQueryable {
  readonly options: object;
  readonly Client: new (config: object) => PgConnection;
  /** Checks a connection out of the pool (for a commit that needs a transaction of its own). */
  connect(): Promise<PgPoolConnection>;
  /** pg-pool sets it when `end()` is called: the pool takes no more queries. */
  readonly ending?: boolean;
}

/** The part of a PGlite instance that the change feed uses. */
export interface PgliteListener extends PostgresQueryable {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** The client, classified by how the store can listen through it. */
export type ClassifiedPostgresClient =
  | { readonly kind: 'pglite'; readonly client: PgliteListener }
  | { readonly kind: 'pool'; readonly client: PgPool }
  | { readonly kind: 'connection'; readonly client: PgConnection }
  | { readonly kind: 'query-only'; readonly client: PostgresQueryable };

function hasFunction(value: object, name: string): boolean {
  return typeof (value as Record<string, unknown>)[name] === 'function';
}

/**
 * Classifies `client`: PGlite (has `listen`/`unlisten`), a pg Pool (has `connect`, `options`
 * and its `Client` class), a pg Client or PoolClient (has `connect` and emits events), or
 * anything else that answers `query`.
 *
 * @throws TypeError when `client` has no `query` method
 */
export function classifyPostgresClient(client: PostgresQueryable): ClassifiedPostgresClient {
  if (typeof client !== 'object' || client === null || !hasFunction(client, 'query')) {
    throw new TypeError(
      'PostgresOptionStore: `client` must be a pg Pool or Client or a PGlite instance (an object with a query(text, params) method)',
    );
  }
  if (hasFunction(client, 'listen') && hasFunction(client, 'unlisten')) {
    return { kind: 'pglite', client: client as unknown as PgliteListener };
  }
  const fields = client as unknown as Record<string, unknown>;
  if (
    hasFunction(client, 'connect') &&
    typeof fields.Client === 'function' &&
    typeof fields.options === 'object' &&
    fields.options !== null
  ) {
    return { kind: 'pool', client: client as unknown as PgPool };
  }
  if (hasFunction(client, 'connect') && hasFunction(client, 'on') && hasFunction(client, 'removeListener')) {
    return { kind: 'connection', client: client as unknown as PgConnection };
  }
  return { kind: 'query-only', client };
}
