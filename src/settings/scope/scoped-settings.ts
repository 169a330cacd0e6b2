import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { Framework_Abstract_Settings } from '../abstract-settings';
import type { HistoryEntry } from '../history/history-entry';
import type { HistoryPage, HistoryQuery } from '../history/history-query';
import type { Framework_Setting, SettingObject } from '../setting';
import type { SettingsCore } from '../settings-core';
import type { LevelEntry } from '../values/level-entry';
import type { ValueLevel } from '../values/value-level';
import { applyBatch, invokeDelete, invokeUpdate } from '../writes/invoke-write';
import type { WriteOutcome } from '../writes/write-coordinator';
import type { SettingChange, WriteOptions } from '../writes/write-options';
import { ScopeNotFoundError } from './scope-not-found';

/** A Setting object with the entity tag of the state it shows. */
export interface DescribedSetting {
  /** The REST Setting object (secrets masked). */
  readonly setting: SettingObject;
  /** The strong entity tag of the same state. */
  readonly etag: string;
}

/**
 * The settings of one scope (CONTRACT §10), from `settings.scope(path)`; `settings.level()`
 * gives the same view of the global level (`path` `''`). Values are checked exactly as global
 * ones, and writes run the container's `updateValue` override like global writes, storing at
 * this scope.
 */
export interface ScopedSettings {
  /** The scope path; `''` for the global level. */
  readonly path: string;
  /**
   * The nearest stored value: this scope's, else its parents', else the global value, else the
   * default (`null` without one, or when `withDefault` is false).
   *
   * @throws {@link Framework_Plugin_Exception} (404) for an unknown id; `OptionStoreError` when the store fails
   */
  getValue(id: string, withDefault?: boolean): Promise<unknown>;
  /** The value stored at this scope itself, else `null`. */
  getOwnValue(id: string): Promise<unknown>;
  /** Where `getValue`'s value comes from: a scope path, `''` for the global value, `null` for the default. */
  getOrigin(id: string): Promise<string | null>;
  /** Stores `value` at this scope (through the container's `updateValue`, override included). */
  updateValue(id: string, value: unknown, options?: WriteOptions): Promise<void>;
  /** Removes this scope's value, so that it inherits again; true when one was removed. */
  deleteValue(id: string, options?: WriteOptions): Promise<boolean>;
  /**
   * Stores several changes at this scope in one atomic step: each is checked like a single
   * write (override included); when any is refused, nothing is stored and the promise rejects
   * with a `BatchRejectedError` listing every refused change.
   */
  updateValues(changes: readonly SettingChange[], options?: WriteOptions): Promise<void>;
  /**
   * Runs the checks of {@link updateValues} — types, options, the container's overrides — and
   * stores nothing: resolves when every change would be accepted, else rejects with a
   * `BatchRejectedError` listing every refused one.
   */
  checkValues(changes: readonly SettingChange[], options?: WriteOptions): Promise<void>;
  /**
   * {@link updateValue}, resolving to the Setting object this write left and its entity tag
   * (what a REST PUT answers: exactly this write, whatever writes follow it).
   */
  putSetting(id: string, value: unknown, options?: WriteOptions): Promise<DescribedSetting>;
  /** {@link deleteValue}, resolving to the Setting object as it then reads and its entity tag. */
  deleteSetting(id: string, options?: WriteOptions): Promise<DescribedSetting>;
  /** {@link updateValues}, resolving to the Setting objects (in the order of `changes`) with their tags. */
  putSettings(changes: readonly SettingChange[], options?: WriteOptions): Promise<DescribedSetting[]>;
  /** The entity tag of a setting's stored state at this scope (its texts along the scope chain). */
  getETag(id: string): Promise<string>;
  /** The entity tag of every setting at this scope together. */
  getListETag(): Promise<string>;
  /** The REST Setting object of a setting at this scope (secrets masked; scoped ones carry `scope` and `origin`). */
  getSettingObject(id: string): Promise<SettingObject>;
  /** The REST Setting objects of every setting, in registration order. */
  getSettingObjects(): Promise<SettingObject[]>;
  /** The history entries of this level (newest first); `scope` in the query is ignored. */
  getHistory(query?: Omit<HistoryQuery, 'scope'>): Promise<HistoryEntry[]>;
  /**
   * One page of this level's history, newest first (`offset` entries skipped, at most `limit`),
   * and how many entries match in all: read from the store a page at a time.
   */
  getHistoryPage(query: Omit<HistoryQuery, 'scope'> & { readonly offset?: number }): Promise<HistoryPage>;
}

function unknownSetting(id: string, pluginId: string): Framework_Plugin_Exception {
  return new Framework_Plugin_Exception(`Setting "${id}" is not registered in "${pluginId}"`, 404);
}

/** The {@link ScopedSettings} of one level of a container. */
export class LevelView implements ScopedSettings {
  readonly path: string;
  readonly #container: Framework_Abstract_Settings;
  readonly #core: SettingsCore;
  /** True for a view made after `scopeExists` said yes (one request's): it does not ask again. */
  readonly #verified: boolean;

  /**
   * @param container - the settings container (its overrides run for writes)
   * @param core - the container's values
   * @param path - `''` or a valid scope path
   * @param verified - `scopeExists` already said yes: do not ask it again
   */
  constructor(container: Framework_Abstract_Settings, core: SettingsCore, path: string, verified = false) {
    this.#container = container;
    this.#core = core;
    this.path = path;
    this.#verified = verified;
  }

  /**
   * @internal This view once the level is known to exist: itself when no `scopeExists` check
   * applies, else (after one check) a view for one request that does not ask again. Rejects with a
   * {@link ScopeNotFoundError} (404) for a scope `scopeExists` refuses.
   */
  verified(): LevelView | Promise<LevelView> {
    const existence = this.existence();
    if (existence === undefined) return this;
    return existence.then(() => new LevelView(this.#container, this.#core, this.path, true));
  }

  getValue(id: string, withDefault = true): Promise<unknown> {
    return this.#readChecked(id, (entry, setting) =>
      entry.value === null && withDefault && !entry.blocked ? setting.getDefault() : entry.value,
    );
  }

  getOwnValue(id: string): Promise<unknown> {
    return this.#readChecked(id, (entry) => entry.decoded[0] ?? null);
  }

  getOrigin(id: string): Promise<string | null> {
    return this.#readChecked(id, (entry, _setting, level) =>
      entry.originIndex === -1 ? null : level.chain[entry.originIndex]!,
    );
  }

  updateValue(id: string, value: unknown, options?: WriteOptions): Promise<void> {
    return this.#guard(() =>
      invokeUpdate(this.#container, id, value, options, this.path, null).then(() => undefined),
    );
  }

  deleteValue(id: string, options?: WriteOptions): Promise<boolean> {
    return this.#guard(() =>
      invokeDelete(this.#container, id, options, this.path, null).then(({ removed }) => removed),
    );
  }

  async putSetting(id: string, value: unknown, options?: WriteOptions): Promise<DescribedSetting> {
    await this.existence();
    const outcome = await invokeUpdate(this.#container, id, value, options, this.path, null);
    return this.#describeWritten(id, outcome);
  }

  async deleteSetting(id: string, options?: WriteOptions): Promise<DescribedSetting> {
    await this.existence();
    const { outcome } = await invokeDelete(this.#container, id, options, this.path, null);
    return this.#describeWritten(id, outcome);
  }

  async putSettings(changes: readonly SettingChange[], options?: WriteOptions): Promise<DescribedSetting[]> {
    const outcome = await this.applyChanges(changes, options);
    return Promise.all(changes.map((change) => this.#describeWritten(change.id, outcome)));
  }

  /** A setting as a write left it (from the write's own outcome when there is one), with its tag. */
  async #describeWritten(id: string, outcome: WriteOutcome | undefined): Promise<DescribedSetting> {
    const state = outcome?.states.get(id);
    const setting = this.#core.schema.get(id);
    if (state === undefined || setting === undefined) {
      const [tag, object] = [await this.getETag(id), await this.getSettingObject(id)];
      return { setting: object, etag: tag };
    }
    const level = this.#core.levels.level(this.path);
    const etag = await this.#core.tagOfTexts(level, setting, state.texts);
    const object = setting.describe(state.value, state.blocked);
    if (this.path !== '') {
      object.scope = this.path;
      object.origin = state.originIndex === -1 ? null : level.chain[state.originIndex]!;
    }
    return { setting: object, etag };
  }

  async updateValues(changes: readonly SettingChange[], options?: WriteOptions): Promise<void> {
    await this.applyChanges(changes, options);
  }

  async checkValues(changes: readonly SettingChange[], options?: WriteOptions): Promise<void> {
    await this.existence();
    await applyBatch(this.#container, this.#core, this.path, changes, options, true);
  }

  /** {@link updateValues}, resolving to which changes altered the stored text. */
  applyChanges(changes: readonly SettingChange[], options?: WriteOptions): Promise<WriteOutcome> {
    return this.#guard(() => applyBatch(this.#container, this.#core, this.path, changes, options));
  }

  getETag(id: string): Promise<string> {
    const setting = this.#core.schema.get(id);
    if (setting === undefined) return Promise.reject(unknownSetting(id, this.#container.getId()));
    return this.#guard(() => this.#core.tagOf(this.path, setting));
  }

  getListETag(): Promise<string> {
    return this.#guard(() => this.#core.listTagOf(this.path));
  }

  getSettingObject(id: string): Promise<SettingObject> {
    return this.#readChecked(id, (entry, setting, level) => this.#describe(entry, setting, level));
  }

  async getSettingObjects(): Promise<SettingObject[]> {
    await this.existence();
    const settings = this.#core.settings();
    const level = await this.#core.freshLevel(this.path, settings);
    return settings.map((setting) => this.#describe(level.entry(setting), setting, level));
  }

  getHistory(query: Omit<HistoryQuery, 'scope'> = {}): Promise<HistoryEntry[]> {
    return this.#guard(() => this.#core.history({ ...query, scope: this.path }));
  }

  getHistoryPage(query: Omit<HistoryQuery, 'scope'> & { readonly offset?: number }): Promise<HistoryPage> {
    return this.#guard(() => this.#core.historyPage({ ...query, scope: this.path }));
  }

  /**
   * Whether the level exists (CONTRACT third round, `scopeExists`): `undefined` when it surely
   * does (the global level, no `scopeExists` option, or a synchronous yes), else a promise that
   * resolves when it does and rejects with a {@link ScopeNotFoundError} (404) when it does not.
   */
  /** @internal */
  existence(): Promise<void> | undefined {
    const check = this.#core.scopeExists;
    if (check === undefined || this.path === '' || this.#verified) return undefined;
    let verdict: boolean | Promise<boolean>;
    try {
      verdict = check(this.path);
    } catch (error) {
      return Promise.reject(error);
    }
    if (verdict === true) return undefined;
    return Promise.resolve(verdict).then((exists) => {
      if (exists !== true) throw new ScopeNotFoundError(this.path);
    });
  }

  /** `work` once the level is known to exist (at once when it surely does). */
  #guard<T>(work: () => Promise<T>): Promise<T> {
    const existence = this.existence();
    return existence === undefined ? work() : existence.then(work);
  }

  /** {@link #read}, once the level is known to exist. */
  #readChecked<T>(
    id: string,
    answer: (entry: LevelEntry, setting: Framework_Setting, level: ValueLevel) => T,
  ): Promise<T> {
    const existence = this.existence();
    if (existence === undefined) return this.#read(id, answer);
    return existence.then(() => this.#read(id, answer));
  }

  /**
   * @internal The Setting object and entity tag of `id` when both are known without waiting (its
   * entry fresh and its tag computed before); `undefined` otherwise: read them the usual way.
   */
  peekSetting(id: string): DescribedSetting | undefined {
    const existence = this.existence();
    if (existence !== undefined) {
      // Answered the usual way, which asks again and reports the answer.
      existence.catch(() => undefined);
      return undefined;
    }
    const core = this.#core;
    const setting = core.schema.get(id);
    if (setting === undefined) return undefined;
    const level = core.levels.level(this.path);
    const entry = level.entry(setting);
    const etag = entry.tagText;
    if (!entry.fresh || etag === undefined) return undefined;
    return { setting: this.#describe(entry, setting, level), etag };
  }

  #describe(entry: LevelEntry, setting: Framework_Setting, level: ValueLevel): SettingObject {
    const object = setting.describe(entry.value, entry.blocked);
    if (this.path === '') return object;
    object.scope = this.path;
    object.origin = entry.originIndex === -1 ? null : level.chain[entry.originIndex]!;
    return object;
  }

  /** Answers from the level's entry of `id`, reading it first when stale (no promise chain when it is fresh). */
  #read<T>(
    id: string,
    answer: (entry: LevelEntry, setting: Framework_Setting, level: ValueLevel) => T,
  ): Promise<T> {
    const core = this.#core;
    const setting = core.schema.get(id);
    if (setting === undefined) {
      // The registry may not be built yet: the container builds it on first use.
      if (!this.#container.getSetting(id)) return Promise.reject(unknownSetting(id, this.#container.getId()));
      return this.#read(id, answer);
    }
    const level = core.levels.level(this.path);
    const entry = level.entry(setting);
    if (entry.fresh) return Promise.resolve(answer(entry, setting, level));
    return core
      .entry(this.path, setting)
      .then(({ level: read, entry: current }) => answer(current, setting, read));
  }
}
