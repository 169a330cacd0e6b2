import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import { optionText } from '../settings/value-codec';
import type { FieldOutcome } from './form-value-codec';

/** How saving a settings form went. */
export type SaveResult =
  /** Every change is stored; `changed` lists the setting ids written. */
  | {
      /** Saved: every change is stored. */
      readonly ok: true;
      /** The ids of the settings written or cleared, in the order they were written; empty when nothing changed. */
      readonly changed: readonly string[];
    }
  /**
   * Writing `settingId` failed with `error` (a store error, or a subclass's `updateValue`
   * check). `restored`: the settings already written were put back to their previous values,
   * so nothing changed; false when putting them back failed too.
   */
  | {
      /** Not saved: a write failed. */
      readonly ok: false;
      /** The id of the setting whose write failed. */
      readonly settingId: string;
      /** What the write threw (e.g. an `OptionStoreError`, or a `Framework_Plugin_Exception` of a subclass's check). */
      readonly error: unknown;
      /** `true` when the writes already made were undone (nothing changed); `false` when undoing failed too. */
      readonly restored: boolean;
    };

function sameValue(a: unknown, b: unknown): boolean {
  return a !== null && b !== null && optionText(a) === optionText(b);
}

/**
 * Stores the `set` and `clear` outcomes of a validated form, one setting after the other,
 * skipping those that would not change the stored value. When a write fails, the writes
 * already made are undone (in reverse order) so that the form is saved whole or not at all.
 */
export async function saveSubmission(
  settings: Framework_Abstract_Settings,
  outcomes: ReadonlyMap<string, FieldOutcome>,
): Promise<SaveResult> {
  await settings.load();
  const applied: { id: string; previous: unknown }[] = [];
  for (const [id, outcome] of outcomes) {
    if (outcome.action !== 'set' && outcome.action !== 'clear') continue;
    const previous = settings.getSetting(id)?.getValue() ?? null;
    const next = outcome.action === 'set' ? outcome.value : null;
    if (next === null ? previous === null : sameValue(next, previous)) continue;
    try {
      if (next === null) await settings.deleteValue(id);
      else await settings.updateValue(id, next);
      applied.push({ id, previous });
    } catch (error) {
      return { ok: false, settingId: id, error, restored: await restore(settings, applied) };
    }
  }
  return { ok: true, changed: applied.map(({ id }) => id) };
}

/** Puts the written settings back to their previous values; false when any of that failed. */
async function restore(
  settings: Framework_Abstract_Settings,
  applied: readonly { id: string; previous: unknown }[],
): Promise<boolean> {
  let restored = true;
  for (const { id, previous } of [...applied].reverse()) {
    try {
      if (previous === null) await settings.deleteValue(id);
      else await settings.updateValue(id, previous);
    } catch {
      restored = false;
    }
  }
  return restored;
}
