import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { RestRequest } from '../http/rest-request';
import type { ArgSchema } from './arg-schema';
import { compileArgSchema, declaredTypes, INVALID, newCheckFailure } from './compile-arg';
import type { CompiledArg } from './compiled-arg';
import { argFailureOf } from './compiled-arg';
import { formatArgFailure } from './failure-messages';
import { deepFreezeJson } from './freeze';
import { generatedRunner } from './generated-runner';
import type { QueryRecord, QueryValues } from './query-string';
import { loopRunner } from './run-args';

/** A route endpoint's compiled argument validator. */
export interface ArgsValidator {
  /** The argument names, in declaration order. */
  readonly names: readonly string[];
  /** Whether {@link run} is generated code (fast) rather than the portable loop (where `new Function` is forbidden). */
  readonly generated: boolean;
  /**
   * Validates, coerces and sanitises the arguments, taking each from the path, else the body,
   * else the query string.
   *
   * @param path - decoded path parameters, or `null`
   * @param body - the parsed JSON body, if any
   * @param query - the raw query string (parsed only when an argument is looked up in it), or
   *   its values already parsed (a `Map` or a plain object of strings and string lists)
   * @param request - passed to custom `validate` / `sanitize` steps
   * @returns the params: path parameters, then every argument present (or defaulted)
   * @throws {@link RestError} 400 `rest_missing_callback_param` (`data.params`: the missing
   *   names) or `rest_invalid_param` (`data.params`: name → message, `data.details`: name →
   *   `{code, message, path, params}`, an `ArgFailureDetail`)
   */
  run(
    path: Readonly<Record<string, string>> | null,
    body: Readonly<Record<string, unknown>> | undefined,
    query: string | QueryValues | QueryRecord,
    request: RestRequest | null,
  ): Record<string, unknown>;
}

/** Options of {@link compileArgs}. */
export interface CompileArgsOptions {
  /**
   * Whether to generate the runner as code (`new Function`), the fast default. `false` uses
   * the portable loop runner, which runtimes that forbid generating code get anyway.
   */
  generate?: boolean;
}

const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Compiles an endpoint's arguments once, at registration: each schema is checked and turned
 * into a check, and each default is checked against its own schema.
 *
 * @param where - names the endpoint in registration errors
 * @throws {@link Framework_Plugin_Exception} (400) for a malformed schema or an invalid default
 */
export function compileArgs(
  args: Readonly<Record<string, ArgSchema>> | undefined,
  where: string,
  options: CompileArgsOptions = {},
): ArgsValidator {
  const compiled = compileArgList(args, where);
  const generated = options.generate === false ? null : generatedRunner(compiled);
  return {
    names: compiled.map((arg) => arg.name),
    generated: generated !== null,
    run: generated ?? loopRunner(compiled),
  };
}

/**
 * @internal The checking half of {@link compileArgs}: every schema checked and compiled, every
 * default checked, in declaration order; no runner yet.
 *
 * @throws {@link Framework_Plugin_Exception} (400) for a malformed schema or an invalid default
 */
export function compileArgList(
  args: Readonly<Record<string, ArgSchema>> | undefined,
  where: string,
): CompiledArg[] {
  const compiled: CompiledArg[] = [];
  for (const [name, schema] of Object.entries(args ?? {})) {
    const argWhere = `${where} argument "${name}"`;
    if (name === '' || FORBIDDEN_NAMES.has(name)) {
      throw new Framework_Plugin_Exception(
        `${where}: ${JSON.stringify(name)} cannot be an argument name`,
        400,
      );
    }
    const check = compileArgSchema(schema, argWhere);
    if (
      schema.required !== undefined &&
      typeof schema.required !== 'boolean' &&
      !Array.isArray(schema.required)
    ) {
      throw new Framework_Plugin_Exception(`${argWhere}: "required" must be a boolean`, 400);
    }
    const types = declaredTypes(schema, argWhere);
    const hasDefault = schema.default !== undefined;
    let defaultValue: unknown;
    if (hasDefault) {
      const failure = newCheckFailure();
      const checked = check(schema.default, false, failure, null, name);
      if (checked === INVALID) {
        const message = formatArgFailure(argFailureOf(name, failure));
        throw new Framework_Plugin_Exception(`${argWhere}: invalid default: ${message}`, 400);
      }
      defaultValue = deepFreezeJson(structuredClone(checked));
    }
    compiled.push({
      name,
      schema,
      required: schema.required === true,
      hasDefault,
      defaultValue,
      acceptsNull: types?.includes('null') === true,
      acceptsList: types === null || types.includes('array'),
      check,
    });
  }
  return compiled;
}
