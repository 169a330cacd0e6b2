import { EXIT, type ExitCode, USAGE_CODE } from './exit-codes';

/**
 * An error the command line reports as it is: one line on standard error (`{ "error": { code,
 * message } }` in JSON mode) and its exit code. Loaded by the bin at start: no import of the library.
 */
export class CliError extends Error {
  /** The string code of the JSON error: the REST catalogue's, or `cli_usage`, `cli_store_failed`. */
  readonly code: string;
  /** The exit code. */
  readonly exitCode: ExitCode;

  /**
   * @param code - the string code
   * @param message - one line for a person (never a secret)
   * @param exitCode - the exit code
   */
  constructor(code: string, message: string, exitCode: ExitCode) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** A usage error (exit 2, `cli_usage`). */
export function usageError(message: string): CliError {
  return new CliError(USAGE_CODE, message, EXIT.usage);
}
