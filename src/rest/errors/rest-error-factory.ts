import { RestError } from '../http/rest-error';
import { REST_ERROR_CATALOGUE, type RestErrorCode } from './error-catalogue';
import type { RestErrorData } from './error-data';

type Catalogue = typeof REST_ERROR_CATALOGUE;

/** The statuses a code of the catalogue may be answered with (any 4xx for `rest_setting_value_invalid`). */
export type RestErrorStatus<C extends RestErrorCode> = Catalogue[C] extends {
  readonly otherClientStatus: true;
}
  ? number
  : Catalogue[C]['status'][number];

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/** Options of {@link restError}: the status (required when the code has several), extra headers. */
export type RestErrorOptions<C extends RestErrorCode> =
  true extends IsUnion<RestErrorStatus<C>>
    ? { readonly status: RestErrorStatus<C>; readonly headers?: Readonly<Record<string, string>> }
    : { readonly status?: RestErrorStatus<C>; readonly headers?: Readonly<Record<string, string>> };

/** The arguments after the message: `data` (optional when the code has none), then the options. */
export type RestErrorArgs<C extends RestErrorCode> =
  true extends IsUnion<RestErrorStatus<C>>
    ? [data: RestErrorData[C], options: RestErrorOptions<C>]
    : Record<string, never> extends RestErrorData[C]
      ? [data?: RestErrorData[C], options?: RestErrorOptions<C>]
      : [data: RestErrorData[C], options?: RestErrorOptions<C>];

/**
 * Builds a {@link RestError} of the catalogue, its `data` typed by the code: a wrong shape is a
 * compile error. The status is the catalogue's (pass `options.status` for a code with several,
 * such as `rest_forbidden`, 401 or 403). Such an error is an answer, not a bug report: it carries
 * no stack trace (never shown to a client, and capturing one cost about 6 µs per answer on
 * refusals and invalid input). A `new RestError(…)` of your own keeps its stack.
 *
 * @example
 * ```ts
 * throw restError('rest_precondition_failed', 'The setting has changed.', { etag: current });
 * throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', {}, { status: 403 });
 * ```
 */
export function restError<C extends RestErrorCode>(
  code: C,
  message: string,
  ...[data, options]: RestErrorArgs<C>
): RestError {
  const status = options?.status ?? REST_ERROR_CATALOGUE[code].status[0];
  const errors = Error as { stackTraceLimit?: number };
  const limit = errors.stackTraceLimit;
  errors.stackTraceLimit = 0;
  try {
    return new RestError(code, message, status, (data ?? {}) as Record<string, unknown>, {
      ...(options?.headers ?? {}),
    });
  } finally {
    errors.stackTraceLimit = limit;
  }
}
