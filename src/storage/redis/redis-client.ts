/**
 * What a {@link RedisOptionStore} needs from its client: the few ioredis methods it calls,
 * described by shape so that this entry never imports `ioredis` (an optional peer).
 */

/** An ioredis connection used as the change feed's subscriber (a `Redis`, or a `Cluster` for a cluster). */
export interface RedisSubscriber {
  /** The connection state: `wait` (lazy, not connected yet), `connecting`, `ready`, `end`, … */
  readonly status: string;
  /** Opens a lazy connection. */
  connect(): Promise<void>;
  /** Subscribes to `channel`; resolves once Redis confirmed. */
  subscribe(channel: string): Promise<unknown>;
  /** A message published on a subscribed channel. */
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  /** The connection is (again) ready for commands. */
  on(event: 'ready', listener: () => void): unknown;
  /** A connection error (ioredis reconnects by itself). */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** The connection closed. */
  on(event: 'close', listener: () => void): unknown;
  /** Closes the connection; with `reconnect`, ioredis opens it again. */
  disconnect(reconnect?: boolean): void;
}

/** A connection that can walk the key space (`SCAN`): a client, or one master of a cluster. */
export interface RedisScanner {
  /** `SCAN cursor MATCH pattern COUNT count TYPE type`: the next cursor and a page of keys. */
  scan(
    cursor: string,
    patternToken: 'MATCH',
    pattern: string,
    countToken: 'COUNT',
    count: number,
    typeToken: 'TYPE',
    type: string,
  ): Promise<[cursor: string, elements: string[]]>;
}

/** The commands the store sends through a standalone client or a cluster client alike. */
export interface RedisCommands extends RedisScanner {
  /** `GET key`: the string value, or null. */
  get(key: string): Promise<string | null>;
  /** `MGET keys…`: the values in order, null for absent keys. */
  mget(keys: string[]): Promise<Array<string | null>>;
  /** `EVAL script numberOfKeys keys… args…`. */
  eval(script: string, numberOfKeys: number, ...args: string[]): Promise<unknown>;
  /**
   * `EVALSHA sha1 numberOfKeys keys… args…`: a script the server has cached, by its hash (the
   * store falls back to `eval` when the server answers `NOSCRIPT`, or when the client has none).
   */
  evalsha?(sha1: string, numberOfKeys: number, ...args: string[]): Promise<unknown>;
  /** `LRANGE key start stop`: the elements of a list. */
  lrange(key: string, start: number, stop: number): Promise<string[]>;
}

/** The ioredis client the store reads and writes through (an `ioredis` `Redis` instance). */
export interface RedisCommandClient extends RedisCommands {
  /** `false` on an ioredis `Redis` (ioredis sets it); absent is read as standalone too. */
  readonly isCluster?: boolean | undefined;
  /** A new connection with the client's options (ioredis `duplicate`), for the subscriber. */
  duplicate(override?: { autoResubscribe?: boolean; lazyConnect?: boolean }): RedisSubscriber;
}

/** An ioredis `Cluster` client (Redis Cluster), recognised by its `isCluster` flag. */
export interface RedisClusterClient extends RedisCommands {
  /** `true` on an ioredis `Cluster` (which ioredis sets). */
  readonly isCluster: boolean;
  /** The connections to the cluster's nodes of a role; `master` for SCAN over the whole key space. */
  nodes(role: 'master'): RedisScanner[];
  /** A new cluster client with the same options (ioredis `Cluster#duplicate`), for the subscriber. */
  duplicate(startupNodes?: unknown[], options?: { lazyConnect?: boolean }): RedisSubscriber;
}

/** Whether `client` is a Redis Cluster client. */
export function isClusterClient(
  client: RedisCommandClient | RedisClusterClient,
): client is RedisClusterClient {
  return client.isCluster === true;
}
