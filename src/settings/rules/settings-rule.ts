/**
 * Rules across settings (CONTRACT §12): checks that look at several settings at once — "live
 * mode needs an API key" — run by every write path on the values of the level written.
 */

/** One problem a rule found: the setting it is about (where a form shows it) and why. */
export interface RuleProblem {
  /** The setting the message belongs to. */
  readonly id: string;
  /** What is wrong, for a human; it must not repeat a secret's value. */
  readonly message: string;
}

/** What a rule is told besides the values. */
export interface RuleContext {
  /** The level written: a scope path, or `null` for the global level. */
  readonly scope: string | null;
}

/**
 * A rule across settings: given every registered setting's value as `getValue` would read it at
 * the level written, after the write (inherited values and defaults included; a secret's real
 * value, which a message must not repeat), the problems it finds — none: `[]`, `undefined` or
 * nothing. A rule that throws refuses the write with code 500.
 *
 * @example
 * ```ts
 * const liveNeedsKey: SettingsRule = (values) =>
 *   values.mode === 'live' && !values.api_key ? [{ id: 'api_key', message: 'Live mode needs an API key.' }] : [];
 * ```
 */
export type SettingsRule = (
  values: Readonly<Record<string, unknown>>,
  context: RuleContext,
  // biome-ignore lint/suspicious/noConfusingVoidType: the contract's signature (CONTRACT §12): a rule may return nothing.
) => readonly RuleProblem[] | undefined | void;
