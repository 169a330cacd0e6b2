import { restError } from '../errors/rest-error-factory';
import type { RestError } from '../http/rest-error';
import type { ArgFailure, ArgFailureDetail } from './arg-failure';
import type { ArgSchema } from './arg-schema';
import type { CheckFailure, ValueCheck } from './compile-arg';
import { toArgFailureDetail } from './failure-messages';

/** One argument after compilation: what the runners need to look it up and check it. */
export interface CompiledArg {
  readonly name: string;
  readonly schema: ArgSchema;
  readonly required: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  /** Whether `null` is a value of the type (else a required argument that is null counts as missing). */
  readonly acceptsNull: boolean;
  /** Whether a repeated query key (a list of strings) may be given. */
  readonly acceptsList: boolean;
  readonly check: ValueCheck;
}

/** The 400 `rest_missing_callback_param` error. */
export function missingParamsError(missing: readonly string[]): RestError {
  return restError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, {
    params: [...missing],
  });
}

/**
 * The 400 `rest_invalid_param` error, from each invalid argument's failure: `data.params` maps
 * each name to its message, `data.details` to `{code, message, path, params}`.
 */
export function invalidParamsError(invalid: Readonly<Record<string, ArgFailure>>): RestError {
  const messages: Record<string, string> = {};
  const details: Record<string, ArgFailureDetail> = {};
  for (const name in invalid) {
    const detail = toArgFailureDetail(invalid[name]!);
    messages[name] = detail.message;
    details[name] = detail;
  }
  return restError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(invalid).join(', ')}`, {
    params: messages,
    details,
  });
}

/** The failure recorded in `failure` (a runner's reused record) as data of argument `name`. */
export function argFailureOf(name: string, failure: CheckFailure): ArgFailure {
  const path = failure.path;
  path.unshift(name);
  return { code: failure.code, path, params: failure.params } as ArgFailure;
}

/** Records an invalid argument (taking the failure out of the reused record), creating the record on first use. */
export function recordInvalid(
  invalid: Record<string, ArgFailure> | null,
  name: string,
  failure: CheckFailure,
): Record<string, ArgFailure> {
  const record = invalid ?? {};
  record[name] = argFailureOf(name, failure);
  failure.path = [];
  return record;
}

/**
 * The one value of a scalar argument given more than once in the query string, when every
 * repetition is the same (some clients, e.g. the WooCommerce client signing with OAuth 1.0a,
 * send each query parameter twice); `undefined` when they differ.
 */
export function sameRepeatedValue(values: readonly unknown[]): unknown {
  const first = values[0];
  for (let index = 1; index < values.length; index++) if (values[index] !== first) return undefined;
  return first;
}

/** The failure of a scalar argument given more than once in the query string with different values. */
export function repeatedFailure(): CheckFailure {
  return { code: 'rest_invalid_param', params: { reason: 'repeated' }, path: [] };
}
