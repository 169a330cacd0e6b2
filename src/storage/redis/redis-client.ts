/**
 * What a {@link RedisOptionStore} needs from its client: the few ioredis methods it calls,
 * described by shape so that this entry never imports `ioredis` (an optional peer).
 */

/** An ioredis connection used as the change feed's subscriber. */
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

/** The ioredis client the store reads and writes through (an `ioredis` `Redis` instance). */
export interface RedisCommandClient {
  /** `GET key`: the string value, or null. */
  get(key: string): Promise<string | null>;
  /** `MGET keys…`: the values in order, null for absent keys. */
  mget(keys: string[]): Promise<Array<string | null>>;
  /** `EVAL script numberOfKeys keys… args…`. */
  eval(script: string, numberOfKeys: number, ...args: string[]): Promise<unknown>;
  /** A new connection with the client's options (ioredis `duplicate`), for the subscriber. */
  duplicate(override?: { autoResubscribe?: boolean; lazyConnect?: boolean }): RedisSubscriber;
}
