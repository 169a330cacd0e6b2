/**
 * What `cpf` reports for an error: the string code REST answers for the same exception (the
 * REST layer's own mapping, `toSettingRestError`, is reused), and the exit code of CONTRACT §14.
 */
import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import { OptionStoreError } from '../errors/option-store-error';
import { RestError } from '../rest/http/rest-error';
import { toSettingRestError } from '../rest/settings-routes/setting-errors';
import { PlanConflictError, PlanRefusedError } from '../settings/config/settings-plan';
import { CliError } from './cli-error';
import { EXIT, type ExitCode, STORE_FAILED_CODE } from './exit-codes';

/** An error as `cpf` prints it. */
export interface ReportedError {
  readonly code: string;
  readonly message: string;
  readonly exitCode: ExitCode;
}

/** The exit code of an HTTP status REST would answer. */
export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.schemaOutdated;
  if (status === 412) return EXIT.precondition;
  if (status === 503) return EXIT.storeFailed;
  if (status >= 400 && status < 500) return EXIT.refused;
  return EXIT.failed;
}

/** One line: the first line of `text`, trimmed. */
export function oneLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.trim() === '' ? 'failed' : line.trim();
}

/** A plan conflict's message with the keys that changed (`scope/id`). */
function conflictMessage(error: PlanConflictError): string {
  return oneLine(error.message);
}

/**
 * The code, message and exit code of anything a command threw. Exceptions of the settings layer
 * get REST's code (`rest_setting_value_invalid`, `rest_precondition_failed`,
 * `rest_schema_outdated`…); a store failure is `cli_store_failed` (exit 7); anything unexpected
 * is `rest_internal_error` (exit 8) with its message's first line, never a stack.
 */
export function reportError(error: unknown): ReportedError {
  if (error instanceof CliError)
    return { code: error.code, message: error.message, exitCode: error.exitCode };
  if (error instanceof OptionStoreError) {
    return { code: STORE_FAILED_CODE, message: oneLine(error.message), exitCode: EXIT.storeFailed };
  }
  if (error instanceof PlanConflictError) {
    return { code: 'rest_precondition_failed', message: conflictMessage(error), exitCode: EXIT.precondition };
  }
  if (error instanceof PlanRefusedError) {
    return { code: 'rest_plan_invalid', message: oneLine(error.message), exitCode: EXIT.refused };
  }
  const mapped = toSettingRestError(error, '');
  if (mapped instanceof RestError) {
    return { code: mapped.code, message: oneLine(mapped.message), exitCode: exitCodeOfStatus(mapped.status) };
  }
  if (error instanceof Framework_Plugin_Exception) {
    // A migration step or a rule that threw (500), a store without a capability (501).
    return {
      code: 'rest_internal_error',
      message: oneLine(error.message),
      exitCode: exitCodeOfStatus(error.code),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'rest_internal_error', message: oneLine(message), exitCode: EXIT.failed };
}
