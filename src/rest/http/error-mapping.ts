import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { OptionStoreError } from '../../errors/option-store-error';
import { restError } from '../errors/rest-error-factory';
import { RestError } from './rest-error';

/** The answer to anything thrown that is not a known error: no message, stack or internals. */
export function internalError(): RestError {
  return restError(
    'rest_internal_error',
    'The server could not complete the request because of an internal error.',
  );
}

/** The answer to a failed or timed-out store. */
export function storeUnavailableError(): RestError {
  return restError('rest_store_unavailable', 'The settings store is unavailable right now; try again later.');
}

/**
 * What `onError` receives when a `Framework_Plugin_Exception` reaches the REST pipeline from
 * outside the settings routes (which map their own): the settings layer raised it, but nothing
 * said it was meant for the client — an item handler reading `settings.getValue('typo')`, a
 * broken registration. It is answered 500 `rest_internal_error`; the original is the `cause`.
 */
export class UnmappedPluginException extends Error {
  /**
   * @param cause - the exception that reached the pipeline
   */
  constructor(cause: Framework_Plugin_Exception) {
    super(
      `A Framework_Plugin_Exception (code ${cause.code}) reached the REST pipeline outside the settings routes and was answered 500 rest_internal_error: ${cause.message}. ` +
        'If it is meant for the client, catch it in the handler and throw a RestError.',
      { cause },
    );
    this.name = 'UnmappedPluginException';
  }
}

/**
 * The REST error for anything thrown while answering a request:
 * - a {@link RestError} as it is;
 * - an `OptionStoreError` → 503 `rest_store_unavailable`, without its details;
 * - anything else → 500 `rest_internal_error` with a generic message. That includes a
 *   `Framework_Plugin_Exception`: the settings routes map the settings layer's exceptions
 *   themselves (unknown setting, rejected value); one that gets here was not meant for the
 *   client (a configuration error, a mistyped setting id in a handler).
 *
 * `internal` is true when the error should be passed to the host's `onError`, as `reported`:
 * the error itself, or, for a `Framework_Plugin_Exception`, an {@link UnmappedPluginException}
 * saying where it came from.
 */
export function toRestError(error: unknown): { error: RestError; internal: boolean; reported: unknown } {
  if (error instanceof RestError) return { error, internal: false, reported: error };
  if (error instanceof OptionStoreError)
    return { error: storeUnavailableError(), internal: true, reported: error };
  const reported = error instanceof Framework_Plugin_Exception ? new UnmappedPluginException(error) : error;
  return { error: internalError(), internal: true, reported };
}
