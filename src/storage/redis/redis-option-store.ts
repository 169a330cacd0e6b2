import { OptionStoreError } from '../../errors/option-store-error';
import { keptEntries } from '../log-bounds';
import type { OptionStore } from '../option-store';
import { RemoteStoreCore } from '../remote/remote-store-core';
import { withCheckedArguments } from '../remote/store-operation';
import { commitLogs, type StoreCommit, type StoreCommitResult } from '../store-commit';
import { checkLogPageQuery, type LogPage, type LogPageQuery } from '../store-log';
import { checkScanQuery, type ScanPage, type ScanQuery } from '../store-scan';
import { isVersionText, VERSIONED_READ, type VersionedTexts } from '../versioned-reads';
import { clusterSlot } from './cluster-slot';
import {
  isClusterClient,
  type RedisClusterClient,
  type RedisCommandClient,
  type RedisScanner,
  type RedisSubscriber,
} from './redis-client';
import { clusterLayout, type RedisKeyLayout, standaloneLayout } from './redis-key-layout';
import { decodeLogEntry, encodeLogElement, tagPrefix } from './redis-log-element';
import { COMMIT, DELETE_AND_PUBLISH, type LuaScript, READ_LOG_PAGE, SET_AND_PUBLISH } from './redis-scripts';
import { RedisSubscriptionFeed } from './subscription-feed';

/** Options of {@link RedisOptionStore}. */
export interface RedisOptionStoreOptions {
  /**
   * An ioredis client: a `Redis`, or a `Cluster` for Redis Cluster (recognised by its
   * `isCluster` flag). It stays the caller's: `close()` does not end it.
   */
  client: RedisCommandClient | RedisClusterClient;
  /**
   * Prepended to every key: option `k` lives in the Redis key `${keyPrefix}k` (with a Cluster,
   * `${keyPrefix}{partition}k`). Default `cpf:options:`. With a Cluster, a prefix that contains
   * a `{…}` hash tag puts all of the store's data in one slot.
   */
  keyPrefix?: string;
  /**
   * How long one operation may take before it rejects with a timed-out `OptionStoreError`, in
   * ms. Default 0: no limit. For standalone use: the settings layer bounds its store calls
   * itself (`storeTimeoutMs`). The change feed's subscription attempts are bounded either way.
   */
  timeoutMs?: number;
  /**
   * Receives change-feed problems: subscriber connection errors (ioredis reconnects by itself)
   * or an error thrown by a `watch` subscriber. Default: ignored.
   */
  onWatchError?: (error: OptionStoreError) => void;
}

const STORE_NAME = 'RedisOptionStore';
/** The default key prefix. */
export const DEFAULT_REDIS_KEY_PREFIX = 'cpf:options:';
/** Keys asked per SCAN step. */
const SCAN_COUNT = 1_000;
/** The Redis type of option keys (SCAN's TYPE filter). */
const OPTION_KEY_TYPE = 'string';
/** The Redis type of change-log keys. */
const LOG_KEY_TYPE = 'list';
/** The most SCAN steps one `scan` page takes before it answers what it found (maybe nothing) and a cursor. */
const SCAN_STEPS_PER_PAGE = 16;
/** The least COUNT one SCAN step asks for (SCAN's COUNT is a number of slots looked at, not of matches). */
const MIN_SCAN_STEP = 100;
/** A `scan` cursor: the index of the master (0 on a standalone Redis) and its SCAN cursor. */
const SCAN_CURSOR = /^(\d+):(\d+)$/;
/**
 * The longest versioned change message a commit publishes, in bytes: every subscriber receives
 * it whole; a commit of larger texts publishes its keys only (its readers read them).
 */
const MAX_VERSIONED_MESSAGE_BYTES = 65_536;

/**
 * An {@link OptionStore} in Redis or Redis Cluster, through an ioredis client: one string key
 * per option.
 *
 * - Keys are `${keyPrefix}${key}` (default prefix `cpf:options:`); `getMany` is one `MGET`.
 *   With a `Cluster`, keys are hash-tagged by their partition (the scope after the first `@`;
 *   see docs/stores.md), and `getMany` sends one `MGET` per slot, all at once.
 * - Each write is a Lua script that changes the key and publishes the change in one atomic
 *   step, on the channel `option-store-changes:${keyPrefix}` ({@link RedisOptionStore.channel}).
 * - `commit` is one Lua script: it checks every condition and check, then sets and deletes the
 *   keys, pushes each log's entries (with their tags) onto its list, trims it to `keep` and
 *   `maxBytes` (a byte count in the log's meta key) and publishes one change message. With a
 *   Cluster every key and log of a commit must share one slot (`crossPartitionCommits` is
 *   false); a standalone Redis commits across partitions.
 * - `readLog` is an `LRANGE`; `readLogPage` a small script (an `LRANGE` of the page, or a
 *   server-side walk for a tag); `listKeys` and `scan` walk `SCAN` (of every master, with a
 *   Cluster).
 * - `watch` subscribes on a connection of its own (`client.duplicate()`, which the store
 *   owns and ends); after the subscriber reconnects it asks its subscribers to re-read
 *   (`onResync`), since messages published meanwhile are lost.
 * - Every failure, and every operation that outlasts `timeoutMs` (when set), rejects with an
 *   `OptionStoreError` naming the store and the operation.
 * - `close()` ends only the subscriber connection; the client stays open.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
 *
 * const store = new RedisOptionStore({ client: new Redis(process.env.REDIS_URL!) });
 * ```
 */
export class RedisOptionStore implements OptionStore {
  /** The prefix of every key. */
  readonly keyPrefix: string;
  /**
   * The pub/sub channel of this key prefix. After changing keys by hand, publish any message
   * on it (`PUBLISH <channel> resync`) to make every running instance re-read its settings.
   */
  readonly channel: string;
  /** Whether the client is a Redis Cluster client (and keys are hash-tagged by partition). */
  readonly cluster: boolean;
  /** A standalone Redis commits across partitions; a Cluster keeps a commit in one slot. */
  readonly crossPartitionCommits: boolean;

  readonly #client: RedisCommandClient | RedisClusterClient;
  readonly #layout: RedisKeyLayout;
  readonly #core: RemoteStoreCore;

  /**
   * @param options - the client, and optionally the key prefix, operation time limit and watch error handler
   * @throws TypeError when `client` is not an ioredis client or `keyPrefix` is not a string
   */
  constructor(options: RedisOptionStoreOptions) {
    const { client } = options;
    const methods = ['get', 'mget', 'eval', 'lrange', 'scan', 'duplicate'] as const;
    if (
      typeof client !== 'object' ||
      client === null ||
      methods.some((name) => typeof client[name] !== 'function')
    ) {
      throw new TypeError(
        'RedisOptionStore: `client` must be an ioredis client (new Redis(url) or new Cluster(nodes))',
      );
    }
    const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
    if (typeof keyPrefix !== 'string') throw new TypeError('RedisOptionStore: `keyPrefix` must be a string');
    this.#client = client;
    this.keyPrefix = keyPrefix;
    this.cluster = isClusterClient(client);
    this.crossPartitionCommits = !this.cluster;
    this.#layout = this.cluster ? clusterLayout(keyPrefix) : standaloneLayout(keyPrefix);
    this.channel = `option-store-changes:${keyPrefix}`;
    this.#core = new RemoteStoreCore({
      store: STORE_NAME,
      timeoutMs: options.timeoutMs ?? 0,
      onWatchError: options.onWatchError,
      openFeed: (events) =>
        new RedisSubscriptionFeed(this.#openSubscriber(), this.channel, events, this.#core.feedContext),
    });
  }

  /** {@inheritDoc OptionStore.get} */
  get(key: string): Promise<string | undefined> {
    return this.#core.run(
      'get',
      async () => (await this.#client.get(this.#layout.optionKey(key))) ?? undefined,
    );
  }

  /** {@inheritDoc OptionStore.getMany} */
  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0 && !this.#core.closed) return Promise.resolve(new Map());
    return this.#core.run('getMany', () => this.#readTexts([...new Set(keys)]));
  }

  /**
   * The texts of `keys` (distinct), in one round: one MGET per slot (one for all on a standalone
   * Redis), sent together. With `versions`, each MGET also reads the version counters of its keys'
   * partitions (one on a standalone Redis), answered at the same instant as the values, into
   * `versions` by counter key.
   */
  async #readTexts(keys: readonly string[], versions?: Map<string, string>): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (keys.length === 0) return found;
    // One MGET (a standalone server, or one slot): no per-group promises on the read path.
    const groups = this.#bySlot(keys);
    if (groups.length === 1) await this.#readGroup(groups[0]!, found, versions);
    else await Promise.all(groups.map((group) => this.#readGroup(group, found, versions)));
    return found;
  }

  /**
   * `getMany` with the version of each key's read (see `storage/versioned-reads.ts`): the
   * partition's version counter, read in the same MGET as the key.
   */
  [VERSIONED_READ](keys: readonly string[]): Promise<VersionedTexts> {
    return this.#core.run('getMany', async () => {
      const versions = new Map<string, string>();
      const texts = await this.#readTexts([...new Set(keys)], versions);
      const layout = this.#layout;
      return { texts, versionOf: (key) => versions.get(layout.versionKey(key)) };
    });
  }

  /** Reads the option keys `keys` of one slot in one MGET into `found` (with `versions`, their partitions' counters too). */
  async #readGroup(
    keys: readonly string[],
    found: Map<string, string>,
    versions: Map<string, string> | undefined,
  ): Promise<void> {
    const layout = this.#layout;
    const redisKeys: string[] = [];
    for (const key of keys) redisKeys.push(layout.optionKey(key));
    const versionKeys =
      versions === undefined
        ? []
        : this.cluster
          ? [...new Set(keys.map(layout.versionKey))]
          : [layout.versionKey('')];
    redisKeys.push(...versionKeys);
    const values = await this.#client.mget(redisKeys);
    this.#collect(keys, values, found);
    versionKeys.forEach((versionKey, index) => {
      const version = values[keys.length + index] ?? '0';
      if (isVersionText(version)) versions!.set(versionKey, version);
    });
  }

  /** Adds the texts an MGET of `keys` answered (`values`, parallel) to `found`. */
  #collect(keys: readonly string[], values: readonly (string | null)[], found: Map<string, string>): void {
    for (let index = 0; index < keys.length; index++) {
      const value = values[index];
      if (typeof value === 'string') found.set(keys[index]!, value);
    }
  }

  /** {@inheritDoc OptionStore.set} */
  set(key: string, value: string): Promise<void> {
    return this.#core.run('set', async () => {
      await this.#eval(
        SET_AND_PUBLISH,
        1,
        this.#layout.optionKey(key),
        value,
        this.channel,
        this.#core.changeMessage([key]),
      );
    }, [key]);
  }

  /** {@inheritDoc OptionStore.delete} */
  delete(key: string): Promise<boolean> {
    return this.#core.run('delete', async () => {
      const removed = await this.#eval(
        DELETE_AND_PUBLISH,
        1,
        this.#layout.optionKey(key),
        this.channel,
        this.#core.changeMessage([key]),
      );
      return Number(removed) > 0;
    }, [key]);
  }

  /**
   * Applies every write of `commit` and appends its log entries in one atomic step, only when
   * every write's `expect` condition and every check holds; otherwise changes nothing and
   * reports the current text of each key whose condition failed (see `OptionStore.commit`).
   *
   * One Lua script (one round trip), which Redis runs atomically. With a Cluster, every key of
   * the commit, checked keys and logs included, must share one slot — they do when they share a
   * partition, as the contract requires of a store without `crossPartitionCommits`; a commit
   * across slots rejects without writing anything.
   */
  commit(commit: StoreCommit): Promise<StoreCommitResult> {
    return this.#core.runCommit(commit, async () => {
      const { writes } = commit;
      const checks = commit.checks ?? [];
      const logs = commitLogs(commit).filter((log) => log.entries.length > 0);
      const redisKeys = writes.map((write) => this.#layout.optionKey(write.key));
      for (const check of checks) redisKeys.push(this.#layout.optionKey(check.key));
      for (const log of logs)
        redisKeys.push(this.#layout.logKey(log.name), this.#layout.logMetaKey(log.name));
      const writtenKeys: string[] = [];
      for (const write of writes) writtenKeys.push(write.key);
      // Versioned when the writes share a version counter (always on a standalone Redis).
      const versionKey = writes.length > 0 ? this.#layout.versionKey(writes[0]!.key) : undefined;
      const versioned =
        versionKey !== undefined && writes.every((write) => this.#layout.versionKey(write.key) === versionKey)
          ? this.#core.versionedMessage(
              writtenKeys,
              writes.map((write) => write.value),
              MAX_VERSIONED_MESSAGE_BYTES,
            )
          : undefined;
      if (versioned !== undefined) redisKeys.push(versionKey!);
      this.#assertOneSlot(redisKeys);
      // The script's keys, then its arguments, in one list.
      const keyCount = redisKeys.length;
      const args = redisKeys;
      args.push(
        String(writes.length),
        String(checks.length),
        String(logs.length),
        this.channel,
        versioned?.head ?? this.#core.changeMessage(writtenKeys),
        versioned?.tail ?? '',
      );
      for (const { value, expect } of writes) {
        args.push(value === null ? '0' : '1', value ?? '', conditionMode(expect), expect ?? '');
      }
      for (const { expect } of checks) args.push(conditionMode(expect), expect ?? '');
      for (const log of logs) {
        const { entries, tags, dropped } = keptEntries(log);
        args.push(
          String(log.keep),
          String(log.maxBytes ?? ''),
          dropped > 0 ? '1' : '0',
          String(entries.length),
        );
        for (let index = 0; index < entries.length; index++) {
          args.push(encodeLogElement(entries[index]!, tags?.[index]));
        }
      }
      const failed = await this.#eval(COMMIT, keyCount, ...args);
      return commitResult(writes, checks, failed);
    });
  }

  /**
   * Runs `script` by its hash (`EVALSHA`: the script's text is not sent again with every write),
   * and by its text when the server does not know it yet (`NOSCRIPT`: after a restart or a
   * `SCRIPT FLUSH`, on another cluster node) — a refused `EVALSHA` ran nothing, so running the
   * text then is safe — or when the client has no `evalsha`.
   */
  #eval(script: LuaScript, keyCount: number, ...args: string[]): Promise<unknown> {
    const client = this.#client;
    if (typeof client.evalsha !== 'function') return client.eval(script.text, keyCount, ...args);
    return client.evalsha(script.sha1, keyCount, ...args).catch((error: unknown) => {
      if (!isNoScript(error)) throw error;
      return client.eval(script.text, keyCount, ...args);
    });
  }

  /** {@inheritDoc OptionStore.readLog} */
  readLog(log: string, limit: number): Promise<string[]> {
    return this.#core.run('readLog', async () => {
      if (!(limit >= 1)) return [];
      const elements = await this.#client.lrange(this.#layout.logKey(log), 0, Math.floor(limit) - 1);
      return elements.map(decodeLogEntry);
    });
  }

  /** {@inheritDoc OptionStore.readLogPage} */
  readLogPage(log: string, query: LogPageQuery): Promise<LogPage> {
    return withCheckedArguments(
      () => checkLogPageQuery(query),
      ({ limit, offset, tag }) =>
        this.#core.run('readLogPage', async () => {
          const answer = await this.#eval(
            READ_LOG_PAGE,
            2,
            this.#layout.logKey(log),
            this.#layout.logMetaKey(log),
            String(offset),
            String(limit),
            tag === undefined ? '' : tagPrefix(tag),
          );
          const [total, trimmed, elements] = Array.isArray(answer) ? (answer as unknown[]) : [];
          return {
            entries: Array.isArray(elements)
              ? elements.map((element) => decodeLogEntry(String(element)))
              : [],
            total: Number(total ?? 0),
            trimmed: Number(trimmed) === 1,
          };
        }),
    );
  }

  /**
   * One page of the option keys (or log names) that start with `query.prefix`: `SCAN` with
   * `MATCH` on the prefix (glob characters escaped) and `TYPE`, master after master on a
   * Cluster. The cursor names the master and its SCAN cursor; as with `SCAN`, a key that exists
   * for the whole scan is returned at least once, maybe twice. A page may hold fewer keys than
   * `count`, none even, when the key space is sparse: go on while the cursor is not `null`.
   */
  scan(query: ScanQuery): Promise<ScanPage> {
    return withCheckedArguments(
      () => {
        const checked = checkScanQuery(query);
        return { ...checked, start: parseScanCursor(checked.cursor) };
      },
      ({ prefix, count, logs, values, start }) =>
        this.#core.run('scan', async () => {
          const client = this.#client;
          const scanners = isClusterClient(client) ? byAddress(client.nodes('master')) : [client];
          const layout = this.#layout;
          const pattern = logs ? layout.logScanPattern(prefix) : layout.scanPattern(prefix);
          const nameOf = logs ? layout.logNameOf : layout.optionKeyOf;
          const items = new Set<string>();
          let { node, cursor } = start;
          for (
            let step = 0;
            step < SCAN_STEPS_PER_PAGE && node < scanners.length && items.size < count;
            step++
          ) {
            const [next, page] = await scanners[node]!.scan(
              cursor,
              'MATCH',
              pattern,
              'COUNT',
              Math.max(count, MIN_SCAN_STEP),
              'TYPE',
              logs ? LOG_KEY_TYPE : OPTION_KEY_TYPE,
            );
            for (const redisKey of page) {
              const name = nameOf(redisKey);
              if (name?.startsWith(prefix)) items.add(name);
            }
            cursor = next;
            if (cursor === '0') node++;
          }
          const next = node < scanners.length ? `${node}:${cursor}` : null;
          if (!values) return { items: [...items], cursor: next };
          // The texts in one round of MGETs (one per slot), as getMany reads them.
          const found = await this.#readTexts([...items]);
          const kept = [...items].filter((key) => found.has(key));
          return { items: kept, cursor: next, values: kept.map((key) => found.get(key)!) };
        }),
    );
  }

  /** {@inheritDoc OptionStore.listKeys} */
  listKeys(prefix: string): Promise<string[]> {
    return this.#core.run('listKeys', async () => {
      const client = this.#client;
      const scanners: RedisScanner[] = isClusterClient(client) ? client.nodes('master') : [client];
      const pattern = this.#layout.scanPattern(prefix);
      const pages = await Promise.all(scanners.map((scanner) => scanAll(scanner, pattern)));
      const keys = new Set<string>();
      for (const redisKey of pages.flat()) {
        const key = this.#layout.optionKeyOf(redisKey);
        if (key?.startsWith(prefix)) keys.add(key);
      }
      return [...keys];
    });
  }

  /**
   * Reports sets and deletes made through other store instances with the same key prefix on
   * the same Redis, in this process or another. `onResync` is called whenever the subscription
   * (re)starts, because messages published before that moment may have been missed.
   *
   * A timed-out write of this instance that completes after all is reported to its own
   * subscribers too: its caller was told it failed, so for them it is someone else's change.
   */
  watch(onChange: (key: string) => void, onResync?: () => void): () => void {
    return this.#core.watch(onChange, onResync);
  }

  /** Stops the change feed and ends the subscriber connection; the client stays open. */
  close(): Promise<void> {
    return this.#core.close();
  }

  #openSubscriber(): RedisSubscriber {
    const client = this.#client;
    return isClusterClient(client)
      ? client.duplicate([], { lazyConnect: false })
      : client.duplicate({ autoResubscribe: false, lazyConnect: false });
  }

  /** `keys` grouped by cluster slot (one group on a standalone Redis). */
  #bySlot(keys: readonly string[]): (readonly string[])[] {
    if (!this.cluster) return [keys];
    const groups = new Map<number, string[]>();
    for (const key of keys) {
      const slot = clusterSlot(this.#layout.optionKey(key));
      const group = groups.get(slot);
      if (group) group.push(key);
      else groups.set(slot, [key]);
    }
    return [...groups.values()];
  }

  /** With a Cluster, refuses a commit whose Redis keys span slots (Redis would answer CROSSSLOT). */
  #assertOneSlot(redisKeys: readonly string[]): void {
    if (!this.cluster) return;
    const slot = clusterSlot(redisKeys[0]!);
    if (redisKeys.some((key) => clusterSlot(key) !== slot)) {
      throw new OptionStoreError('commit', {
        store: STORE_NAME,
        message: `${STORE_NAME}.commit failed: the keys of one commit must share a partition (the text after the first "@") on a Redis Cluster`,
      });
    }
  }
}

/** The script's condition mode of `expect`. */
function conditionMode(expect: string | null | undefined): string {
  if (expect === undefined) return '0';
  return expect === null ? '1' : '2';
}

/**
 * Reads the commit script's answer: an empty array, or triples of the 1-based index among the
 * writes then the checks, presence and text.
 */
function commitResult(
  writes: StoreCommit['writes'],
  checks: NonNullable<StoreCommit['checks']>,
  failed: unknown,
): StoreCommitResult {
  const triples = Array.isArray(failed) ? (failed as unknown[]) : [];
  if (triples.length === 0) return { ok: true };
  const current = new Map<string, string | null>();
  for (let at = 0; at + 2 < triples.length; at += 3) {
    const index = Number(triples[at]) - 1;
    const condition = index < writes.length ? writes[index] : checks[index - writes.length];
    if (condition) current.set(condition.key, triples[at + 1] === '1' ? String(triples[at + 2]) : null);
  }
  return { ok: false, current };
}

/** The master and SCAN cursor a `scan` cursor names (the start for `null`). */
function parseScanCursor(cursor: string | null): { node: number; cursor: string } {
  if (cursor === null) return { node: 0, cursor: '0' };
  const match = SCAN_CURSOR.exec(cursor);
  if (match === null) throw new TypeError('RedisOptionStore.scan: not a cursor of this store');
  return { node: Number(match[1]), cursor: match[2]! };
}

/**
 * The masters in a stable order (by the `host:port` of an ioredis connection's options), so that
 * a cursor's master index names the same master on the next page.
 */
function byAddress(nodes: readonly RedisScanner[]): RedisScanner[] {
  const address = (node: RedisScanner): string => {
    const options = (node as { options?: { host?: unknown; port?: unknown } }).options;
    return `${String(options?.host ?? '')}:${String(options?.port ?? '')}`;
  };
  return [...nodes].sort((a, b) => (address(a) < address(b) ? -1 : address(a) > address(b) ? 1 : 0));
}

/** Every key `scanner` holds that matches `pattern` (string keys only), walking SCAN to its end. */
async function scanAll(scanner: RedisScanner, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, page] = await scanner.scan(
      cursor,
      'MATCH',
      pattern,
      'COUNT',
      SCAN_COUNT,
      'TYPE',
      OPTION_KEY_TYPE,
    );
    keys.push(...page);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/** Whether Redis refused an `EVALSHA` because it does not have the script cached. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
