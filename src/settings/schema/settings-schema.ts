import type { Framework_Setting } from '../setting';

/** A storage key read back as the setting and level it belongs to. */
export interface ParsedKey {
  /** The registered setting the key stores. */
  readonly setting: Framework_Setting;
  /** The level: `''` for the global value, else the scope path. */
  readonly scope: string;
}

/**
 * The registered settings of one container and how their values are named in the store
 * (CONTRACT §4, §10): `${optionPrefix}_${pluginId}_${settingId}` for the global value,
 * `…@${scope}` for a scope's. Built once by `registerSettings` and shared by every value level:
 * nothing here depends on a scope.
 */
export class SettingsSchema {
  /** `${optionPrefix}_${pluginId}`: the start of every key and the name of the global change log. */
  readonly base: string;
  readonly #keyPrefix: string;
  readonly #settings = new Map<string, Framework_Setting>();

  /**
   * @param optionPrefix - the first part of every key
   * @param pluginId - the container's id, the middle part
   */
  constructor(optionPrefix: string, pluginId: string) {
    this.base = `${optionPrefix}_${pluginId}`;
    this.#keyPrefix = `${this.base}_`;
  }

  /** Whether a setting is registered under `id`. */
  has(id: string): boolean {
    return this.#settings.has(id);
  }

  /** The setting registered under `id`. */
  get(id: string): Framework_Setting | undefined {
    return this.#settings.get(id);
  }

  /** Adds a registered setting (its id must be new). */
  add(setting: Framework_Setting): void {
    this.#settings.set(setting.getId(), setting);
  }

  /** Removes a setting; true when one was removed. */
  remove(id: string): boolean {
    return this.#settings.delete(id);
  }

  /** Forgets every setting (a failed registration). */
  clear(): void {
    this.#settings.clear();
  }

  /** The settings in registration order. */
  settings(): IterableIterator<Framework_Setting> {
    return this.#settings.values();
  }

  /** The settings by id, in registration order. */
  entries(): IterableIterator<[string, Framework_Setting]> {
    return this.#settings.entries();
  }

  /** How many settings are registered. */
  get size(): number {
    return this.#settings.size;
  }

  /** The storage key of setting `id` at `scope` (`''`: the global value). */
  keyOf(id: string, scope = ''): string {
    return scope === '' ? this.#keyPrefix + id : `${this.#keyPrefix}${id}@${scope}`;
  }

  /** The name of the change log of `scope` (`''`: the global level). */
  logName(scope: string): string {
    return scope === '' ? this.base : `${this.base}@${scope}`;
  }

  /** The key of the random salt the entity tags are keyed with (read with the global values). */
  get tagSaltKey(): string {
    return `${this.base}:tag-salt`;
  }

  /** The key of the plugin's schema record (`"3"`, or `"2>3"` while a migration runs; docs/architecture.md). */
  get schemaRecordKey(): string {
    return `${this.base}:schema`;
  }

  /** The key of a scope's migration marker: the schema version its stored values are at. */
  levelMarkerKey(scope: string): string {
    return `${this.base}:schema@${scope}`;
  }

  /** The key of the migration lease (which instance runs a migration now; only saves work). */
  get migrationLeaseKey(): string {
    return `${this.base}:migration-lease`;
  }

  /** The change log of completed migrations (from, to, when, who): what a restore reads the past schema from. */
  get schemaLogName(): string {
    return `${this.base}:schema-log`;
  }

  /** The prefix of every stored key of setting `id` at a scope (`…_${id}@`). */
  scopedKeyPrefix(id: string): string {
    return `${this.#keyPrefix}${id}@`;
  }

  /** The registered setting and level a storage key names, or `null` for any other key. */
  parseKey(key: string): ParsedKey | null {
    if (!key.startsWith(this.#keyPrefix)) return null;
    const at = key.indexOf('@', this.#keyPrefix.length);
    const id = key.slice(this.#keyPrefix.length, at === -1 ? undefined : at);
    const setting = this.#settings.get(id);
    if (setting === undefined) return null;
    return { setting, scope: at === -1 ? '' : key.slice(at + 1) };
  }
}
