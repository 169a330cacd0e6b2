/**
 * Schema versions and migrations (CONTRACT §11): the public shapes.
 */
import type { WriteActor } from '../history/history-entry';

/**
 * One level's stored settings as a migration step sees them: the texts in their storage forms,
 * changed in memory by `up` and written, when the step is done, in one atomic step per level.
 * Methods on an id that is neither registered nor declared in the step's `reads` throw.
 */
export interface MigrationLevel {
  /** The level: a scope path, or `null` for the global level. */
  readonly scope: string | null;
  /** The stored text of `id` at this level (a secret's decrypted), `undefined` when nothing is stored. */
  text(id: string): string | undefined;
  /**
   * The stored value of `id` decoded with today's registration; `undefined` when nothing is
   * stored, when the text does not read as today's type, or when `id` is not registered.
   */
  value(id: string): unknown;
  /** Stores `value` for `id` (a registered setting), checked and encoded as `updateValue` does (a secret encrypted). */
  set(id: string, value: unknown): void;
  /** Removes the stored value of `id`. */
  delete(id: string): void;
  /**
   * Moves the stored text of `from` to `to` (a secret is re-encrypted for its new key). Nothing
   * when `from` has nothing stored; when `to` already has a value at this level, `from` is
   * deleted and `to` kept.
   */
  rename(from: string, to: string): void;
}

/** One step of a plugin's settings schema: what brings each stored level to `version`. */
export interface SettingsMigration {
  /** The schema version this step brings a level to: 2 for the first step, then 3, … */
  readonly version: number;
  /** What the step does, for people (named in errors and reports). */
  readonly name: string;
  /**
   * The ids the step reads that are no longer registered (a renamed setting's old id): their
   * stored values belong to the plugin too, and `MigrationLevel` accepts them.
   */
  readonly reads?: readonly string[];
  /**
   * Which of `reads` held secrets (a renamed `api_key`): history then masks their values. An id
   * renamed into a secret setting counts as one anyway.
   */
  readonly secrets?: readonly string[];
  /**
   * Every id the step reads or writes, when it touches no other ({@link defineMigration} sets it
   * when every change of the step comes from the helpers). When every step of a migration
   * declares it and the settings have no `rules`, each level's `MigrationLevel` holds only these
   * ids' texts: the other values are not decoded, decrypted or compared (every level still counts
   * as one the step ran on). A step that reads an id it does not declare here sees it as not stored.
   */
  readonly touches?: readonly string[];
  /**
   * Changes one level; runs once per stored level. It must be a function of the level's texts
   * (the same texts give the same changes): a level it leaves as it was is not marked, and may be
   * visited again after a crash.
   */
  up(level: MigrationLevel): void | Promise<void>;
}

/** Options of `migrate()`. */
export interface MigrateOptions {
  /** Report what would change, store nothing. */
  readonly dryRun?: boolean;
  /** Who migrates: recorded in the history entries (`via: 'migration'`). Default `null`. */
  readonly actor?: WriteActor | null;
  /**
   * Called after the global level and after each batch of scopes (100) with how many
   * levels were looked at so far — for a progress line. A throw from it is ignored. On a store
   * whose scans are unordered (Redis) a scope holding several settings may count more than once.
   */
  readonly onProgress?: (progress: MigrationProgress) => void;
}

/** How far a running `migrate()` is (see `MigrateOptions.onProgress`). */
export interface MigrationProgress {
  /** The levels looked at so far (migrated, already at the version, or left as they were). */
  readonly levels: number;
}

/** What one step did (or, in a dry run, would do). */
export interface MigrationStepReport {
  /** The step's version. */
  readonly version: number;
  /** The step's name. */
  readonly name: string;
  /** How many levels the step ran on. */
  readonly levels: number;
  /** How many stored texts it wrote or deleted (a rename counts 2; a text left as it was, 0). */
  readonly changed: number;
}

/** What `migrate()` did: the stored version before and after, and each step this instance ran. */
export interface MigrationReport {
  /** The stored version as `migrate()` found it. */
  readonly from: number;
  /** The stored version when it returned. */
  readonly to: number;
  /** Whether it was a dry run (nothing stored). */
  readonly dry_run: boolean;
  /** The steps this instance ran (none when another instance ran them, or nothing was due). */
  readonly steps: readonly MigrationStepReport[];
}
