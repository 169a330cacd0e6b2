import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/** The codes of a plan's errors (CONTRACT §13). */
export type PlanErrorCode =
  | 'setting_not_found'
  | 'value_invalid'
  | 'rule_failed'
  | 'scope_invalid'
  | 'scope_not_found'
  | 'secret_mismatch'
  | 'secret_in_clear'
  | 'env_missing'
  | 'secret_not_restorable'
  | 'history_too_short';

/** One change a plan makes. */
export interface PlanChange {
  /** The level: a scope path, or `null` for the global level. */
  scope: string | null;
  /** The setting. */
  id: string;
  /** `set` stores `new`; `delete` removes the stored value (the level inherits again). */
  action: 'set' | 'delete';
  /** The value stored when the plan was made (`null`: nothing); a secret's is `"********"`. */
  old: unknown;
  /** The value the plan stores (`null` for a delete); a secret's is `"********"`. */
  new: unknown;
}

/** One problem that keeps a plan from being applied. */
export interface PlanError {
  /** The level (as the document wrote it for `scope_invalid`), or `null` for the global level. */
  scope: string | null;
  /** The setting (`''` when the problem is the level's). */
  id: string;
  /** What kind of problem. */
  code: PlanErrorCode;
  /** What is wrong, for a human; it never repeats a secret's value. */
  message: string;
}

/**
 * A plan (CONTRACT §13): the changes that bring the stored settings to a document (or to a past
 * state), the errors that keep it from being applied, and — per change — the state of the key
 * it was made against. `applyPlan` writes it in one atomic step, conditional on those keys only.
 * A plan survives a JSON round trip; any edit of it is refused.
 */
export interface SettingsPlan {
  /** The settings container's id. */
  plugin: string;
  /** A digest of the changes and of every precondition (what `--plan-id` and REST `plan_id` name). */
  id: string;
  /** The changes, level by level; secrets masked. */
  changes: PlanChange[];
  /** Every problem found; a plan with errors cannot be applied. */
  errors: PlanError[];
  /** Per change, in order: a keyed digest of the stored text the plan was made against (`null`: nothing stored). */
  preconditions: (string | null)[];
  /** Per change index: a secret's new value, sealed (never in clear). */
  sealed: Record<string, string>;
}

/** A change a plan could not make because its key changed since the plan was made. */
export interface PlanConflict {
  /** The level: a scope path, or `null` for the global level. */
  readonly scope: string | null;
  /** The setting. */
  readonly id: string;
}

/**
 * A plan whose keys changed since it was made (code 412): nothing was stored (on a store that
 * commits one scope at a time, the scopes before the first conflict were). `conflicts` lists
 * exactly the changed keys.
 */
export class PlanConflictError extends Framework_Plugin_Exception {
  /** The keys that changed. */
  readonly conflicts: readonly PlanConflict[];
  /** On a store that commits one scope at a time: the levels applied before the conflict (`null`: global). */
  readonly applied: readonly (string | null)[];

  /**
   * @param conflicts - the keys that changed
   * @param applied - the levels applied before the conflict, where levels are committed one by one
   */
  constructor(conflicts: readonly PlanConflict[], applied: readonly (string | null)[] = []) {
    const named = conflicts
      .slice(0, 5)
      .map((conflict) => (conflict.scope === null ? conflict.id : `${conflict.scope}/${conflict.id}`))
      .join(', ');
    super(
      `The plan is out of date: ${conflicts.length} planned key${conflicts.length === 1 ? '' : 's'} changed since it was made (${named}${conflicts.length > 5 ? ', …' : ''}); ${applied.length > 0 ? `the levels ${applied.map((level) => level ?? 'global').join(', ')} were applied before` : 'nothing was stored'}`,
      412,
    );
    this.name = 'PlanConflictError';
    this.conflicts = conflicts;
    this.applied = applied;
  }
}
brandClass(PlanConflictError, 'PlanConflictError');

/** A plan `applyPlan` will not apply (code 400): it has errors, or it was edited or not made by this package. */
export class PlanRefusedError extends Framework_Plugin_Exception {
  /** The plan's errors, when that is why. */
  readonly errors: readonly PlanError[];

  /** @param message - why; @param errors - the plan's errors */
  constructor(message: string, errors: readonly PlanError[] = []) {
    super(message, 400);
    this.name = 'PlanRefusedError';
    this.errors = errors;
  }
}
brandClass(PlanRefusedError, 'PlanRefusedError');
