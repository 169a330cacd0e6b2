import type { RuleProblem } from '../settings/rules/settings-rule';

/** The problems of a write the rules refused, placed where the settings form shows them. */
export interface PlacedRuleProblems {
  /** By setting id, for the problems about a field of the page: the messages, joined. */
  readonly atFields: ReadonlyMap<string, string>;
  /** The messages of problems about no field of the page (an unknown id, or `''`), in order. */
  readonly atTop: readonly string[];
}

/**
 * Places the problems of a `SettingsRulesError` (CONTRACT §12: "the admin form shows each message
 * at its field"): a problem whose id is a field of the page goes to that field (several for one
 * field are joined into one message); any other — an id that is no field, or `''` — goes to the
 * top of the page.
 *
 * @param problems - the rules' problems, in the order they were found
 * @param fieldIds - the setting ids of the page's fields
 */
export function placeRuleProblems(
  problems: readonly RuleProblem[],
  fieldIds: ReadonlySet<string>,
): PlacedRuleProblems {
  const atFields = new Map<string, string>();
  const atTop: string[] = [];
  for (const { id, message } of problems) {
    if (id === '' || !fieldIds.has(id)) {
      atTop.push(message);
      continue;
    }
    const earlier = atFields.get(id);
    atFields.set(id, earlier === undefined ? message : `${earlier} ${message}`);
  }
  return { atFields, atTop };
}
