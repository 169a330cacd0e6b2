import type { WriteActor, WriteVia } from '../history/history-entry';

/**
 * Options of a write (`updateValue`, `deleteValue`, `updateValues`, and their scoped forms).
 * The REST layer and the admin pages pass the authenticated user as `actor`; they reach the
 * store even through a subclass's `updateValue(id, value)` override that drops them (the
 * package carries them past it).
 */
export interface WriteOptions {
  /** Who writes: recorded in the history entry. `null` or absent: unknown. */
  actor?: WriteActor | null;
  /**
   * An `If-Match` condition: `*` (a value is stored) or one or more strong entity tags as
   * `getETag` gives them (comma-separated, quoted). When the current state does not match,
   * the write rejects with `Framework_Plugin_Exception` code 412 and stores nothing; the
   * comparison and the write are one atomic step against every writer of the store.
   */
  ifMatch?: string;
  /** Through which interface the write comes: `api` (default), `rest` or `admin`. Recorded in history. */
  via?: WriteVia;
}

/** One change of a batch (`updateValues`): a value to store, or a stored value to remove. */
export type SettingChange =
  | {
      /** The setting's id. */
      readonly id: string;
      /** The new value (checked like `updateValue`). */
      readonly value: unknown;
    }
  | {
      /** The setting's id. */
      readonly id: string;
      /** Removes the stored value: the setting reads as inherited / its default again. */
      readonly delete: true;
    };
