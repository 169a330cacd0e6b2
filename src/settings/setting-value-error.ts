import { brandClass } from '../errors/brand';
import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';

/**
 * One reason a setting value was refused, kept from the value's zod check: where in the value
 * (`path`: array indexes and object keys, `[]` for the value itself), zod's issue `code`
 * (`invalid_type`, `custom`…) and the message. For a secret the message is general and never
 * repeats the value.
 */
export interface SettingValueIssue {
  /** Where in the value: `[]` for the value itself, `[2]` for the third element of a multi value. */
  readonly path: readonly (string | number)[];
  /** The zod issue code, e.g. `invalid_type` or `custom`. */
  readonly code: string;
  /** What was wrong, for a human. */
  readonly message: string;
}

/**
 * The `Framework_Plugin_Exception` (code 400) of a value the setting's type or options refuse,
 * with the structured reasons in `issues`. The REST layer answers it as 400
 * `rest_setting_value_invalid` with `data.details` holding the issues.
 */
export class SettingValueError extends Framework_Plugin_Exception {
  /** Why the value was refused, one entry per problem (at least one). */
  readonly issues: readonly SettingValueIssue[];

  /**
   * @param message - what was wrong, naming the setting
   * @param issues - the structured reasons
   */
  constructor(message: string, issues: readonly SettingValueIssue[]) {
    super(message, 400);
    this.name = 'SettingValueError';
    this.issues = issues;
  }
}
brandClass(SettingValueError, 'SettingValueError');
