import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { OptionStoreError } from '../../errors/option-store-error';
import { RestError } from './rest-error';

/** The answer to anything thrown that is not a known error: no message, stack or internals. */
export function internalError(): RestError {
  return new RestError(
    'rest_internal_error',
    'The server could not complete the request because of an internal error.',
    500,
  );
}

/** The answer to a failed or timed-out store. */
export function storeUnavailableError(): RestError {
  return new RestError(
    'rest_store_unavailable',
    'The settings store is unavailable right now; try again later.',
    503,
  );
}

/**
 * The REST error for anything thrown while answering a request:
 * - a {@link RestError} as it is;
 * - a `Framework_Plugin_Exception` with code 404 → 404 `rest_setting_not_found`, another 4xx
 *   code → that status with `rest_setting_value_invalid` (its message is meant for the client);
 * - an `OptionStoreError` → 503 `rest_store_unavailable`, without its details;
 * - anything else → 500 `rest_internal_error` with a generic message.
 *
 * `internal` is true when the error should be reported to the host's `onError`.
 */
export function toRestError(error: unknown): { error: RestError; internal: boolean } {
  if (error instanceof RestError) return { error, internal: false };
  if (error instanceof OptionStoreError) return { error: storeUnavailableError(), internal: true };
  if (error instanceof Framework_Plugin_Exception) {
    if (error.code === 404)
      return { error: new RestError('rest_setting_not_found', error.message, 404), internal: false };
    if (error.code >= 400 && error.code < 500) {
      return {
        error: new RestError('rest_setting_value_invalid', error.message, error.code),
        internal: false,
      };
    }
  }
  return { error: internalError(), internal: true };
}
