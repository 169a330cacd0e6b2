import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { OptionStore } from '../storage/option-store';
import type { ExportOptions } from './config/export-settings';
import type { ImportOptions } from './config/plan-import';
import type { RestoreOptions } from './config/plan-restore';
import type { SettingsDocument } from './config/settings-document';
import type { SettingsPlan } from './config/settings-plan';
import { Framework_Control } from './control';
import { CONTROL_TYPES, type ControlType, isControlType } from './control-types';
import type { HistoryEntry } from './history/history-entry';
import { DEFAULT_HISTORY_MAX_BYTES } from './history/history-log';
import type { HistoryQuery } from './history/history-query';
import { deepFreeze } from './json-value';
import type { SettingsRule } from './rules/settings-rule';
import { SettingsSchema } from './schema/settings-schema';
import { SchemaOutdatedError } from './schema-versions/schema-outdated';
import type {
  MigrateOptions,
  MigrationReport,
  SettingsMigration,
} from './schema-versions/settings-migration';
import { assertScopePath } from './scope/scope-path';
import { LevelView, type ScopedSettings } from './scope/scoped-settings';
import type { SecretAudit } from './secrets/secret-audit';
import type { SecretCipher } from './secrets/secret-cipher';
import { Framework_Setting } from './setting';
import { SETTING_TYPE_DEFINITIONS, SETTING_TYPES, type SettingType } from './setting-types';
import { SettingValueError } from './setting-value-error';
import { SettingsCore } from './settings-core';
import { compileValueCodec, optionText } from './value-codec';
import { DEFAULT_MAX_CACHED_SCOPES } from './values/value-levels';
import { installWriteWrappers } from './writes/override-wrappers';
import {
  markPassThrough,
  resolveWriteReceiver,
  type WriteContext,
  writeReceiverTarget,
} from './writes/write-context';
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
  /**
   * Which scopes exist (a store's channels, a marketplace's sellers…). When given, every
   * operation on a scope it refuses rejects with code 404 (a `ScopeNotFoundError`; REST 404
   * `rest_scope_not_found`), so that a typo (`EU` for `eu`) never creates an orphan override.
   * Asked for the path itself only (not its parents), never for the global level, possibly more
   * than once per request: make it cheap or cache its answers. Without it every valid path exists.
   */
  scopeExists?: (path: string) => boolean | Promise<boolean>;
  /**
   * The most bytes of history each level's log keeps (the UTF-8 length of the entries' stored
   * form; the oldest go first, the newest always stays). An integer of at least 1. Default 1 MiB.
   */
  historyMaxBytes?: number;
  /**
   * The version of this code's settings schema (CONTRACT §11): an integer of at least 1, default
   * 1. Raise it with each change of the settings' shape, and add the step that brings stored
   * values there to `migrations`.
   */
  schemaVersion?: number;
  /** The steps from each schema version to the next: `version`s exactly 2, 3, …, `schemaVersion`, in order. */
  migrations?: readonly SettingsMigration[];
  /**
   * Whether the first load (or read, or write) of a container whose stored settings are at an
   * older schema version runs `migrate()` first; concurrent instances wait for the one that runs
   * it. Default true.
   */
  migrateOnLoad?: boolean;
  /**
   * Rules across settings (CONTRACT §12), run by every write path on the values of the level
   * written: any problem refuses the whole write. See also `requiredWhen`.
   */
  rules?: readonly SettingsRule[];
}

/** Checks `migrations` against `schemaVersion`: versions exactly 2…schemaVersion, in order, each with a name and `up`. */
function checkedMigrations(schemaVersion: number, migrations: unknown): readonly SettingsMigration[] {
  if (migrations === undefined) migrations = [];
  if (!Array.isArray(migrations))
    throw registrationError('Invalid settings option migrations: expected a list');
  if (migrations.length !== schemaVersion - 1) {
    throw registrationError(
      `Invalid settings option migrations: schemaVersion ${schemaVersion} needs the steps 2…${schemaVersion} (${schemaVersion - 1} of them), got ${migrations.length}`,
    );
  }
  migrations.forEach((step: Partial<SettingsMigration> | null, index) => {
    const expected = index + 2;
    if (typeof step !== 'object' || step === null || step.version !== expected) {
      throw registrationError(
        `Invalid settings option migrations: step ${index + 1} must have version ${expected}`,
      );
    }
    if (typeof step.name !== 'string' || typeof step.up !== 'function') {
      throw registrationError(`Invalid migration ${expected}: it needs a name and an up(level) function`);
    }
    for (const list of [step.reads, step.secrets]) {
      if (list !== undefined && (!Array.isArray(list) || list.some((id) => typeof id !== 'string'))) {
        throw registrationError(
          `Invalid migration ${expected}: reads and secrets must be lists of setting ids`,
        );
      }
    }
  });
  return Object.freeze([...(migrations as SettingsMigration[])]);
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

/**
 * The options a base write runs with: its own, else its context's — without the context's
 * If-Match when the context was opened for another setting (an override writing a second one).
 */
function contextOptions(
  id: string,
  options: WriteOptions | undefined,
  context: WriteContext | undefined,
): WriteOptions {
  if (options !== undefined) return options;
  if (context === undefined) return {};
  if (context.id === id || context.options.ifMatch === undefined) return context.options;
  const { ifMatch: _other, ...rest } = context.options;
  return rest;
}

function functionOption<F extends (...args: never[]) => unknown>(
  name: string,
  value: F | undefined,
): F | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw registrationError(`Invalid settings option ${name}: expected a function`);
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
    const schemaVersion = countOption('schemaVersion', options.schemaVersion, 1, 1);
    const migrations = checkedMigrations(schemaVersion, options.migrations);
    const migrateOnLoad = options.migrateOnLoad ?? true;
    if (typeof migrateOnLoad !== 'boolean')
      throw registrationError('Invalid settings option migrateOnLoad: expected a boolean');
    const rules = options.rules ?? [];
    if (!Array.isArray(rules) || rules.some((rule) => typeof rule !== 'function')) {
      throw registrationError('Invalid settings option rules: expected a list of functions');
    }
    this.#id = id;
    this.#schema = new SettingsSchema(options.optionPrefix ?? 'framework', id);
    this.#core = new SettingsCore(this.#schema, store, {
      storeTimeoutMs: options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
      cipher: secrets,
      history: {
        limit: countOption('historyLimit', options.historyLimit, DEFAULT_HISTORY_LIMIT, 0),
        maxBytes: countOption('historyMaxBytes', options.historyMaxBytes, DEFAULT_HISTORY_MAX_BYTES, 1),
      },
      maxCachedScopes: countOption('maxCachedScopes', options.maxCachedScopes, DEFAULT_MAX_CACHED_SCOPES, 1),
      scopeExists: functionOption('scopeExists', options.scopeExists),
      versions: { code: schemaVersion, migrations, migrateOnLoad },
      rules,
      pluginId: id,
    });
    this.#core.versions.migrate = () => this.#core.migrate({});
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
    // `super.getValue` inside an updateValue override may run on a write's own receiver.
    const self = writeReceiverTarget(this);
    try {
      self.#ensureRegistered();
    } catch (error) {
      return Promise.reject(error);
    }
    return self.#global.getValue(id, withDefault);
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
    // `this` may be a write's own receiver (writes/write-context.ts): it names the write's context.
    const { self, context } = resolveWriteReceiver(this);
    return self.#update(id, value, options, context);
  }

  #update(id: string, value: unknown, options: WriteOptions | undefined, context: WriteContext | undefined) {
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
    return this.#core.writes.write([change], contextOptions(id, options, context)).then((outcome) => {
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
    const { self, context } = resolveWriteReceiver(this);
    return self.#delete(id, options, context);
  }

  #delete(
    id: string,
    options: WriteOptions | undefined,
    context: WriteContext | undefined,
  ): Promise<boolean> {
    const setting = this.#writableSetting(id);
    if (setting instanceof Promise) return setting;
    const change = { setting, scope: context?.scope ?? '', remove: true, value: null };
    if (context?.capture) {
      context.capture.push(change);
      return Promise.resolve(true);
    }
    return this.#core.writes.write([change], contextOptions(id, options, context)).then((outcome) => {
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
    return writeReceiverTarget(this).level().updateValues(changes, options);
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
   * The stored schema version (CONTRACT §11): the recorded one (while a migration runs, the one it
   * started from); with none recorded, 1 when the plugin has any stored value and `schemaVersion`
   * when it has none (a fresh install runs no step).
   */
  async getSchemaVersion(): Promise<number> {
    this.#ensureRegistered();
    return this.#core.versions.storedVersion(this.#core.followsEveryChange);
  }

  /** This code's schema version (the `schemaVersion` option). */
  getCodeSchemaVersion(): number {
    return this.#core.versions.code;
  }

  /**
   * Brings every stored level — the global level and every scope holding a value of the plugin —
   * to `schemaVersion` through the `migrations` (CONTRACT §11): each step changes each level
   * once, however many instances and processes run it; each level's changes and its marker are
   * one atomic write; a process killed mid-way leaves each level wholly before or after, and the
   * next `migrate()` finishes the rest. `dryRun` reports the same counts and stores nothing.
   *
   * @throws {@link Framework_Plugin_Exception} (500) naming the step and the level when a step
   *   throws or its result breaks a value rule or a rule across settings (that level stays as it
   *   was, the stored version below the step); `SchemaOutdatedError` (409) on an instance older
   *   than the stored version; `UnsupportedByStoreError` (501) on a store without `commit` and
   *   `scan`/`listKeys`
   */
  async migrate(options: MigrateOptions = {}): Promise<MigrationReport> {
    this.#ensureRegistered();
    this.#core.startWatching();
    return this.#core.migrate(options);
  }

  /**
   * Every stored value (no defaults) of the global level and every scope — or only the levels
   * `scopes` names (`''` for the global level) — as a settings document (CONTRACT §13), typed as
   * `getValue` reads them, in a fixed order (the same state gives the same bytes); a secret only as
   * `{ "$secret": fingerprint }`.
   *
   * @throws `SchemaOutdatedError` (409) on an instance at another schema version than the stored one
   */
  async exportSettings(options: ExportOptions = {}): Promise<SettingsDocument> {
    this.#ensureRegistered();
    // Configuration-as-code and secret rotation load on first use (import()): not at start.
    return (await import('./config/export-settings')).exportSettings(this.#core, options);
  }

  /**
   * {@link exportSettings} as JSON text, a batch of levels at a time: the same bytes as
   * `JSON.stringify(await exportSettings(options))`, with memory bounded however many scopes the
   * store holds (REST and the CLI send exports this way).
   */
  exportSettingsText(options: ExportOptions = {}): AsyncIterable<string> {
    this.#ensureRegistered();
    return exportedText(this.#core, options);
  }

  /**
   * The plan that brings the stored settings to `document` (CONTRACT §13): changes, errors (never
   * thrown: every value is checked as a write would check it, rules included), and per change the
   * state of the key it was made against. Apply it with {@link applyPlan}.
   *
   * @throws {@link Framework_Plugin_Exception} (400) for a document that is not one for this plugin, or is newer
   */
  async planImport(document: unknown, options: ImportOptions = {}): Promise<SettingsPlan> {
    this.#ensureRegistered();
    return (await import('./config/plan-import')).planImport(this, this.#core, document, options);
  }

  /**
   * The plan that brings the named values — every setting at every level, or one `scope` (`null`:
   * the global level), or only `settingIds` — back to what they were at `to` (an ISO 8601 time, or
   * a history entry id: the state right after it), rebuilt from the history, migrated to today's
   * schema and checked like an import (CONTRACT §13). Secrets come back too when a cipher is set
   * (history keeps them sealed); else each changed secret is an error `secret_not_restorable`.
   * Values whose kept history does not reach back to `to` are errors `history_too_short`.
   *
   * @throws {@link Framework_Plugin_Exception} (404) for a `to` that is neither a time nor a known
   *   entry id; (400) for an invalid scope; `UnsupportedByStoreError` (501) without history
   */
  async planRestore(options: RestoreOptions): Promise<SettingsPlan> {
    this.#ensureRegistered();
    return (await import('./config/plan-restore')).planRestore(this, this.#core, options);
  }

  /**
   * Applies a plan in one atomic step, conditional on each planned key holding what it held when
   * the plan was made (CONTRACT §13). History: one entry per change, `via: 'import'`.
   *
   * @throws `PlanRefusedError` (400) for a plan with errors, or one edited or not made by this
   *   package; `PlanConflictError` (412) listing the keys that changed since; `SettingsRulesError`
   *   (400) when the rules refuse the result now; `UnsupportedByStoreError` (501) on a store
   *   without `commit`
   */
  async applyPlan(plan: SettingsPlan, options: WriteOptions = {}): Promise<{ applied: number }> {
    this.#ensureRegistered();
    return (await import('./config/apply-plan')).applyPlan(this.#core, plan, options);
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
    const status = await this.#core.versions.status();
    if (status.kind === 'outdated')
      throw new SchemaOutdatedError(this.#id, status.stored, this.#core.versions.code);
    return (await import('./secrets/secret-rotation')).rotateSecrets(this.#core);
  }

  /**
   * The secrets whose stored text cannot be decrypted: `id` for a global value (it reads as
   * nothing stored), `id@scope` for a scope's (that scope, and the scopes below it that inherit
   * from it, read `null`: never the parent's secret). Visits every scope's stored secrets.
   */
  async getUnreadableSecrets(): Promise<string[]> {
    this.#ensureRegistered();
    return (await secretAudit(this.#core)).unreadable;
  }

  /**
   * With a cipher: the secrets stored in plain text (planted in the store, or stored before the
   * cipher was configured), as `id` or `id@scope`. They still read; `rotateSecrets()` encrypts
   * them. Without a cipher: `[]`.
   */
  async getPlaintextSecrets(): Promise<string[]> {
    this.#ensureRegistered();
    if (this.#core.cipher === undefined) return [];
    return (await secretAudit(this.#core)).plaintext;
  }

  /**
   * {@link getUnreadableSecrets} and {@link getPlaintextSecrets} from one visit of the stored
   * secrets (what the status report shows).
   */
  async getSecretAudit(): Promise<SecretAudit> {
    this.#ensureRegistered();
    const audit = await secretAudit(this.#core);
    return this.#core.cipher === undefined ? { ...audit, plaintext: [] } : audit;
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
   * batches, history and applying a plan need it), `history` (reading the change log) and
   * `listing` (finding the stored scopes: exports, pruning imports and restores of every level).
   */
  storeCapabilities(): {
    readonly atomicWrites: boolean;
    readonly history: boolean;
    readonly listing: boolean;
  } {
    const store = this.#core.store;
    return {
      atomicWrites: typeof store.commit === 'function',
      history: typeof store.commit === 'function' && typeof store.readLog === 'function',
      listing: typeof store.scan === 'function' || typeof store.listKeys === 'function',
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
// The base methods take a write's context from the caller at once (writes/write-context.ts).
markPassThrough(Framework_Abstract_Settings.prototype.updateValue);
markPassThrough(Framework_Abstract_Settings.prototype.deleteValue);

/** `exportSettingsText` of the export module, loaded on the first `next()`. */
async function* exportedText(core: SettingsCore, options: ExportOptions): AsyncGenerator<string> {
  yield* (await import('./config/export-settings')).exportSettingsText(core, options);
}

/** The secret audit's module, once loaded. */
let secretAuditModule: Promise<typeof import('./secrets/secret-audit')> | undefined;

/** The audit of the stored secrets, its module loaded on first use. */
async function secretAudit(core: SettingsCore): Promise<SecretAudit> {
  // Kept: the status report audits on every request, and each import() goes through the loader.
  secretAuditModule ??= import('./secrets/secret-audit');
  return (await secretAuditModule).auditSecrets(core);
}
