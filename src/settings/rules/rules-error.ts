import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { RuleProblem } from './settings-rule';

/**
 * A write refused by the rules across settings (CONTRACT §12): code 400, nothing stored.
 * `errors` lists every problem, each at the setting it is about. The REST layer answers 400
 * `rest_setting_rules_failed` (a batch: `rest_batch_rejected`), each problem with the code
 * `rest_setting_rule_failed`.
 */
export class SettingsRulesError extends Framework_Plugin_Exception {
  /** Every problem the rules found. */
  readonly errors: readonly RuleProblem[];
  /** The level written: a scope path, or `null` for the global level. */
  readonly scope: string | null;

  /**
   * @param errors - the problems (at least one)
   * @param scope - the level written
   */
  constructor(errors: readonly RuleProblem[], scope: string | null) {
    const first = errors[0];
    super(
      `The settings' rules refused the write${scope === null ? '' : ` at scope "${scope}"`}: ${first ? `${first.id}: ${first.message}` : 'no reason given'}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
      400,
    );
    this.name = 'SettingsRulesError';
    this.errors = errors;
    this.scope = scope;
  }
}
brandClass(SettingsRulesError, 'SettingsRulesError');

/**
 * A rule threw instead of answering (code 500): the write is refused and nothing stored. The
 * rule's own error is the `cause`; the message names the level, never a value.
 */
export class SettingsRuleFailedError extends Framework_Plugin_Exception {
  /** @param scope - the level written; @param cause - what the rule threw */
  constructor(scope: string | null, cause: unknown) {
    super(
      `A rule of the settings failed${scope === null ? ' at the global level' : ` at scope "${scope}"`}: the write was refused`,
      500,
    );
    this.name = 'SettingsRuleFailedError';
    this.cause = cause;
  }
}
brandClass(SettingsRuleFailedError, 'SettingsRuleFailedError');
