/**
 * The exit codes of `cpf` (CONTRACT §14). Loaded by the bin at start: no import of the library.
 */
export const EXIT = {
  /** Success; `plan` with no change; declining at the prompt. */
  ok: 0,
  /** `plan` found changes. */
  changes: 1,
  /** Usage error: unknown command, option or plugin, a secret given as an argument, no or a broken config, `apply` off a terminal without `--yes`. */
  usage: 2,
  /** A value or a plan refused (400), an invalid `--scope`, `plan` of a document with errors. */
  refused: 3,
  /** A precondition failed (412): `--if-match`, `--plan-id`, a key changed before the apply. */
  precondition: 4,
  /** A setting, scope or history entry not found (404). */
  notFound: 5,
  /** The stored settings are at another schema version (409). */
  schemaOutdated: 6,
  /** The store failed. */
  storeFailed: 7,
  /** Anything else failed (a migration step, a rule that threw, a store without a capability: 500, 501). */
  failed: 8,
} as const;

/** One of the exit codes of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The error code of a usage error in JSON output. */
export const USAGE_CODE = 'cli_usage';
/** The error code of a store failure in JSON output. */
export const STORE_FAILED_CODE = 'cli_store_failed';
