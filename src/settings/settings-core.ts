import { OptionStoreError, type OptionStoreOperation } from '../errors/option-store-error';
import type { OptionStore } from '../storage/option-store';
import { entityTag } from './etag/entity-tag';
import { TagSalt } from './etag/tag-salt';
import { type HistoryEntry, parseEntry } from './history/history-entry';
import { type HistoryQuery, selectEntries } from './history/history-query';
import { KeyedQueue } from './keyed-queue';
import type { SettingsSchema } from './schema/settings-schema';
import type { SecretCipher } from './secrets/secret-cipher';
import type { Framework_Setting } from './setting';
import { callStore, StoreDeadlines, storeName } from './store-calls';
import type { LevelEntry } from './values/level-entry';
import type { LevelServices } from './values/level-services';
import type { ValueLevel } from './values/value-level';
import { ValueLevels } from './values/value-levels';
import { UnsupportedByStoreError } from './writes/unsupported-by-store';
import { WriteCoordinator } from './writes/write-coordinator';

/** What a {@link SettingsCore} is configured with. */
export interface SettingsCoreOptions {
  /** The store time limit in ms (0: none). */
  readonly storeTimeoutMs: number;
  /** The cipher of secret settings. */
  readonly cipher: SecretCipher | undefined;
  /** How many history entries each change log keeps (0: none). */
  readonly historyLimit: number;
  /** How many scope levels stay cached. */
  readonly maxCachedScopes: number;
}

/**
 * Everything of a settings container but its registry: the value levels over the store, the one
 * change-feed subscription that keeps them current, the write path, entity tags and history.
 * `Framework_Abstract_Settings` (the registry and front door) and every `ScopedSettings` view
 * share one core.
 */
export class SettingsCore {
  /** The registered settings. */
  readonly schema: SettingsSchema;
  /** The store. */
  readonly store: OptionStore;
  /** The cached levels. */
  readonly levels: ValueLevels;
  /** The write path. */
  readonly writes: WriteCoordinator;
  /** The cipher of secret settings, if any. */
  readonly cipher: SecretCipher | undefined;
  /** The history entries kept per log. */
  readonly historyLimit: number;
  /** The store access shared by the levels and the write path. */
  readonly services: LevelServices;
  readonly #salt: TagSalt;
  readonly #queue = new KeyedQueue();
  readonly #deadlines: StoreDeadlines;
  #unwatch: (() => void) | null = null;
  #watchStarted = false;
  #refreshScheduled = false;

  /**
   * @param schema - the container's registry
   * @param store - the store
   * @param options - time limit, cipher, history limit, scope cache size
   */
  constructor(schema: SettingsSchema, store: OptionStore, options: SettingsCoreOptions) {
    this.schema = schema;
    this.store = store;
    this.cipher = options.cipher;
    this.historyLimit = options.historyLimit;
    this.#deadlines = new StoreDeadlines(store, options.storeTimeoutMs);
    this.#salt = new TagSalt(store, schema.tagSaltKey);
    const salt = this.#salt;
    this.services = {
      schema,
      store,
      cipher: options.cipher,
      salt,
      call: (operation, work) => callStore(store, operation, work),
      queued: (operation, keys, work) => this.#queued(operation, keys, work),
    };
    this.levels = new ValueLevels(this.services, options.maxCachedScopes);
    this.writes = new WriteCoordinator(this.services, this.levels, options.historyLimit);
  }

  /** The settings in registration order. */
  settings(): Framework_Setting[] {
    return [...this.schema.settings()];
  }

  /** Reads every setting of the global level in one `getMany` (subscribing to the change feed first). */
  load(): Promise<void> {
    this.startWatching();
    return this.levels.global.read(this.settings());
  }

  /**
   * The level of `scope`, its stale entries of `settings` (all when absent) read first;
   * `withSalt`: the entity tags' salt in the same read when it is not known yet.
   */
  async freshLevel(
    scope: string,
    settings?: readonly Framework_Setting[],
    withSalt = false,
  ): Promise<ValueLevel> {
    this.startWatching();
    const level = this.levels.level(scope);
    await level.ensureFresh(settings ?? this.schema.settings(), withSalt);
    return level;
  }

  /**
   * The current entry of `setting` at `scope`. When it is stale, every stale setting of the
   * level is read with it in one `getMany` (the first read of a level loads it whole, and
   * concurrent first reads share that one call).
   */
  async entry(
    scope: string,
    setting: Framework_Setting,
    withSalt = false,
  ): Promise<{ level: ValueLevel; entry: LevelEntry }> {
    this.startWatching();
    const level = this.levels.level(scope);
    const entry = level.entry(setting);
    if (!entry.fresh) await level.ensureFresh(this.schema.settings(), withSalt);
    return { level, entry };
  }

  /** The entity tag of `setting` at `scope` (its stored state along the scope chain). */
  async tagOf(scope: string, setting: Framework_Setting): Promise<string> {
    const { level, entry } = await this.entry(scope, setting, true);
    entry.tag ??= this.#computeTag(level, [setting]);
    const tag = entry.tag;
    tag.then(
      (text) => {
        if (entry.tag === tag) entry.tagText = text;
      },
      // A failed tag (the store failed creating the salt) is not kept.
      () => {
        if (entry.tag === tag) entry.tag = undefined;
      },
    );
    return tag;
  }

  /** The entity tag of every setting at `scope` together. */
  async listTagOf(scope: string): Promise<string> {
    const settings = this.settings();
    const level = await this.freshLevel(scope, settings, true);
    return this.#computeTag(level, settings);
  }

  /** The entity tag of `setting` at `level` for the chain texts `texts` (a state a write left). */
  async tagOfTexts(
    level: ValueLevel,
    setting: Framework_Setting,
    texts: readonly (string | undefined)[],
  ): Promise<string> {
    const parts = level.chain.map(
      (scope, index) => [this.schema.keyOf(setting.getId(), scope), texts[index]] as const,
    );
    return entityTag(await this.#salt.text(), parts);
  }

  async #computeTag(level: ValueLevel, settings: readonly Framework_Setting[]): Promise<string> {
    const parts: (readonly [string, string | undefined])[] = [];
    for (const setting of settings) {
      const entry = level.entry(setting);
      level.chain.forEach((scope, index) => {
        parts.push([this.schema.keyOf(setting.getId(), scope), entry.texts[index]]);
      });
    }
    return entityTag(await this.#salt.text(), parts);
  }

  /**
   * The history entries of one level (CONTRACT §9), newest first.
   *
   * @throws {@link UnsupportedByStoreError} (501) when the store keeps no change log
   */
  async history(query: HistoryQuery & { readonly scope: string }): Promise<HistoryEntry[]> {
    const store = this.store;
    if (typeof store.readLog !== 'function' || typeof store.commit !== 'function') {
      throw new UnsupportedByStoreError('history', storeName(store));
    }
    const name = this.schema.logName(query.scope);
    const texts = await this.#deadlines.run(
      'readLog',
      callStore(store, 'readLog', () => store.readLog!(name, Math.max(1, this.historyLimit))),
    );
    const entries: HistoryEntry[] = [];
    for (const text of texts) {
      const entry = parseEntry(text);
      if (entry !== null) entries.push(entry);
    }
    return selectEntries(entries, query);
  }

  /** Subscribes to the store's change feed, once (at the first read or write). */
  startWatching(): void {
    if (this.#watchStarted) return;
    this.#watchStarted = true;
    const store = this.store;
    if (typeof store.watch !== 'function') return;
    try {
      this.#unwatch = store.watch(
        (key) => this.#onRemoteChange(key),
        () => this.#onResync(),
      );
    } catch (error) {
      // Tried again at the next read; this one reports the store's failure.
      this.#watchStarted = false;
      throw new OptionStoreError('watch', { cause: error, store: storeName(store) });
    }
  }

  /** Stops following the store's changes. */
  dispose(): void {
    this.#unwatch?.();
    this.#unwatch = null;
  }

  /** Marks the values stored under `keys` stale everywhere (a write landed after its time limit). */
  markKeysStale(keys: readonly string[]): void {
    for (const key of keys) this.#onRemoteChange(key);
  }

  #queued<T>(operation: OptionStoreOperation, keys: readonly string[], work: () => Promise<T>): Promise<T> {
    return this.#deadlines.run(operation, this.#queue.run(keys, work), () => this.markKeysStale(keys));
  }

  #onRemoteChange(key: string): void {
    const parsed = this.schema.parseKey(key);
    if (parsed === null) {
      if (key === this.schema.tagSaltKey) this.#salt.forget();
      return;
    }
    this.levels.markStale(parsed.setting, parsed.scope);
    this.#scheduleRefresh();
  }

  #onResync(): void {
    this.#salt.forget();
    this.levels.markAllStale(this.settings());
    this.#scheduleRefresh();
  }

  /**
   * Re-reads, once per burst of notifications, every stale setting of the global level (so
   * `Framework_Setting.getValue()` follows other writers); scope levels are re-read when next used.
   */
  #scheduleRefresh(): void {
    if (this.#refreshScheduled) return;
    this.#refreshScheduled = true;
    queueMicrotask(() => {
      this.#refreshScheduled = false;
      this.levels.global.ensureFresh(this.schema.settings()).catch(() => {
        // The settings stay stale: the next getValue reads them and reports the store error.
      });
    });
  }
}
