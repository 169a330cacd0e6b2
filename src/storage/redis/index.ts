/**
 * `commerce-plugin-framework/stores/redis`: the Redis option store, for an ioredis client
 * (`Redis`, or `Cluster` for Redis Cluster).
 * `ioredis` is an optional peer dependency; this entry does not import it.
 *
 * @module commerce-plugin-framework/stores/redis
 */

export { OptionStoreError, type OptionStoreOperation } from '../../errors/option-store-error';
export type { OptionStore } from '../option-store';
export type {
  RedisClusterClient,
  RedisCommandClient,
  RedisCommands,
  RedisScanner,
  RedisSubscriber,
} from './redis-client';
export {
  DEFAULT_REDIS_KEY_PREFIX,
  RedisOptionStore,
  type RedisOptionStoreOptions,
} from './redis-option-store';
