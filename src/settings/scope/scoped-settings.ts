import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { Framework_Abstract_Settings } from '../abstract-settings';
import type { HistoryEntry } from '../history/history-entry';
import type { HistoryQuery } from '../history/history-query';
import type { Framework_Setting, SettingObject } from '../setting';
import type { SettingsCore } from '../settings-core';
import type { LevelEntry } from '../values/level-entry';
import type { ValueLevel } from '../values/value-level';
import { applyBatch, invokeDelete, invokeUpdate } from '../writes/invoke-write';
import type { WriteOutcome } from '../writes/write-coordinator';
import type { SettingChange, WriteOptions } from '../writes/write-options';

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
}

function unknownSetting(id: string, pluginId: string): Framework_Plugin_Exception {
  return new Framework_Plugin_Exception(`Setting "${id}" is not registered in "${pluginId}"`, 404);
}

/** The {@link ScopedSettings} of one level of a container. */
export class LevelView implements ScopedSettings {
  readonly path: string;
  readonly #container: Framework_Abstract_Settings;
  readonly #core: SettingsCore;

  /**
   * @param container - the settings container (its overrides run for writes)
   * @param core - the container's values
   * @param path - `''` or a valid scope path
   */
  constructor(container: Framework_Abstract_Settings, core: SettingsCore, path: string) {
    this.#container = container;
    this.#core = core;
    this.path = path;
  }

  getValue(id: string, withDefault = true): Promise<unknown> {
    return this.#read(id, (entry, setting) =>
      entry.value === null && withDefault ? setting.getDefault() : entry.value,
    );
  }

  getOwnValue(id: string): Promise<unknown> {
    return this.#read(id, (entry) => entry.decoded[0] ?? null);
  }

  getOrigin(id: string): Promise<string | null> {
    return this.#read(id, (entry, _setting, level) =>
      entry.originIndex === -1 ? null : level.chain[entry.originIndex]!,
    );
  }

  updateValue(id: string, value: unknown, options?: WriteOptions): Promise<void> {
    return invokeUpdate(this.#container, id, value, options, this.path, null).then(() => undefined);
  }

  deleteValue(id: string, options?: WriteOptions): Promise<boolean> {
    return invokeDelete(this.#container, id, options, this.path, null).then(({ removed }) => removed);
  }

  async putSetting(id: string, value: unknown, options?: WriteOptions): Promise<DescribedSetting> {
    const outcome = await invokeUpdate(this.#container, id, value, options, this.path, null);
    return this.#describeWritten(id, outcome);
  }

  async deleteSetting(id: string, options?: WriteOptions): Promise<DescribedSetting> {
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
    const object = setting.describe(state.value);
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
    await applyBatch(this.#container, this.#core, this.path, changes, options, true);
  }

  /** {@link updateValues}, resolving to which changes altered the stored text. */
  applyChanges(changes: readonly SettingChange[], options?: WriteOptions): Promise<WriteOutcome> {
    return applyBatch(this.#container, this.#core, this.path, changes, options);
  }

  getETag(id: string): Promise<string> {
    const setting = this.#core.schema.get(id);
    if (setting === undefined) return Promise.reject(unknownSetting(id, this.#container.getId()));
    return this.#core.tagOf(this.path, setting);
  }

  getListETag(): Promise<string> {
    return this.#core.listTagOf(this.path);
  }

  getSettingObject(id: string): Promise<SettingObject> {
    return this.#read(id, (entry, setting, level) => this.#describe(entry, setting, level));
  }

  async getSettingObjects(): Promise<SettingObject[]> {
    const settings = this.#core.settings();
    const level = await this.#core.freshLevel(this.path, settings);
    return settings.map((setting) => this.#describe(level.entry(setting), setting, level));
  }

  getHistory(query: Omit<HistoryQuery, 'scope'> = {}): Promise<HistoryEntry[]> {
    return this.#core.history({ ...query, scope: this.path });
  }

  /**
   * @internal The Setting object and entity tag of `id` when both are known without waiting (its
   * entry fresh and its tag computed before); `undefined` otherwise: read them the usual way.
   */
  peekSetting(id: string): DescribedSetting | undefined {
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
    const object = setting.describe(entry.value);
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
