import { RestError } from '../http/rest-error';
import type { ArgSchema } from './arg-schema';
import type { CheckFailure, ValueCheck } from './compile-arg';

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
  return new RestError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, {
    params: [...missing],
  });
}

/** The 400 `rest_invalid_param` error, from each invalid argument's failure. */
export function invalidParamsError(invalid: Readonly<Record<string, CheckFailure>>): RestError {
  const messages: Record<string, string> = {};
  for (const name in invalid) messages[name] = invalid[name]!.message;
  return new RestError(
    'rest_invalid_param',
    `Invalid parameter(s): ${Object.keys(invalid).join(', ')}`,
    400,
    {
      params: messages,
      details: invalid,
    },
  );
}

/** Records an invalid argument (copying the failure), creating the record on first use. */
export function recordInvalid(
  invalid: Record<string, CheckFailure> | null,
  name: string,
  failure: CheckFailure,
): Record<string, CheckFailure> {
  const record = invalid ?? {};
  record[name] = { code: failure.code, message: failure.message };
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
export function repeatedFailure(name: string): CheckFailure {
  return { code: 'rest_invalid_param', message: `${name} was given more than once, with different values.` };
}
