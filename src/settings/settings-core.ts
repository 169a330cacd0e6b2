import { OptionStoreError, type OptionStoreOperation } from '../errors/option-store-error';
import type { OptionStore } from '../storage/option-store';
import { type KeyChange, type VersionedTexts, versionedRead } from '../storage/versioned-reads';
import { entityTag } from './etag/entity-tag';
import { TagSalt } from './etag/tag-salt';
import { type HistoryEntry, parseEntry } from './history/history-entry';
import type { HistoryLimits } from './history/history-log';
import { type HistoryPage, type HistoryQuery, readHistoryPage } from './history/history-query';
import { KeyedQueue } from './keyed-queue';
import type { SettingsRule } from './rules/settings-rule';
import type { SettingsSchema } from './schema/settings-schema';
import { runMigrations } from './schema-versions/migration-runner';
import { SchemaVersions, type SchemaVersionsOptions } from './schema-versions/schema-versions';
import type { MigrateOptions, MigrationReport } from './schema-versions/settings-migration';
import type { SecretCipher } from './secrets/secret-cipher';
import { SecretWatch } from './secrets/secret-watch';
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
  /** How much history each level's change log keeps. */
  readonly history: HistoryLimits;
  /** How many scope levels stay cached. */
  readonly maxCachedScopes: number;
  /** Which scopes exist (absent: every valid path). */
  readonly scopeExists?: ((path: string) => boolean | Promise<boolean>) | undefined;
  /** The schema version, the migration steps and `migrateOnLoad`. */
  readonly versions: SchemaVersionsOptions;
  /** The rules across settings (CONTRACT §12). */
  readonly rules: readonly SettingsRule[];
  /** The container's id, named in errors. */
  readonly pluginId: string;
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
  /** How much history each level's log keeps. */
  readonly historyLimits: HistoryLimits;
  /** The schema record as this instance knows it, and the migration steps. */
  readonly versions: SchemaVersions;
  /** The rules across settings. */
  readonly rules: readonly SettingsRule[];
  /** The container's id. */
  readonly pluginId: string;
  /** Which scopes exist (absent: every valid path). */
  readonly scopeExists: ((path: string) => boolean | Promise<boolean>) | undefined;
  /** The store access shared by the levels and the write path. */
  readonly services: LevelServices;
  /** What the last secret audit found and which secrets changed since (see `auditSecrets`). */
  readonly secretWatch = new SecretWatch();
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
    this.historyLimits = options.history;
    this.scopeExists = options.scopeExists;
    this.rules = options.rules;
    this.pluginId = options.pluginId;
    this.#deadlines = new StoreDeadlines(store, options.storeTimeoutMs);
    this.#salt = new TagSalt(store, schema.tagSaltKey);
    const salt = this.#salt;
    this.versions = new SchemaVersions(schema, () => this.services, options.versions);
    this.services = {
      schema,
      store,
      cipher: options.cipher,
      salt,
      versions: this.versions,
      read: readTexts(store),
      call: (operation, work) => callStore(store, operation, work),
      commit: (commit, operation = 'commit') =>
        callStore(store, operation, () => store.commit!(commit)).then((result) => {
          if (result.ok) for (const write of commit.writes) this.#secretChanged(write.key, write.value);
          return result;
        }),
      queued: (operation, keys, work) => this.#queued(operation, keys, work),
    };
    this.levels = new ValueLevels(this.services, options.maxCachedScopes);
    this.writes = new WriteCoordinator(this.services, this.levels, {
      history: options.history,
      rules: options.rules,
      pluginId: options.pluginId,
    });
  }

  /** The settings in registration order. */
  settings(): Framework_Setting[] {
    return [...this.schema.settings()];
  }

  /**
   * Reads every setting of the global level in one `getMany` (subscribing to the change feed
   * first); at the first use, the schema record comes along and due migrations run first.
   */
  async load(): Promise<void> {
    this.startWatching();
    const settings = this.settings();
    if (settings.length === 0) return;
    await this.levels.global.read(settings);
    if (!this.versions.settled && (await this.versions.settle())) {
      this.levels.markAllStale(this.settings());
      await this.levels.global.read(this.settings());
    }
  }

  /**
   * The first use's work once a read brought the schema record: due migrations run (the level
   * is read again after them), a fresh install's version is recorded.
   */
  async #settleVersions(
    level: ValueLevel,
    settings: Iterable<Framework_Setting>,
    withSalt: boolean,
  ): Promise<void> {
    if (!this.versions.known) await this.versions.read();
    if (await this.versions.settle()) {
      this.levels.markAllStale(this.settings());
      await level.ensureFresh(settings, withSalt);
    }
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
    if (!this.versions.settled)
      await this.#settleVersions(level, settings ?? this.schema.settings(), withSalt);
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
    if (!entry.fresh) {
      await level.ensureFresh(this.schema.settings(), withSalt);
      if (!this.versions.settled) await this.#settleVersions(level, this.schema.settings(), withSalt);
    }
    return { level, entry };
  }

  /** The entity tag of `setting` at `scope` (its stored state along the scope chain). */
  async tagOf(scope: string, setting: Framework_Setting): Promise<string> {
    const { level, entry } = await this.entry(scope, setting, true);
    if (entry.tagText !== undefined) return entry.tagText;
    const salt = this.#salt.current;
    if (salt !== undefined) {
      // The salt is known: the tag is computed here and now (a synchronous HMAC), and kept.
      const text = this.#tagText(level, [setting], salt);
      entry.tag = Promise.resolve(text);
      entry.tagText = text;
      return text;
    }
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
  tagOfTexts(
    level: ValueLevel,
    setting: Framework_Setting,
    texts: readonly (string | undefined)[],
  ): Promise<string> {
    const parts = level.chain.map(
      (scope, index) => [this.schema.keyOf(setting.getId(), scope), texts[index]] as const,
    );
    const kept = (salt: string): string => {
      const tag = entityTag(salt, parts);
      this.#keepTag(level, setting, texts, tag);
      return tag;
    };
    const salt = this.#salt.current;
    if (salt !== undefined) return Promise.resolve(kept(salt));
    return this.#salt.text().then(kept);
  }

  /**
   * Keeps `tag` on the level's entry of `setting` when the entry is current and holds exactly
   * `texts` (the state a write just left): the next read answers from the cache at once, as it
   * does for a setting read before, instead of computing the tag again on the slower path.
   */
  #keepTag(
    level: ValueLevel,
    setting: Framework_Setting,
    texts: readonly (string | undefined)[],
    tag: string,
  ): void {
    const entry = level.peek(setting);
    if (entry === undefined || !entry.fresh || entry.tagText !== undefined) return;
    if (entry.texts.length !== texts.length || entry.texts.some((text, index) => text !== texts[index]))
      return;
    entry.tag = Promise.resolve(tag);
    entry.tagText = tag;
  }

  #computeTag(level: ValueLevel, settings: readonly Framework_Setting[]): Promise<string> {
    const salt = this.#salt.current;
    if (salt !== undefined) return Promise.resolve(this.#tagText(level, settings, salt));
    return this.#salt.text().then((text) => this.#tagText(level, settings, text));
  }

  /** The entity tag of `settings` at `level` over the texts their entries hold, under `salt`. */
  #tagText(level: ValueLevel, settings: readonly Framework_Setting[], salt: string): string {
    const parts: (readonly [string, string | undefined])[] = [];
    for (const setting of settings) {
      const entry = level.entry(setting);
      level.chain.forEach((scope, index) => {
        parts.push([this.schema.keyOf(setting.getId(), scope), entry.texts[index]]);
      });
    }
    return entityTag(salt, parts);
  }

  /**
   * The history entries of one level (CONTRACT §9), newest first: one page, read from the store
   * (`readLogPage`) whatever the length of the log, with the count of matching entries.
   *
   * @throws {@link UnsupportedByStoreError} (501) when the store keeps no change log
   */
  async historyPage(
    query: HistoryQuery & { readonly scope: string; readonly offset?: number },
  ): Promise<HistoryPage> {
    const store = this.store;
    if (typeof store.readLog !== 'function' || typeof store.commit !== 'function') {
      throw new UnsupportedByStoreError('history', storeName(store));
    }
    const name = this.schema.logName(query.scope);
    return readHistoryPage(
      {
        page: (page) =>
          this.#deadlines.run(
            'readLog',
            callStore(store, 'readLog', () =>
              typeof store.readLogPage === 'function'
                ? store.readLogPage(name, page)
                : store.readLog!(name, Math.max(1, this.historyLimits.limit)).then((texts) => ({
                    entries: texts,
                    total: texts.length,
                    trimmed: false,
                  })),
            ),
          ),
        paged: typeof store.readLogPage === 'function',
      },
      query,
      parseEntry,
    );
  }

  /** The history entries of one level (CONTRACT §9), newest first (see {@link historyPage}). */
  async history(query: HistoryQuery & { readonly scope: string }): Promise<HistoryEntry[]> {
    return [...(await this.historyPage(query)).entries];
  }

  /** Runs the due migrations (CONTRACT §11); see `runMigrations`. */
  migrate(options: MigrateOptions = {}): Promise<MigrationReport> {
    return runMigrations(this, options);
  }

  /** Subscribes to the store's change feed, once (at the first read or write). */
  startWatching(): void {
    if (this.#watchStarted) return;
    this.#watchStarted = true;
    const store = this.store;
    if (typeof store.watch !== 'function') return;
    try {
      // A store with versioned reads also reports each change's text and version.
      const versioned = versionedRead(store) !== undefined;
      this.#unwatch = store.watch(
        (key: string, change?: KeyChange) => this.#onRemoteChange(key, versioned ? change : undefined),
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
    this.secretWatch.lost();
    this.#unwatch?.();
    this.#unwatch = null;
  }

  /**
   * Whether this instance hears of every change of the stored values: its own writes all go
   * through `commit` (the store has it), and the change feed reports the others' (it runs).
   */
  get followsEveryChange(): boolean {
    return this.#unwatch !== null && typeof this.store.commit === 'function';
  }

  /** Marks the values stored under `keys` stale everywhere (a write landed after its time limit). */
  markKeysStale(keys: readonly string[]): void {
    // Written after all, by a path that no longer reports it: secrets may have changed unseen.
    this.secretWatch.lost();
    for (const key of keys) this.#onRemoteChange(key);
  }

  /** Notes this instance's write of `key` (`written`: its text, `null` deleted) for the secret audit when it stores a secret. */
  #secretChanged(key: string, written: string | null): void {
    if (!this.secretWatch.listening) return;
    const parsed = this.schema.parseKey(key);
    if (parsed?.setting.isSecret()) this.secretWatch.changed(key, written);
  }

  #queued<T>(operation: OptionStoreOperation, keys: readonly string[], work: () => Promise<T>): Promise<T> {
    return this.#deadlines.run(operation, this.#queue.run(keys, work), () => this.markKeysStale(keys));
  }

  /**
   * Another instance changed `key`. With its change from a versioned message, the text is taken
   * into the cached levels without a read where that is safe (see `ValueLevels.applyChange`):
   * never for a secret (its ciphertext is decrypted on a read), nor while a read or write of this
   * instance holds the key (its result could not be ordered with the message); otherwise the
   * levels holding it are marked stale and the global level is read again.
   */
  #onRemoteChange(key: string, change?: KeyChange): void {
    const parsed = this.schema.parseKey(key);
    if (parsed === null) {
      if (key === this.schema.tagSaltKey) this.#salt.forget();
      else if (key === this.schema.schemaRecordKey) this.versions.forget();
      return;
    }
    const { setting, scope } = parsed;
    if (setting.isSecret()) this.secretWatch.changed(key);
    else if (isKeyChange(change) && !this.#queue.isBusy(key)) {
      const { text } = change;
      const decoded = text === undefined ? null : (setting.codec.decode(text) ?? null);
      if (this.levels.applyChange(setting, scope, text, decoded, change.version)) this.#scheduleRefresh();
      return;
    }
    this.levels.markStale(setting, scope);
    this.#scheduleRefresh();
  }

  #onResync(): void {
    this.secretWatch.lost();
    this.#salt.forget();
    this.versions.forget();
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

/** The `read` of the level services: the store's versioned read when it has one, else `getMany` without versions. */
function readTexts(store: OptionStore): (keys: readonly string[]) => Promise<VersionedTexts> {
  const versioned = versionedRead(store);
  if (versioned !== undefined) return (keys) => callStore(store, 'getMany', () => versioned(keys));
  const versionOf = (): undefined => undefined;
  return (keys) =>
    callStore(store, 'getMany', () => store.getMany(keys)).then((texts) => ({ texts, versionOf }));
}

/** Whether a `watch` callback's second argument is a change of a versioned message (a store of the host's may pass anything). */
function isKeyChange(change: unknown): change is KeyChange {
  if (typeof change !== 'object' || change === null) return false;
  const { text, version } = change as { text?: unknown; version?: unknown };
  return (text === undefined || typeof text === 'string') && typeof version === 'string';
}
