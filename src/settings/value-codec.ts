import stableStringify from 'fast-json-stable-stringify';
import * as z from 'zod/mini';
import { deepFreeze } from './json-value';
import { decodeJson, type SettingTypeDefinition, UNREADABLE } from './setting-types';
import type { SettingValueIssue } from './setting-value-error';

/**
 * The compiled value logic of one setting, built once at registration from its type row,
 * `is_multi` and `options`: validation (zod), encoding to stored text and decoding from it.
 */
export interface ValueCodec {
  /** Why `value` is not acceptable (a sentence), or `undefined` when it is. */
  problem(value: unknown): string | undefined;
  /** Why `value` is not acceptable as zod's issues (path, code, message), or `undefined` when it is. */
  issues(value: unknown): SettingValueIssue[] | undefined;
  /** A valid value as stored text. */
  encode(value: unknown): string;
  /**
   * Stored text as a value (deep-frozen), or `undefined` when it cannot be read or breaks the
   * rules (reads as "nothing stored"). The last text decoded is remembered with its value: the
   * same text (a scope's copy of a global text, the old value of the next write) is not parsed
   * and checked again.
   */
  decode(text: string): unknown;
  /**
   * What a reader decodes from text that {@link ValueCodec.encode} made of a valid value, without
   * checking it again: the write path's value as every instance will read it.
   */
  decodeEncoded(text: string): unknown;
}

/** Text form of an option, as used for control option keys and form values. */
export function optionText(option: unknown): string {
  return typeof option === 'object' && option !== null ? stableStringify(option) : String(option);
}

function describeOptions(options: readonly unknown[]): string {
  const shown = options.slice(0, 10).map((option) => JSON.stringify(option) ?? String(option));
  return shown.join(', ') + (options.length > 10 ? `, … (${options.length} in all)` : '');
}

function formatIssues(error: z.core.$ZodError, isMulti: boolean): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const [index] = issue.path;
      return isMulti && typeof index === 'number' ? `element ${index}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Builds the codec of a setting. `options` must already be valid values of the type. */
export function compileValueCodec(
  definition: SettingTypeDefinition,
  isMulti: boolean,
  options: readonly unknown[],
): ValueCodec {
  let element: z.ZodMiniType = definition.schema;
  const isObject = definition.type === 'object';
  const allowed = new Set(options.map((option) => (isObject ? stableStringify(option) : option)));
  if (options.length > 0) {
    const message = `must be one of: ${describeOptions(options)}`;
    // Only values that passed the type check are compared: stringifying an invalid value
    // (a cycle, a BigInt, deep nesting) would throw instead of answering "invalid".
    element = element.check(
      z.refine((value) => allowed.has(isObject ? stableStringify(value) : value), {
        message,
        when: (payload) => payload.issues.length === 0,
      }),
    );
  }
  const schema = isMulti
    ? z.array(element, {
        error: (issue) =>
          `expected an array (the setting is multi-valued), received ${issue.input === null ? 'null' : typeof issue.input}`,
      })
    : element;

  // Without options or multiple values, the type's quick check accepts most values alone.
  const accepts = isMulti || options.length > 0 ? undefined : definition.accepts;
  const problem = (value: unknown) => {
    if (accepts?.(value) === true) return undefined;
    const result = schema.safeParse(value);
    return result.success ? undefined : formatIssues(result.error, isMulti);
  };

  // For reading stored text only validity matters: a value of the right type (by the quick
  // check) is valid exactly when it is among the options, with no zod issue built for a text a
  // migration remapped away.
  const quick = isMulti ? undefined : definition.accepts;
  const valid = (value: unknown): boolean => {
    if (quick?.(value) === true)
      return options.length === 0 || allowed.has(isObject ? stableStringify(value) : value);
    return schema.safeParse(value).success;
  };

  const issues = (value: unknown): SettingValueIssue[] | undefined => {
    const result = schema.safeParse(value);
    if (result.success) return undefined;
    return result.error.issues.map((issue) => ({
      path: issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment)),
      code: issue.code,
      message: issue.message,
    }));
  };

  const encode = isMulti || definition.type === 'object' ? stableStringify : definition.encode;

  const read = (text: string): unknown => (isMulti ? decodeJson(text) : definition.decode(text));
  let lastText: string | undefined;
  let lastValue: unknown;
  const decode = (text: string): unknown => {
    if (text === lastText) return lastValue;
    let value: unknown;
    if (!(text === '' && (isMulti || definition.type !== 'string'))) {
      const candidate = read(text);
      if (candidate !== UNREADABLE && valid(candidate)) value = deepFreeze(candidate);
    }
    lastText = text;
    lastValue = value;
    return value;
  };
  const decodeEncoded = (text: string): unknown => {
    if (text === lastText) return lastValue;
    const value = deepFreeze(read(text));
    lastText = text;
    lastValue = value;
    return value;
  };

  return { problem, issues, encode: encode as (value: unknown) => string, decode, decodeEncoded };
}
