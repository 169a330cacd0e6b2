import type { SettingsRule } from './settings-rule';

/** When {@link requiredWhen} requires its setting: another setting has a value, or one of some values. */
export interface RequiredCondition {
  /** The setting whose value decides. */
  readonly setting: string;
  /**
   * The values of `setting` that make the rule apply (one value or a list, compared with `===`).
   * Absent: any value — anything but `null`, `''` and `[]`.
   */
  readonly equals?: unknown;
}

/** Whether a value counts as given: not `null`/`undefined`, not the empty string, not an empty list. */
function isGiven(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}

/**
 * The common rule across settings, declared instead of written: `id` must have a value (not
 * `null`, `''` or `[]`) whenever `when.setting` has a value — or one of the values `when.equals`
 * names.
 *
 * @param id - the setting that becomes required (the problem is reported at it)
 * @param when - the setting that decides, and optionally which of its values do
 * @param message - the problem's message; default `"<id> is required when <setting> is …"`
 *
 * @example
 * ```ts
 * rules: [
 *   requiredWhen('api_key', { setting: 'mode', equals: 'live' }, 'Live mode needs an API key.'),
 *   requiredWhen('webhook_secret', { setting: 'webhook_url' }),
 * ]
 * ```
 */
export function requiredWhen(id: string, when: RequiredCondition, message?: string): SettingsRule {
  const hasEquals = Object.hasOwn(when, 'equals');
  const accepted = hasEquals ? (Array.isArray(when.equals) ? when.equals : [when.equals]) : [];
  const text =
    message ??
    (hasEquals
      ? `${id} is required when ${when.setting} is ${accepted.map((value) => JSON.stringify(value)).join(' or ')}.`
      : `${id} is required when ${when.setting} is set.`);
  return (values) => {
    const decider = values[when.setting];
    const applies = hasEquals ? accepted.some((value) => value === decider) : isGiven(decider);
    return applies && !isGiven(values[id]) ? [{ id, message: text }] : [];
  };
}
