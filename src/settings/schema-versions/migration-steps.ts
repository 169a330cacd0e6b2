import type { MigrationLevel, SettingsMigration } from './settings-migration';

/**
 * One common change of a migration step, made by the helpers below and combined by
 * {@link defineMigration}: what it does to a level, and the ids it reads that may no longer be
 * registered.
 */
export interface MigrationChange {
  /** Ids the change reads that may no longer be registered (they become the step's `reads`). */
  readonly reads?: readonly string[];
  /** Of those, the ids that held secrets (history masks them). */
  readonly secrets?: readonly string[];
  /**
   * Every id the change reads or writes, when it touches no other (the helpers below declare
   * it): a step whose changes all declare it is only handed these ids' texts (see
   * `SettingsMigration.touches`).
   */
  readonly touches?: readonly string[];
  /** Changes one level. */
  apply(level: MigrationLevel): void | Promise<void>;
}

/**
 * A migration step made of common changes, applied in order to each level.
 *
 * @example
 * ```ts
 * migrations: [
 *   defineMigration(2, 'api_key is now secret_key', renameSetting('api_key', 'secret_key', { secret: true })),
 *   defineMigration(3, 'sandbox naming, numeric retries',
 *     remapOptions('mode', { live: 'production', test: 'sandbox' }),
 *     convertSetting('retries', (text) => Number.parseInt(text, 10)),
 *   ),
 * ]
 * ```
 */
export function defineMigration(
  version: number,
  name: string,
  ...changes: MigrationChange[]
): SettingsMigration {
  const reads = [...new Set(changes.flatMap((change) => change.reads ?? []))];
  const secrets = [...new Set(changes.flatMap((change) => change.secrets ?? []))];
  const touches = changes.every((change) => change.touches !== undefined)
    ? [...new Set(changes.flatMap((change) => change.touches!))]
    : undefined;
  return {
    version,
    name,
    ...(reads.length > 0 ? { reads } : {}),
    ...(secrets.length > 0 ? { secrets } : {}),
    ...(touches === undefined ? {} : { touches }),
    async up(level) {
      for (const change of changes) await change.apply(level);
    },
  };
}

/**
 * Renames a setting: its stored text moves to `to` at every level (a secret re-encrypted for its
 * new key); where `to` already has a value, that one stays and `from` goes.
 *
 * @param options - `secret`: the old id held a secret (its old values are masked in history)
 */
export function renameSetting(from: string, to: string, options: { secret?: boolean } = {}): MigrationChange {
  return {
    reads: [from, to],
    touches: [from, to],
    ...(options.secret ? { secrets: [from] } : {}),
    apply: (level) => level.rename(from, to),
  };
}

/**
 * Maps stored values of a setting to new ones (an option renamed: `{ live: 'production' }`), by
 * their stored text. Texts the map does not name stay as they are.
 */
export function remapOptions(id: string, map: Readonly<Record<string, unknown>>): MigrationChange {
  return {
    reads: [id],
    touches: [id],
    apply(level) {
      const text = level.text(id);
      if (text !== undefined && Object.hasOwn(map, text)) level.set(id, map[text]);
    },
  };
}

/**
 * Converts a setting's stored text into a value of its new type (`"3"` → `3`), stored as
 * `updateValue` would. `convert` answering `undefined` removes the stored value (it reads as the
 * default then); throwing fails the migration at that level.
 */
export function convertSetting(id: string, convert: (text: string) => unknown): MigrationChange {
  return {
    reads: [id],
    touches: [id],
    apply(level) {
      const text = level.text(id);
      if (text === undefined) return;
      const value = convert(text);
      if (value === undefined) level.delete(id);
      else level.set(id, value);
    },
  };
}

/** Removes a setting's stored values at every level (a setting the plugin no longer has). */
export function removeSetting(id: string, options: { secret?: boolean } = {}): MigrationChange {
  return {
    reads: [id],
    touches: [id],
    ...(options.secret ? { secrets: [id] } : {}),
    apply: (level) => level.delete(id),
  };
}
