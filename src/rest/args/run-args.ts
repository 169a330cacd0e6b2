import type { RestRequest } from '../http/rest-request';
import type { ArgFailure } from './arg-failure';
import { INVALID, newCheckFailure } from './compile-arg';
import {
  type CompiledArg,
  invalidParamsError,
  missingParamsError,
  recordInvalid,
  repeatedFailure,
  sameRepeatedValue,
} from './compiled-arg';
import { parseQueryString, type QueryRecord, type QueryValues } from './query-string';

/** Runs compiled arguments: the signature of {@link ArgsValidator.run}. */
export type ArgsRunner = (
  path: Readonly<Record<string, string>> | null,
  body: Readonly<Record<string, unknown>> | undefined,
  query: string | QueryValues | QueryRecord,
  request: RestRequest | null,
) => Record<string, unknown>;

/**
 * The portable runner: a loop over the compiled arguments. Used where generating code is not
 * allowed (runtimes that forbid `new Function`), and as the reference the generated runner is
 * tested against.
 */
export function loopRunner(compiled: readonly CompiledArg[]): ArgsRunner {
  const failure = newCheckFailure();
  return (path, body, rawQuery, request) => {
    const params: Record<string, unknown> = {};
    if (path !== null) for (const key in path) params[key] = path[key];
    let query: QueryValues | QueryRecord | undefined = typeof rawQuery === 'string' ? undefined : rawQuery;
    let missing: string[] | null = null;
    let invalid: Record<string, ArgFailure> | null = null;

    for (let index = 0; index < compiled.length; index++) {
      const arg = compiled[index]!;
      const name = arg.name;
      let value: unknown;
      let fromText = true;
      if (path !== null && Object.hasOwn(path, name)) value = path[name];
      else if (body !== undefined && Object.hasOwn(body, name)) {
        value = body[name];
        fromText = false;
      } else {
        query ??= parseQueryString(rawQuery as string);
        value = query instanceof Map ? query.get(name) : Object.hasOwn(query, name) ? query[name] : undefined;
      }

      if (value === undefined || (value === null && arg.required && !arg.acceptsNull)) {
        if (arg.required) {
          missing ??= [];
          missing.push(name);
        } else if (arg.hasDefault) params[name] = arg.defaultValue;
        continue;
      }
      if (fromText && !arg.acceptsList && Array.isArray(value)) {
        value = sameRepeatedValue(value);
        if (value === undefined) {
          invalid = recordInvalid(invalid, name, repeatedFailure());
          continue;
        }
      }
      const checked = arg.check(value, fromText, failure, request, name);
      if (checked === INVALID) {
        invalid = recordInvalid(invalid, name, failure);
        continue;
      }
      params[name] = checked;
    }

    if (missing !== null) throw missingParamsError(missing);
    if (invalid !== null) throw invalidParamsError(invalid);
    return params;
  };
}
