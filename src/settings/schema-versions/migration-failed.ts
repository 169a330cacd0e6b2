import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/**
 * A migration step failed at one level (code 500): its `up` threw, or its result breaks a value
 * rule (CONTRACT §3) or a rule across settings (§12). That level stays as it was and the stored
 * version stays below the step; the message names the step and the level — never a value.
 */
export class MigrationFailedError extends Framework_Plugin_Exception {
  /** The version of the step. */
  readonly version: number;
  /** The name of the step. */
  readonly step: string;
  /** The level: a scope path, or `null` for the global level. */
  readonly scope: string | null;

  /**
   * @param version - the step's version
   * @param step - the step's name
   * @param scope - `''` for the global level, else the scope path
   * @param reason - what went wrong, without values
   * @param cause - what the step threw, if it threw
   */
  constructor(version: number, step: string, scope: string, reason: string, cause?: unknown) {
    super(
      `Migration ${version} "${step}" failed at ${scope === '' ? 'global' : `scope "${scope}"`}: ${reason}`,
      500,
    );
    this.name = 'MigrationFailedError';
    this.version = version;
    this.step = step;
    this.scope = scope === '' ? null : scope;
    if (cause !== undefined) this.cause = cause;
  }
}
brandClass(MigrationFailedError, 'MigrationFailedError');
