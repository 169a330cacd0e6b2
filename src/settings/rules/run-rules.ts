import { SettingsRuleFailedError } from './rules-error';
import type { RuleProblem, SettingsRule } from './settings-rule';

/**
 * Runs every rule once on `values` (the level's values after the write) and gathers their
 * problems, in rule order. Problems whose `id` or `message` is not text are reported as such.
 *
 * @throws {@link SettingsRuleFailedError} (500) when a rule throws or answers something that is not a list
 */
export function runRules(
  rules: readonly SettingsRule[],
  values: Readonly<Record<string, unknown>>,
  scope: string | null,
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const context = Object.freeze({ scope });
  for (const rule of rules) {
    let answer: unknown;
    try {
      answer = rule(values, context);
    } catch (error) {
      throw new SettingsRuleFailedError(scope, error);
    }
    if (answer === undefined || answer === null) continue;
    if (!Array.isArray(answer)) {
      throw new SettingsRuleFailedError(scope, new TypeError('a rule must answer a list of problems'));
    }
    for (const problem of answer as unknown[]) {
      const { id, message } = (problem ?? {}) as { id?: unknown; message?: unknown };
      if (typeof id !== 'string' || typeof message !== 'string') {
        throw new SettingsRuleFailedError(
          scope,
          new TypeError('a rule problem needs a string id and message'),
        );
      }
      problems.push({ id, message });
    }
  }
  return problems;
}
