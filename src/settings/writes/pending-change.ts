import type { Framework_Setting } from '../setting';

/** One checked change on its way to the store: a value to store at a level, or (`remove`) the stored value to delete. */
export interface PendingChange {
  /** The setting. */
  readonly setting: Framework_Setting;
  /** The level: `''` global, else a scope path. */
  readonly scope: string;
  /** `true` deletes the stored value (`value` is then ignored). */
  readonly remove: boolean;
  /** The new value, already valid for the setting. */
  readonly value: unknown;
}
