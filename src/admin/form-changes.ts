import { isMaskedEcho } from '../settings/secrets/mask';
import type { Framework_Setting } from '../settings/setting';
import { optionText } from '../settings/value-codec';
import type { SettingChange } from '../settings/writes/write-options';
import type { FieldOutcome } from './form-value-codec';

/** A field's value at the level the form edits, as read before the save. */
export interface LevelValue {
  /** The value the field shows: resolved through the parents, default applied; a secret's masked. */
  readonly shown: unknown;
  /** The value stored at this level itself, `null` when none (a secret's plain value: never shown). */
  readonly own: unknown;
  /** Where `shown` comes from: a scope path, `''` for the global value, `null` for the default. */
  readonly origin: string | null;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a !== null && b !== null && optionText(a) === optionText(b);
}

/**
 * The changes a submitted settings form asks for, as one batch: `set` stores, `clear` removes
 * the stored value, a field whose "Use parent value" box is ticked (`inherit`) removes the
 * scope's own value. A field that would leave its own stored value as it is — or a secret
 * submitted as the mask — is left out, so that a save of an unchanged form writes nothing and
 * never overwrites what another admin changed meanwhile in fields this one did not touch.
 */
export function formChanges(
  settings: ReadonlyMap<string, Framework_Setting>,
  outcomes: ReadonlyMap<string, FieldOutcome>,
  current: ReadonlyMap<string, LevelValue>,
  inherit: ReadonlySet<string>,
): SettingChange[] {
  const changes: SettingChange[] = [];
  for (const [id, outcome] of outcomes) {
    const own = current.get(id)?.own ?? null;
    if (inherit.has(id)) {
      if (own !== null) changes.push({ id, delete: true });
      continue;
    }
    if (outcome.action === 'clear') {
      if (own !== null) changes.push({ id, delete: true });
    } else if (outcome.action === 'set') {
      const secret = settings.get(id)?.isSecret() ?? false;
      // A secret typed in is always written (a fresh ciphertext and history, like REST): whether
      // it equals the stored one must not show in what the save does.
      if (isMaskedEcho(secret, outcome.value) || (!secret && sameValue(outcome.value, own))) continue;
      changes.push({ id, value: outcome.value });
    }
  }
  return changes;
}
