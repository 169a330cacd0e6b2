import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { OptionStore } from '../storage/option-store';
import { Framework_Control } from './control';
import { CONTROL_TYPES, type ControlType, isControlType } from './control-types';
import type { HistoryEntry } from './history/history-entry';
import type { HistoryQuery } from './history/history-query';
import { deepFreeze } from './json-value';
import { SettingsSchema } from './schema/settings-schema';
import { assertScopePath } from './scope/scope-path';
import { LevelView, type ScopedSettings } from './scope/scoped-settings';
import type { SecretCipher } from './secrets/secret-cipher';
import { rotateSecrets } from './secrets/secret-rotation';
import { Framework_Setting } from './setting';
import { SETTING_TYPE_DEFINITIONS, SETTING_TYPES, type SettingType } from './setting-types';
import { SettingValueError } from './setting-value-error';
import { SettingsCore } from './settings-core';
import { compileValueCodec, optionText } from './value-codec';
import { DEFAULT_MAX_CACHED_SCOPES } from './values/value-levels';
import { installWriteWrappers } from './writes/override-wrappers';
import { currentWriteContext } from './writes/write-context';
import type { SettingChange, WriteOptions } from './writes/write-options';

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
  /**
   * A secret (an API key, a webhook secret): its value leaves the process only as
   * `"********"` and is encrypted at rest when the container has a cipher (CONTRACT §7). A
   * setting whose control is `password` is a secret too.
   */
  secret?: boolean;
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
   * The one time limit of store calls: how long one store operation (including the wait behind
   * earlier writes of the same setting) may take before it rejects with a timed-out
   * `OptionStoreError`. Default 10 000 ms; 0 disables the limit. (The package's stores set no
   * limit of their own unless given one.)
   */
  storeTimeoutMs?: number;
  /**
   * Encrypts secret settings at rest (`createAesGcmCipher(keys)`, or a host's own KMS-backed
   * cipher). Without it secrets are still masked everywhere but stored in plain text.
   */
  secrets?: SecretCipher;
  /** How many history entries are kept per plugin and level (the oldest go first). Default 1000; 0 keeps none. */
  historyLimit?: number;
  /** How many scopes keep their values in memory (least recently used go first). Default 1000. */
  maxCachedScopes?: number;
}

const SETTING_ID = /^[A-Za-z0-9_-]+$/;
const DEFAULT_STORE_TIMEOUT_MS = 10_000;
const DEFAULT_HISTORY_LIMIT = 1000;

function countOption(name: string, value: unknown, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw registrationError(`Invalid settings option ${name}: expected an integer of at least ${minimum}`);
  }
  return value;
}

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
  readonly #schema: SettingsSchema;
  readonly #core: SettingsCore;
  readonly #global: LevelView;
  #registration: 'pending' | 'running' | 'done' = 'pending';

  /**
   * @param id - the plugin's id: the middle part of every storage key and the `{pluginId}` of its REST routes
   * @param store - where the values live
   * @param options - the storage-key prefix, store time limit, secret cipher, history and scope-cache sizes
   * @throws {@link Framework_Plugin_Exception} (400) for an invalid id or option
   */
  constructor(id: string, store: OptionStore, options: SettingsOptions = {}) {
    if (typeof id !== 'string' || id === '' || /[\s/@:\p{Cc}]/u.test(id)) {
      throw registrationError(
        `Invalid settings id ${JSON.stringify(id)}: use a non-empty id without "/", "@", ":" or white space`,
      );
    }
    const secrets = options.secrets;
    if (
      secrets !== undefined &&
      (typeof secrets?.encrypt !== 'function' || typeof secrets?.decrypt !== 'function')
    ) {
      throw registrationError(
        'Invalid settings option secrets: expected a SecretCipher (encrypt and decrypt)',
      );
    }
    this.#id = id;
    this.#schema = new SettingsSchema(options.optionPrefix ?? 'framework', id);
    this.#core = new SettingsCore(this.#schema, store, {
      storeTimeoutMs: options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
      cipher: secrets,
      historyLimit: countOption('historyLimit', options.historyLimit, DEFAULT_HISTORY_LIMIT, 0),
      maxCachedScopes: countOption('maxCachedScopes', options.maxCachedScopes, DEFAULT_MAX_CACHED_SCOPES, 1),
    });
    this.#global = new LevelView(this, this.#core, '');
    installWriteWrappers(this, Framework_Abstract_Settings.prototype);
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
    if (this.#schema.has(id)) throw registrationError(`Setting "${id}" is already registered`);
    const definition = SETTING_TYPE_DEFINITIONS.get(type);
    if (!definition) {
      throw registrationError(
        `Setting "${id}": unknown type "${type}"; use one of ${SETTING_TYPES.join(', ')}`,
      );
    }
    const isMulti = args.is_multi ?? false;
    if (typeof isMulti !== 'boolean') throw registrationError(`Setting "${id}": is_multi must be a boolean`);
    const secret = args.secret ?? false;
    if (typeof secret !== 'boolean') throw registrationError(`Setting "${id}": secret must be a boolean`);
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
      secret,
    });
    this.#schema.add(setting);
    return setting;
  }

  /**
   * Attaches a UI control to a setting. Name and description default to the setting's;
   * options default to `{}`. A `password` control makes the setting a secret.
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
    const setting = this.#schema.get(settingId);
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
    return this.#schema.remove(id);
  }

  /** The setting registered under `id`, if any. */
  getSetting(id: string): Framework_Setting | undefined {
    this.#ensureRegistered();
    return this.#schema.get(id);
  }

  /** All settings, or only those of `ids` (unknown ids are ignored), in registration order. */
  getSettings(ids?: readonly string[]): Map<string, Framework_Setting> {
    this.#ensureRegistered();
    if (ids === undefined) return new Map(this.#schema.entries());
    const wanted = new Set(ids);
    return new Map([...this.#schema.entries()].filter(([id]) => wanted.has(id)));
  }

  /** The storage key of a setting: `${optionPrefix}_${pluginId}_${settingId}`. */
  getOptionName(settingId: string): string {
    this.#ensureRegistered();
    return this.#schema.keyOf(settingId);
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
   * in-memory global values. At the first load, subscribes to the store's `watch` when it has one.
   *
   * @throws `OptionStoreError` when the store fails; memory is then unchanged.
   */
  async load(): Promise<void> {
    this.#ensureRegistered();
    await this.#core.load();
  }

  /**
   * Reads from the store only the settings whose in-memory value is not known to be current
   * (never loaded, registered after the last load, or reported changed by the store's watch),
   * in one `getMany`; at `scope` when given. Does nothing when every value is current.
   */
  async ensureLoaded(scope = ''): Promise<void> {
    this.#ensureRegistered();
    if (scope !== '') assertScopePath(scope);
    await this.#core.freshLevel(scope);
  }

  /**
   * The value of a setting, typed per its type: the stored value, else the default (or
   * `null` without one, or when `withDefault` is false). Loads first when needed.
   * Object and multi values are frozen snapshots: copy them to change them. A secret's value
   * is the plain value: it is for the plugin's own code.
   *
   * @throws {@link Framework_Plugin_Exception} (404) for an unknown id; `OptionStoreError` when the store fails.
   */
  getValue(id: string, withDefault = true): Promise<unknown> {
    try {
      this.#ensureRegistered();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#global.getValue(id, withDefault);
  }

  /**
   * The setting a write of `id` changes, the change feed followed from now on; a rejected
   * promise (never a throw: writes answer promises) for an unknown id.
   */
  #writableSetting(id: string): Framework_Setting | Promise<never> {
    try {
      const setting = this.#requireSetting(id);
      this.#core.startWatching();
      return setting;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Validates `value`, writes it to the store (in one atomic step with its history entry) and
   * then to memory. Resolves once the store has it. Writes to one setting are applied in the
   * order they were made.
   *
   * Subclasses may override it to add checks (throwing `Framework_Plugin_Exception(message, 400)`)
   * and then call `super.updateValue(id, value)`: the REST layer's and admin pages' actor,
   * If-Match, scope and batch still reach this method, carried past the override.
   *
   * @param options - the writer (`actor`), an `ifMatch` condition, the interface (`via`)
   * @throws {@link Framework_Plugin_Exception} (400) for a rejected value, (404) for an unknown
   *   id, (412) when `ifMatch` does not match (a `PreconditionFailedError`), (501) for `ifMatch`
   *   on a store without `commit`; `OptionStoreError` when the store fails. Store and memory are
   *   then unchanged.
   */
  updateValue(id: string, value: unknown, options?: WriteOptions): Promise<void> {
    // Read synchronously, before anything is awaited: see writes/write-context.ts.
    const context = currentWriteContext(this, id);
    const setting = this.#writableSetting(id);
    if (setting instanceof Promise) return setting;
    const problem = setting.describeInvalidValue(value);
    if (problem !== undefined) {
      const issues = setting.describeInvalidValueIssues(value) ?? [];
      return Promise.reject(new SettingValueError(`Invalid value for setting "${id}": ${problem}`, issues));
    }
    const scope = context?.scope ?? '';
    const change = { setting, scope, remove: false, value };
    if (context?.capture) {
      context.capture.push(change);
      return Promise.resolve();
    }
    return this.#core.writes.write([change], options ?? context?.options ?? {}).then((outcome) => {
      if (context !== undefined) context.report.outcome = outcome;
    });
  }

  /**
   * Removes the stored value; the setting then reads as its default (a scope: as inherited).
   *
   * @param options - the writer (`actor`), an `ifMatch` condition, the interface (`via`)
   * @returns true when a stored value was removed, false when none was stored
   * @throws {@link Framework_Plugin_Exception} (404) for an unknown id, (412) when `ifMatch`
   *   does not match; `OptionStoreError` when the store fails.
   */
  deleteValue(id: string, options?: WriteOptions): Promise<boolean> {
    const context = currentWriteContext(this, id);
    const setting = this.#writableSetting(id);
    if (setting instanceof Promise) return setting;
    const change = { setting, scope: context?.scope ?? '', remove: true, value: null };
    if (context?.capture) {
      context.capture.push(change);
      return Promise.resolve(true);
    }
    return this.#core.writes.write([change], options ?? context?.options ?? {}).then((outcome) => {
      if (context !== undefined) context.report.outcome = outcome;
      return outcome.changed[0] === true;
    });
  }

  /**
   * Stores several global values (or deletions) in one atomic step: no reader, in any instance,
   * sees part of it. Each change is checked like a single write, this class's `updateValue` /
   * `deleteValue` overrides included; when any is refused nothing is stored and the promise
   * rejects with a `BatchRejectedError` (code 400) listing every refused change. On a store
   * without `commit` the changes are applied one by one (put back on failure).
   */
  updateValues(changes: readonly SettingChange[], options?: WriteOptions): Promise<void> {
    return this.level().updateValues(changes, options);
  }

  /**
   * The settings of one scope (CONTRACT §10): values resolved through the scope's parents and
   * the global value, writes stored at the scope.
   *
   * @throws {@link Framework_Plugin_Exception} (400) when `path` is not a scope path
   */
  scope(path: string): ScopedSettings {
    this.#ensureRegistered();
    // A cached level was created for a valid path: its view is reused as it is.
    const cached = this.#core.levels.peek(path);
    if (cached?.view instanceof LevelView) return cached.view;
    assertScopePath(path);
    const view = new LevelView(this, this.#core, path);
    if (cached !== undefined) cached.view = view;
    else if (path !== '') this.#core.levels.level(path).view = view;
    return view;
  }

  /** The view of one level: `scope(path)`, or the global level (`path` `''`) without one. */
  level(path?: string | null): ScopedSettings {
    if (path === undefined || path === null || path === '') {
      this.#ensureRegistered();
      return this.#global;
    }
    return this.scope(path);
  }

  /**
   * The strong entity tag of a setting's stored state (nothing stored included): the same in
   * every instance on the store, new with every change of the stored text, and revealing
   * nothing about a secret.
   *
   * @throws {@link Framework_Plugin_Exception} (404) for an unknown id; `OptionStoreError` when the store fails
   */
  getETag(id: string): Promise<string> {
    try {
      this.#ensureRegistered();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#global.getETag(id);
  }

  /**
   * The history of accepted changes (CONTRACT §9), newest first: of the global level, or of
   * `scope`; only `settingId`'s, at most `limit`, older than the entry `before`.
   *
   * @throws {@link Framework_Plugin_Exception} (501) when the store keeps no history, (400) for an invalid scope
   */
  async getHistory(options: HistoryQuery = {}): Promise<HistoryEntry[]> {
    this.#ensureRegistered();
    const { scope, ...query } = options;
    return this.level(scope).getHistory(query);
  }

  /**
   * Rewrites every stored secret — global and scoped, plain ones included — under the cipher's
   * first key, one atomic write per value, and resolves to how many it rewrote. Safe on a live
   * system: readers decrypt both the old and the new text meanwhile.
   *
   * @throws {@link Framework_Plugin_Exception} (400) without a `secrets` cipher
   */
  async rotateSecrets(): Promise<number> {
    this.#ensureRegistered();
    return rotateSecrets(this.#core);
  }

  /** The ids of the secret settings whose stored global text cannot be decrypted (they read as nothing stored). */
  async getUnreadableSecrets(): Promise<string[]> {
    this.#ensureRegistered();
    const level = await this.#core.freshLevel('');
    return this.#core
      .settings()
      .filter((setting) => level.entry(setting).unreadable)
      .map((setting) => setting.getId());
  }

  /** How many scopes have their values cached in memory now (at most `maxCachedScopes`). */
  getCachedScopeCount(): number {
    return this.#core.levels.cachedScopes;
  }

  /** Whether the settings have a cipher for their secrets. */
  hasSecretCipher(): boolean {
    return this.#core.cipher !== undefined;
  }

  /**
   * What the store offers beyond plain reads and writes: `atomicWrites` (If-Match, atomic
   * batches and history need it) and `history` (reading the change log).
   */
  storeCapabilities(): { readonly atomicWrites: boolean; readonly history: boolean } {
    const store = this.#core.store;
    return {
      atomicWrites: typeof store.commit === 'function',
      history: typeof store.commit === 'function' && typeof store.readLog === 'function',
    };
  }

  /** Stops following the store's changes (the store itself stays open). */
  dispose(): void {
    this.#core.dispose();
  }

  #ensureRegistered(): void {
    if (this.#registration !== 'pending') return;
    this.#registration = 'running';
    try {
      this.registerSettings();
      this.#registration = 'done';
    } catch (error) {
      this.#schema.clear();
      this.#registration = 'pending';
      throw error;
    }
  }

  #requireSetting(id: string): Framework_Setting {
    this.#ensureRegistered();
    const setting = this.#schema.get(id);
    if (!setting)
      throw new Framework_Plugin_Exception(`Setting "${id}" is not registered in "${this.#id}"`, 404);
    return setting;
  }
}
