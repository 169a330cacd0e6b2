import { keyPartition } from '../store-commit';

/** The root of the change-log keys, beside the channel's `option-store-changes:`. */
const LOG_KEY_ROOT = 'option-store-log:';
/** The root of the change logs' meta keys (their byte counts and trimmed marks, 0.3). */
const LOG_META_KEY_ROOT = 'option-store-log-meta:';
/** The root of the version counters of versioned change messages (0.3). */
const VERSION_KEY_ROOT = 'option-store-version:';
/** The hash tag of keys without a partition (global keys): an empty `{}` would be ignored by Redis. */
export const GLOBAL_HASH_TAG = '@';

/**
 * Where a {@link RedisOptionStore} keeps what, in Redis keys.
 *
 * - Standalone (the layout of 0.1, kept so that existing data stays readable): option `k` is the
 *   string key `${keyPrefix}k`, the change log `name` the list `option-store-log:${keyPrefix}name`
 *   and its meta key `option-store-log-meta:${keyPrefix}name`.
 * - Redis Cluster: the key's partition (`keyPartition`: the scope after the first `@`, or the
 *   global marker `@`) becomes a hash tag, so that a scope's keys, its commits and its log share
 *   one slot: `${keyPrefix}{partition}k`, `option-store-log:${keyPrefix}{partition}name` and
 *   `option-store-log-meta:${keyPrefix}{partition}name`. A `}` in a partition is written as `)`
 *   inside the tag (it would end the tag early).
 * - The version counter of versioned change messages (0.3): one for the whole store on a
 *   standalone Redis, `option-store-version:${keyPrefix}`; one per partition on a Cluster,
 *   `option-store-version:${keyPrefix}{partition}`, in the slot of the partition's keys.
 *
 * A `keyPrefix` that itself contains a `{…}` tag decides the slot of every key: all data of the
 * store then lives in one slot.
 */
export interface RedisKeyLayout {
  /** The Redis key of option `key`. */
  optionKey(key: string): string;
  /** The Redis key of the change log `name`. */
  logKey(name: string): string;
  /** The Redis key of the meta key (byte count, trimmed mark) of the change log `name`, in the slot of its list. */
  logMetaKey(name: string): string;
  /** The Redis key of the version counter of option `key`'s changes (see `storage/versioned-reads.ts`). */
  versionKey(key: string): string;
  /** The option key stored under the Redis key `redisKey`, or `undefined` when it is not one. */
  optionKeyOf(redisKey: string): string | undefined;
  /** The change-log name of the Redis key `redisKey`, or `undefined` when it is not a log's list. */
  logNameOf(redisKey: string): string | undefined;
  /** A SCAN `MATCH` pattern that matches at least the Redis keys of options starting with `prefix`. */
  scanPattern(prefix: string): string;
  /** A SCAN `MATCH` pattern that matches at least the Redis keys of the logs whose names start with `prefix`. */
  logScanPattern(prefix: string): string;
}

/** `text` with the glob characters of SCAN's MATCH escaped: it then matches only itself. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** The hash tag of `key`'s partition, braces included. */
function tagOf(key: string): string {
  const partition = keyPartition(key);
  return `{${partition === '' ? GLOBAL_HASH_TAG : partition.replaceAll('}', ')')}}`;
}

/** The layout of a standalone Redis (and of 0.1). */
export function standaloneLayout(keyPrefix: string): RedisKeyLayout {
  const logPrefix = LOG_KEY_ROOT + keyPrefix;
  const unprefixed = (prefix: string) => (redisKey: string) =>
    redisKey.startsWith(prefix) ? redisKey.slice(prefix.length) : undefined;
  return {
    optionKey: (key) => keyPrefix + key,
    logKey: (name) => logPrefix + name,
    logMetaKey: (name) => LOG_META_KEY_ROOT + keyPrefix + name,
    versionKey: () => VERSION_KEY_ROOT + keyPrefix,
    optionKeyOf: unprefixed(keyPrefix),
    logNameOf: unprefixed(logPrefix),
    scanPattern: (prefix) => `${escapeGlob(keyPrefix + prefix)}*`,
    logScanPattern: (prefix) => `${escapeGlob(logPrefix + prefix)}*`,
  };
}

/** The layout of a Redis Cluster: keys hash-tagged by partition. */
export function clusterLayout(keyPrefix: string): RedisKeyLayout {
  const logPrefix = LOG_KEY_ROOT + keyPrefix;
  /** The name after `prefix` and its partition's tag, when the tag is the name's own. */
  const untagged = (prefix: string) => (redisKey: string) => {
    if (!redisKey.startsWith(`${prefix}{`)) return undefined;
    const close = redisKey.indexOf('}', prefix.length);
    const name = redisKey.slice(close + 1);
    return redisKey.slice(prefix.length, close + 1) === tagOf(name) ? name : undefined;
  };
  return {
    optionKey: (key) => keyPrefix + tagOf(key) + key,
    logKey: (name) => logPrefix + tagOf(name) + name,
    logMetaKey: (name) => LOG_META_KEY_ROOT + keyPrefix + tagOf(name) + name,
    versionKey: (key) => VERSION_KEY_ROOT + keyPrefix + tagOf(key),
    optionKeyOf: untagged(keyPrefix),
    logNameOf: untagged(logPrefix),
    scanPattern: (prefix) => `${escapeGlob(keyPrefix)}{*}${escapeGlob(prefix)}*`,
    logScanPattern: (prefix) => `${escapeGlob(logPrefix)}{*}${escapeGlob(prefix)}*`,
  };
}
