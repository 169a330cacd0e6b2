import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import { OptionStoreError, type OptionStoreOperation } from '../errors/option-store-error';
import type { OptionStore } from '../storage/option-store';
import { Framework_Control } from './control';
import { CONTROL_TYPES, type ControlType, isControlType } from './control-types';
import { deepFreeze } from './json-value';
import { KeyedQueue } from './keyed-queue';
import { Framework_Setting } from './setting';
import { SETTING_TYPE_DEFINITIONS, SETTING_TYPES, type SettingType } from './setting-types';
import { callStore, storeName, withStoreTimeout } from './store-calls';
import { compileValueCodec, optionText } from './value-codec';

/** Arguments of {@link Framework_Abstract_Settings.registerSetting}. */
export interface SettingArgs {
  /** The label shown in forms and the REST API. */
  name?: string;
  /** The help text. */
  description?: string;
  /** The value read when nothing is stored; `null` or absent: no default. Must pass the type and `options`. */
  default?: unknown;
  /** The allowed values; each must be a valid value of the type. Empty or absent: any value of the type. */
  options?: readonly unknown[];
  /** When true, the value is an array of values of the type. */
  is_multi?: boolean;
}

/** Arguments of {@link Framework_Abstract_Settings.registerControl}. */
export interface ControlArgs {
  /** The label; defaults to the setting's name. */
  name?: string;
  /** The help text; defaults to the setting's description. */
  description?: string;
  /** Option labels keyed by the option's text (each key must be one of the setting's options, as text). */
  options?: Record<string, string>;
}

/** Options of the {@link Framework_Abstract_Settings} constructor. */
export interface SettingsOptions {
  /** First part of every storage key, `${optionPrefix}_${pluginId}_${settingId}`. Default `'framework'`. */
  optionPrefix?: string;
  /**
   * How long one store operation (including the wait behind earlier writes of the same
   * setting) may take before it rejects with a timed-out `OptionStoreError`. Default 10 000 ms;
   * 0 disables the limit.
   */
  storeTimeoutMs?: number;
}

const SETTING_ID = /^[A-Za-z0-9_-]+$/;
const DEFAULT_STORE_TIMEOUT_MS = 10_000;

function registrationError(message: string): Framework_Plugin_Exception {
  return new Framework_Plugin_Exception(message, 400);
}

/**
 * A plugin's settings: a typed, self-describing container of {@link Framework_Setting}s
 * backed by an {@link OptionStore}.
 *
 * Subclasses declare their settings in {@link registerSettings}, which runs once, lazily,
 * before the first use of any other method. Values are validated strictly on write, stored
 * as one text value per setting, and cached in memory: `load()` reads every setting in one
 * `getMany`, later reads come from memory, and when the store offers `watch`, changes made
 * by other app instances update memory by themselves.
 *
 * @example
 * ```ts
 * class GatewaySettings extends Framework_Abstract_Settings {
 *   protected registerSettings(): void {
 *     this.registerSetting('enabled', 'boolean', { name: 'Enabled', default: false });
 *     this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
 *     this.registerControl('mode', 'select', { options: { live: 'Live', test: 'Test' } });
 *   }
 * }
 * const settings = new GatewaySettings('acme', new MemoryOptionStore());
 * await settings.updateValue('enabled', true);
 * await settings.getValue('enabled'); // true
 * ```
 */
export abstract class Framework_Abstract_Settings {
  readonly #id: string;
  readonly #store: OptionStore;
  readonly #optionPrefix: string;
  readonly #storeTimeoutMs: number;
  readonly #settings = new Map<string, Framework_Setting>();
  readonly #settingsByKey = new Map<string, Framework_Setting>();
  readonly #queue = new KeyedQueue();
  /** Reads in flight, by setting, with the setting's generation when asked: concurrent readers share one `getMany`. */
  readonly #pendingReads = new Map<Framework_Setting, { read: Promise<void>; generation: number }>();
  #registration: 'pending' | 'running' | 'done' = 'pending';
  #unwatch: (() => void) | null = null;
  #watchStarted = false;
  #refreshScheduled = false;

  /**
   * @param id - the plugin's id: the middle part of every storage key and the `{pluginId}` of its REST routes
   * @param store - where the values live
   * @param options - the storage-key prefix and the store timeout
   */
  constructor(id: string, store: OptionStore, options: SettingsOptions = {}) {
    if (typeof id !== 'string' || id === '' || /[\s/\p{Cc}]/u.test(id)) {
      throw registrationError(
        `Invalid settings id ${JSON.stringify(id)}: use a non-empty id without "/" or white space`,
      );
    }
    this.#id = id;
    this.#store = store;
    this.#optionPrefix = options.optionPrefix ?? 'framework';
    this.#storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  }

  /**
   * Declares the settings, with {@link registerSetting} and {@link registerControl}. Runs
   * once, lazily, before the first use of any other method.
   */
  protected abstract registerSettings(): void;

  /** The plugin id these settings belong to. */
  getId(): string {
    this.#ensureRegistered();
    return this.#id;
  }

  /**
   * Registers a setting.
   *
   * @throws {@link Framework_Plugin_Exception} (code 400) for a duplicate or malformed id, an
   *   unknown type, an option that fails the type, or a default that fails the type or is
   *   not among the options; nothing is registered then.
   */
  registerSetting(id: string, type: SettingType | (string & {}), args: SettingArgs = {}): Framework_Setting {
    this.#ensureRegistered();
    if (typeof id !== 'string' || !SETTING_ID.test(id)) {
      throw registrationError(
        `Invalid setting id ${JSON.stringify(id)}: use one or more of A-Z, a-z, 0-9, "_" and "-"`,
      );
    }
    if (this.#settings.has(id)) throw registrationError(`Setting "${id}" is already registered`);
    const definition = SETTING_TYPE_DEFINITIONS.get(type);
    if (!definition) {
      throw registrationError(
        `Setting "${id}": unknown type "${type}"; use one of ${SETTING_TYPES.join(', ')}`,
      );
    }
    const isMulti = args.is_multi ?? false;
    if (typeof isMulti !== 'boolean') throw registrationError(`Setting "${id}": is_multi must be a boolean`);
    const rawOptions = args.options ?? [];
    if (!Array.isArray(rawOptions)) throw registrationError(`Setting "${id}": options must be an array`);
    const elementCodec = compileValueCodec(definition, false, []);
    rawOptions.forEach((option, index) => {
      const problem = elementCodec.problem(option);
      if (problem)
        throw registrationError(`Setting "${id}": option ${index} is not a valid ${type}: ${problem}`);
    });
    const options = deepFreeze(structuredClone(rawOptions));
    const codec = compileValueCodec(definition, isMulti, options);
    const defaultValue = args.default ?? null;
    if (defaultValue !== null) {
      const problem = codec.problem(defaultValue);
      if (problem) throw registrationError(`Setting "${id}": invalid default: ${problem}`);
    }

    const setting = new Framework_Setting();
    setting.configure({
      id,
      type: definition.type,
      name: args.name ?? '',
      description: args.description ?? '',
      isMulti,
      options,
      defaultValue: defaultValue === null ? null : deepFreeze(structuredClone(defaultValue)),
      codec,
    });
    this.#settings.set(id, setting);
    this.#settingsByKey.set(this.getOptionName(id), setting);
    return setting;
  }

  /**
   * Attaches a UI control to a setting. Name and description default to the setting's;
   * options default to `{}`.
   *
   * @throws {@link Framework_Plugin_Exception} (code 400) for an unknown setting, an unknown
   *   control type, or an option key that is not, as text, one of the setting's options; the
   *   setting's control is then unchanged.
   */
  registerControl(
    settingId: string,
    type: ControlType | (string & {}),
    args: ControlArgs = {},
  ): Framework_Control {
    this.#ensureRegistered();
    const setting = this.#settings.get(settingId);
    if (!setting) throw registrationError(`Cannot add a control: no setting "${settingId}" is registered`);
    if (!isControlType(type)) {
      throw registrationError(
        `Setting "${settingId}": unknown control type "${type}"; use one of ${CONTROL_TYPES.join(', ')}`,
      );
    }
    const options = args.options ?? {};
    const settingOptions = setting.getOptions();
    if (settingOptions.length > 0) {
      const allowed = new Set(settingOptions.map(optionText));
      for (const key of Object.keys(options)) {
        if (!allowed.has(key)) {
          throw registrationError(
            `Setting "${settingId}": control option "${key}" is not one of the setting's options`,
          );
        }
      }
    }
    const control = new Framework_Control();
    control.setSettingId(settingId);
    control.setType(type);
    control.setName(args.name ?? setting.getName());
    control.setDescription(args.description ?? setting.getDescription());
    control.setOptions(options);
    setting.setControl(control);
    return control;
  }

  /** Removes a setting from the registry (its stored value stays); true when one was removed. */
  unregisterSetting(id: string): boolean {
    this.#ensureRegistered();
    const setting = this.#settings.get(id);
    if (!setting) return false;
    this.#settings.delete(id);
    this.#settingsByKey.delete(this.getOptionName(id));
    return true;
  }

  /** The setting registered under `id`, if any. */
  getSetting(id: string): Framework_Setting | undefined {
    this.#ensureRegistered();
    return this.#settings.get(id);
  }

  /** All settings, or only those of `ids` (unknown ids are ignored), in registration order. */
  getSettings(ids?: readonly string[]): Map<string, Framework_Setting> {
    this.#ensureRegistered();
    if (ids === undefined) return new Map(this.#settings);
    const wanted = new Set(ids);
    return new Map([...this.#settings].filter(([id]) => wanted.has(id)));
  }

  /** The storage key of a setting: `${optionPrefix}_${pluginId}_${settingId}`. */
  getOptionName(settingId: string): string {
    this.#ensureRegistered();
    return `${this.#optionPrefix}_${this.#id}_${settingId}`;
  }

  /** The seven setting types. */
  getSettingTypes(): string[] {
    this.#ensureRegistered();
    return [...SETTING_TYPES];
  }

  /** The twelve control types. */
  getControlTypes(): string[] {
    this.#ensureRegistered();
    return [...CONTROL_TYPES];
  }

  /**
   * Reads every registered setting from the store in one `getMany` and replaces the
   * in-memory values. At the first load, subscribes to the store's `watch` when it has one.
   *
   * @throws `OptionStoreError` when the store fails; memory is then unchanged.
   */
  async load(): Promise<void> {
    this.#ensureRegistered();
    this.#startWatching();
    await this.#read([...this.#settings.values()]);
  }

  /**
   * Reads from the store only the settings whose in-memory value is not known to be current
   * (never loaded, registered after the last load, or reported changed by the store's watch),
   * in one `getMany`. Does nothing when every value is current.
   */
  async ensureLoaded(): Promise<void> {
    this.#ensureRegistered();
    this.#startWatching();
    await this.#readStale([...this.#settings.values()]);
  }

  /**
   * The value of a setting, typed per its type: the stored value, else the default (or
   * `null` without one, or when `withDefault` is false). Loads first when needed.
   * Object and multi values are frozen snapshots: copy them to change them.
   *
   * @throws {@link Framework_Plugin_Exception} (404) for an unknown id; `OptionStoreError` when the store fails.
   */
  async getValue(id: string, withDefault = true): Promise<unknown> {
    const setting = this.#requireSetting(id);
    if (!setting.isFresh) {
      // Read every setting that is not current in the same getMany: the first getValue of an
      // instance loads it whole, and concurrent first reads share that one call.
      this.#startWatching();
      await this.#readStale([...this.#settings.values()]);
    }
    const value = setting.getValue();
    return value === null && withDefault ? setting.getDefault() : value;
  }

  /**
   * Validates `value`, writes it to the store and then to memory. Resolves once the store
   * has it. Writes to one setting are applied in the order they were made.
   *
   * Subclasses may override it to add checks (throwing `Framework_Plugin_Exception(message, 400)`)
   * and then call `super.updateValue`.
   *
   * @throws {@link Framework_Plugin_Exception} (400) for a rejected value, (404) for an unknown
   *   id; `OptionStoreError` when the store fails. Store and memory are then unchanged.
   */
  async updateValue(id: string, value: unknown): Promise<void> {
    const setting = this.#requireSetting(id);
    // A write marks the setting current, so the instance must follow other writers from now on.
    this.#startWatching();
    const problem = setting.codec.problem(value);
    if (problem !== undefined) {
      throw new Framework_Plugin_Exception(`Invalid value for setting "${id}": ${problem}`, 400);
    }
    const key = this.getOptionName(id);
    const text = setting.codec.encode(value);
    // Memory holds exactly what a fresh instance would read back from the store.
    const stored = setting.codec.decode(text);
    await this.#queued('set', [key], async () => {
      const startedAt = setting.generation;
      await callStore(this.#store, 'set', () => this.#store.set(key, text));
      setting.setStoredValue(stored, startedAt);
    });
  }

  /**
   * Removes the stored value; the setting then reads as its default.
   *
   * @returns true when a stored value was removed, false when none was stored
   * @throws {@link Framework_Plugin_Exception} (404) for an unknown id; `OptionStoreError` when the store fails.
   */
  async deleteValue(id: string): Promise<boolean> {
    const setting = this.#requireSetting(id);
    this.#startWatching();
    const key = this.getOptionName(id);
    return this.#queued('delete', [key], async () => {
      const startedAt = setting.generation;
      const removed = await callStore(this.#store, 'delete', () => this.#store.delete(key));
      setting.setStoredValue(null, startedAt);
      return removed;
    });
  }

  /** Stops following the store's changes (the store itself stays open). */
  dispose(): void {
    this.#unwatch?.();
    this.#unwatch = null;
  }

  #ensureRegistered(): void {
    if (this.#registration !== 'pending') return;
    this.#registration = 'running';
    try {
      this.registerSettings();
      this.#registration = 'done';
    } catch (error) {
      this.#settings.clear();
      this.#settingsByKey.clear();
      this.#registration = 'pending';
      throw error;
    }
  }

  #requireSetting(id: string): Framework_Setting {
    this.#ensureRegistered();
    const setting = this.#settings.get(id);
    if (!setting)
      throw new Framework_Plugin_Exception(`Setting "${id}" is not registered in "${this.#id}"`, 404);
    return setting;
  }

  #queued<T>(operation: OptionStoreOperation, keys: readonly string[], work: () => Promise<T>): Promise<T> {
    return withStoreTimeout(this.#store, operation, this.#storeTimeoutMs, this.#queue.run(keys, work));
  }

  /** Reads `settings` from the store in one `getMany` (after queued writes to them) and sets their memory. */
  #read(settings: readonly Framework_Setting[]): Promise<void> {
    if (settings.length === 0) return Promise.resolve();
    const keys = settings.map((setting) => this.getOptionName(setting.getId()));
    const read = this.#queued('getMany', keys, async () => {
      const startedAt = settings.map((setting) => setting.generation);
      const found = await callStore(this.#store, 'getMany', () => this.#store.getMany(keys));
      settings.forEach((setting, index) => {
        const text = found.get(keys[index]!);
        setting.setStoredValue(
          text === undefined ? null : (setting.codec.decode(text) ?? null),
          startedAt[index]!,
        );
      });
    });
    for (const setting of settings) this.#pendingReads.set(setting, { read, generation: setting.generation });
    const forget = () => {
      for (const setting of settings)
        if (this.#pendingReads.get(setting)?.read === read) this.#pendingReads.delete(setting);
    };
    read.then(forget, forget);
    return read;
  }

  /** Reads the settings among `candidates` that are not fresh, sharing reads already in flight. */
  async #readStale(candidates: readonly Framework_Setting[]): Promise<void> {
    const waits: Promise<void>[] = [];
    const toRead: Framework_Setting[] = [];
    for (const setting of candidates) {
      if (setting.isFresh) continue;
      const pending = this.#pendingReads.get(setting);
      if (pending && pending.generation === setting.generation) waits.push(pending.read);
      else toRead.push(setting);
    }
    if (toRead.length > 0) waits.push(this.#read(toRead));
    await Promise.all(waits);
  }

  #startWatching(): void {
    if (this.#watchStarted) return;
    this.#watchStarted = true;
    if (typeof this.#store.watch !== 'function') return;
    try {
      this.#unwatch = this.#store.watch(
        (key) => this.#onRemoteChange(key),
        () => this.#onResync(),
      );
    } catch (error) {
      // Tried again at the next read; this one reports the store's failure.
      this.#watchStarted = false;
      throw new OptionStoreError('watch', { cause: error, store: storeName(this.#store) });
    }
  }

  #onRemoteChange(key: string): void {
    const setting = this.#settingsByKey.get(key);
    if (!setting) return;
    setting.markStale();
    this.#scheduleRefresh();
  }

  #onResync(): void {
    for (const setting of this.#settings.values()) setting.markStale();
    this.#scheduleRefresh();
  }

  /** Re-reads, once per burst of notifications, every setting marked stale. */
  #scheduleRefresh(): void {
    if (this.#refreshScheduled) return;
    this.#refreshScheduled = true;
    queueMicrotask(() => {
      this.#refreshScheduled = false;
      this.#readStale([...this.#settings.values()]).catch(() => {
        // The settings stay stale: the next getValue reads them and reports the store error.
      });
    });
  }
}
