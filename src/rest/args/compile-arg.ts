import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { RestRequest } from '../http/rest-request';
import type { ArgFailureCode, ArgFailureParams } from './arg-failure';
import type { ArgSchema, ArgType } from './arg-schema';
import { jsonEqual } from './deep-equal';
import { FORMAT_CHECKS } from './formats';
import { compilePattern, MAX_PATTERN_INPUT } from './pattern-guard';
import { hasDuplicateItems } from './unique-items';

/** Returned by a compiled check for a rejected value; the reason is in the {@link CheckFailure}. */
export const INVALID: unique symbol = Symbol('invalid argument');

/**
 * Where a compiled check writes why it rejected a value: one object per runner, reused, so the
 * success path allocates nothing. `path` is built while the rejection unwinds (each array or
 * object level puts its index or key in front), below the argument's name.
 */
export interface CheckFailure {
  code: ArgFailureCode;
  params: ArgFailureParams[ArgFailureCode];
  path: (string | number)[];
}

/** A fresh failure record for a runner. */
export function newCheckFailure(): CheckFailure {
  return { code: 'rest_invalid_param', params: { reason: 'custom' }, path: [] };
}

/**
 * A compiled argument check: returns the (coerced, sanitised) value or {@link INVALID}.
 *
 * @param value - the input value
 * @param fromText - true for query-string and path values, which are coerced to the type
 * @param failure - receives the reason of a rejection
 * @param request - passed to custom `validate` / `sanitize` steps (`null`: skip them, as for defaults)
 * @param name - the argument's name as custom steps receive it (`line_items[0].quantity` for nested values)
 */
export type ValueCheck = (
  value: unknown,
  fromText: boolean,
  failure: CheckFailure,
  request: RestRequest | null,
  name: string,
) => unknown;

/** The argument types. */
export const ARG_TYPES: readonly ArgType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'array',
  'object',
  'null',
];

/** Decimal integer text (`-?digits`) as a safe integer, or INVALID; a digit loop, no regular expression. */
function parseIntegerText(text: string): number | typeof INVALID {
  const length = text.length;
  let index = length > 0 && text.charCodeAt(0) === 45 ? 1 : 0;
  if (index === length) return INVALID;
  let number = 0;
  for (; index < length; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return INVALID;
    number = number * 10 + digit;
  }
  if (!Number.isSafeInteger(number)) return INVALID;
  return text.charCodeAt(0) === 45 && number !== 0 ? -number : number;
}
const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Resolves a value to one type, coercing text when `fromText`; INVALID when it does not fit. */
export type TypeResolver = (value: unknown, fromText: boolean) => unknown;

function splitList(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? [] : value.split(',');
  if (Array.isArray(value) && value.every((element) => typeof element === 'string')) {
    // Repeated query keys: each occurrence may itself be a comma list.
    const elements: string[] = [];
    for (const element of value as string[]) if (element !== '') elements.push(...element.split(','));
    return elements;
  }
  return INVALID;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** How each type resolves a value (coercing text when asked); shared by the compiled checks and the generated fast paths. */
export const TYPE_RESOLVERS: Readonly<Record<ArgType, TypeResolver>> = {
  string: (value) => (typeof value === 'string' ? value : INVALID),
  integer: (value, fromText) => {
    if (typeof value === 'number') return Number.isSafeInteger(value) ? value : INVALID;
    return fromText && typeof value === 'string' ? parseIntegerText(value) : INVALID;
  },
  number: (value, fromText) => {
    if (typeof value === 'number') return Number.isFinite(value) ? value : INVALID;
    if (fromText && typeof value === 'string' && NUMBER_TEXT.test(value)) {
      const number = Number(value);
      return Number.isFinite(number) ? (number === 0 ? 0 : number) : INVALID;
    }
    return INVALID;
  },
  boolean: (value, fromText) => {
    if (typeof value === 'boolean') return value;
    if (fromText && typeof value === 'string') {
      switch (value.toLowerCase()) {
        case 'true':
        case '1':
          return true;
        case 'false':
        case '0':
          return false;
      }
    }
    return INVALID;
  },
  array: (value, fromText) => {
    if (Array.isArray(value) && !fromText) return value;
    return fromText ? splitList(value) : INVALID;
  },
  object: (value) => (isPlainObject(value) ? value : INVALID),
  null: (value, fromText) => (value === null || (fromText && value === '') ? null : INVALID),
};

/** Counts the Unicode code points of `text` (a surrogate pair counts once). */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        index++;
      }
    }
  }
  return count;
}

function fail<C extends ArgFailureCode>(
  failure: CheckFailure,
  code: C,
  params: ArgFailureParams[C],
): typeof INVALID {
  failure.code = code;
  failure.params = params;
  failure.path = [];
  return INVALID;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** How a nested property's name continues its parent's for custom steps: `.key`, or `["key"]`. */
function keySuffix(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

const NO_PARAMS: Readonly<Record<string, never>> = Object.freeze({});

/** Registration-time errors: a malformed schema is a programming error, reported where it is. */
function schemaError(where: string, problem: string): Framework_Plugin_Exception {
  return new Framework_Plugin_Exception(`${where}: ${problem}`, 400);
}

function requireNumber(schema: ArgSchema, keyword: keyof ArgSchema, where: string, integer = false): void {
  const value = schema[keyword];
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (integer && !(Number.isInteger(value) && value >= 0))
  ) {
    throw schemaError(where, `"${keyword}" must be a ${integer ? 'non-negative integer' : 'finite number'}`);
  }
}

/** The declared types of a schema, checked; `null` when it declares none. */
export function declaredTypes(schema: ArgSchema, where: string): readonly ArgType[] | null {
  const { type } = schema;
  if (type === undefined) return null;
  const types = typeof type === 'string' ? [type] : type;
  if (!Array.isArray(types) || types.length === 0) {
    throw schemaError(where, '"type" must be a type name or a non-empty list of type names');
  }
  for (const name of types) {
    if (!ARG_TYPES.includes(name as ArgType)) {
      throw schemaError(where, `unknown type ${JSON.stringify(name)}; use one of ${ARG_TYPES.join(', ')}`);
    }
  }
  return types as readonly ArgType[];
}

function compileTypeResolver(types: readonly ArgType[] | null): TypeResolver | null {
  if (types === null) return null;
  if (types.length === 1) return TYPE_RESOLVERS[types[0]!];
  const resolvers = types.map((type) => TYPE_RESOLVERS[type]);
  // The first type that fits (after coercion, for text) wins: order the list by preference.
  return (value, fromText) => {
    for (const resolve of resolvers) {
      const resolved = resolve(value, fromText);
      if (resolved !== INVALID) return resolved;
    }
    return INVALID;
  };
}

type KeywordCheck<T> = (value: T, failure: CheckFailure) => boolean;

function compileStringChecks(schema: ArgSchema, where: string): KeywordCheck<string> | null {
  requireNumber(schema, 'minLength', where, true);
  requireNumber(schema, 'maxLength', where, true);
  const { minLength, maxLength, format, pattern } = schema;
  let formatCheck: ((text: string) => boolean) | undefined;
  if (format !== undefined) {
    formatCheck = FORMAT_CHECKS.get(format);
    if (!formatCheck) {
      throw schemaError(
        where,
        `unknown format ${JSON.stringify(format)}; use one of ${[...FORMAT_CHECKS.keys()].join(', ')}`,
      );
    }
  }
  if (pattern !== undefined && typeof pattern !== 'string')
    throw schemaError(where, '"pattern" must be a string');
  const regex = pattern === undefined ? undefined : compilePattern(pattern, where);
  if (minLength === undefined && maxLength === undefined && !formatCheck && !regex) return null;
  // The parameters are known now: a rejection only points at them.
  const tooShort = Object.freeze({ minLength: minLength ?? 0 });
  const tooLong = Object.freeze({ maxLength: maxLength ?? 0 });
  const badFormat = Object.freeze({ format: format ?? '' });
  const noMatch = Object.freeze({ pattern: pattern ?? '' });
  const tooLongForPattern = Object.freeze({ pattern: pattern ?? '', maxInputLength: MAX_PATTERN_INPUT });

  return (text, failure) => {
    if (minLength !== undefined || maxLength !== undefined) {
      const length = codePointLength(text);
      if (minLength !== undefined && length < minLength) {
        fail(failure, 'rest_too_short', tooShort);
        return false;
      }
      if (maxLength !== undefined && length > maxLength) {
        fail(failure, 'rest_too_long', tooLong);
        return false;
      }
    }
    if (formatCheck && !formatCheck(text)) {
      fail(failure, 'rest_invalid_format', badFormat);
      return false;
    }
    if (regex) {
      if (text.length > MAX_PATTERN_INPUT) {
        fail(failure, 'rest_invalid_pattern', tooLongForPattern);
        return false;
      }
      if (!regex.test(text)) {
        fail(failure, 'rest_invalid_pattern', noMatch);
        return false;
      }
    }
    return true;
  };
}

function compileNumberChecks(schema: ArgSchema, where: string): KeywordCheck<number> | null {
  requireNumber(schema, 'minimum', where);
  requireNumber(schema, 'maximum', where);
  const { minimum, maximum } = schema;
  const exclusiveMinimum = schema.exclusiveMinimum === true;
  const exclusiveMaximum = schema.exclusiveMaximum === true;
  for (const keyword of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'boolean') {
      throw schemaError(where, `"${keyword}" must be a boolean (draft-04 form)`);
    }
  }
  if (minimum === undefined && maximum === undefined) return null;
  const params = Object.freeze({
    ...(minimum === undefined ? {} : { minimum }),
    ...(maximum === undefined ? {} : { maximum }),
    ...(exclusiveMinimum && minimum !== undefined ? { exclusiveMinimum: true as const } : {}),
    ...(exclusiveMaximum && maximum !== undefined ? { exclusiveMaximum: true as const } : {}),
  });
  return (number, failure) => {
    if (
      (minimum !== undefined && (exclusiveMinimum ? number <= minimum : number < minimum)) ||
      (maximum !== undefined && (exclusiveMaximum ? number >= maximum : number > maximum))
    ) {
      fail(failure, 'rest_out_of_bounds', params);
      return false;
    }
    return true;
  };
}

/** Array checks; returns the (possibly new) array or INVALID. */
type ArrayCheck = (
  array: readonly unknown[],
  fromText: boolean,
  failure: CheckFailure,
  request: RestRequest | null,
  name: string,
) => unknown;

function compileArrayChecks(schema: ArgSchema, where: string): ArrayCheck | null {
  requireNumber(schema, 'minItems', where, true);
  requireNumber(schema, 'maxItems', where, true);
  const { minItems, maxItems } = schema;
  const uniqueItems = schema.uniqueItems === true;
  if (schema.items !== undefined && !isPlainObject(schema.items))
    throw schemaError(where, '"items" must be a schema object');
  const items = schema.items === undefined ? null : compileArgSchema(schema.items, `${where}.items`);
  if (minItems === undefined && maxItems === undefined && !uniqueItems && !items) return null;
  const tooFew = Object.freeze({ minItems: minItems ?? 0 });
  const tooMany = Object.freeze({ maxItems: maxItems ?? 0 });

  return (array, fromText, failure, request, name) => {
    if (minItems !== undefined && array.length < minItems) return fail(failure, 'rest_too_few_items', tooFew);
    if (maxItems !== undefined && array.length > maxItems)
      return fail(failure, 'rest_too_many_items', tooMany);
    let result = array;
    if (items) {
      let copy: unknown[] | null = null;
      for (let index = 0; index < array.length; index++) {
        const element = array[index];
        const checked = items(element, fromText, failure, request, `${name}[${index}]`);
        if (checked === INVALID) {
          failure.path.unshift(index);
          return INVALID;
        }
        if (checked !== element && copy === null) copy = array.slice(0, index);
        if (copy !== null) copy.push(checked);
      }
      if (copy !== null) result = copy;
    }
    if (uniqueItems && hasDuplicateItems(result)) {
      return fail(failure, 'rest_duplicate_items', NO_PARAMS);
    }
    return result;
  };
}

/** Object checks; returns the (possibly new) object or INVALID. */
type ObjectCheck = (
  object: Record<string, unknown>,
  failure: CheckFailure,
  request: RestRequest | null,
  name: string,
) => unknown;

function compileObjectChecks(schema: ArgSchema, where: string): ObjectCheck | null {
  const { properties, additionalProperties } = schema;
  if (properties !== undefined && !isPlainObject(properties))
    throw schemaError(where, '"properties" must be an object');
  const requiredList = Array.isArray(schema.required) ? (schema.required as readonly unknown[]) : [];
  if (requiredList.some((entry) => typeof entry !== 'string')) {
    throw schemaError(where, '"required" must be a boolean or a list of property names');
  }
  const propertyChecks = new Map<string, { readonly check: ValueCheck; readonly suffix: string }>();
  const required = new Set(requiredList as readonly string[]);
  for (const [key, propertySchema] of Object.entries(properties ?? {})) {
    if (!isPlainObject(propertySchema))
      throw schemaError(where, `property "${key}" must have a schema object`);
    propertyChecks.set(key, {
      check: compileArgSchema(propertySchema, `${where}.properties.${key}`),
      suffix: keySuffix(key),
    });
    if (propertySchema.required === true) required.add(key);
  }
  let additional: ValueCheck | boolean = true;
  if (additionalProperties === false) additional = false;
  else if (isPlainObject(additionalProperties)) {
    additional = compileArgSchema(additionalProperties as ArgSchema, `${where}.additionalProperties`);
  } else if (additionalProperties !== undefined && additionalProperties !== true) {
    throw schemaError(where, '"additionalProperties" must be a boolean or a schema object');
  }
  if (propertyChecks.size === 0 && required.size === 0 && additional === true) return null;
  const requiredKeys = [...required].map((key) => ({ key, params: Object.freeze({ property: key }) }));

  return (object, failure, request, name) => {
    for (const { key, params } of requiredKeys) {
      if (!Object.hasOwn(object, key) || object[key] === undefined) {
        fail(failure, 'rest_property_required', params);
        failure.path.push(key);
        return INVALID;
      }
    }
    let copy: Record<string, unknown> | null = null;
    for (const key of Object.keys(object)) {
      const value = object[key];
      const property = propertyChecks.get(key);
      let checked: unknown;
      if (property !== undefined) {
        // Properties of objects are JSON values: never coerced from text.
        checked = property.check(value, false, failure, request, name + property.suffix);
      } else if (additional === true) continue;
      else if (additional === false) {
        fail(failure, 'rest_additional_properties_forbidden', { property: key });
        failure.path.push(key);
        return INVALID;
      } else checked = additional(value, false, failure, request, name + keySuffix(key));
      if (checked === INVALID) {
        failure.path.unshift(key);
        return INVALID;
      }
      if (checked !== value) {
        copy ??= { ...object };
        copy[key] = checked;
      }
    }
    return copy ?? object;
  };
}

function compileEnum(schema: ArgSchema, where: string): KeywordCheck<unknown> | null {
  const values = schema.enum;
  if (values === undefined) return null;
  if (!Array.isArray(values) || values.length === 0)
    throw schemaError(where, '"enum" must be a non-empty list');
  const scalars = new Set(values.filter((value) => typeof value !== 'object' || value === null));
  const structured = values.filter((value) => typeof value === 'object' && value !== null);
  const params = Object.freeze({ allowed: Object.freeze([...values]) });
  return (value, failure) => {
    if (scalars.has(value)) return true;
    if (
      typeof value === 'object' &&
      value !== null &&
      structured.some((option) => jsonEqual(option, value))
    ) {
      return true;
    }
    fail(failure, 'rest_not_in_enum', params);
    return false;
  };
}

const CUSTOM_REFUSAL = Object.freeze({ reason: 'custom' as const });

function runCustomSteps(
  schema: ArgSchema,
  value: unknown,
  failure: CheckFailure,
  request: RestRequest,
  name: string,
): unknown {
  try {
    if (schema.validate) {
      const verdict = schema.validate(value, request, name);
      if (verdict === false) return fail(failure, 'rest_invalid_param', CUSTOM_REFUSAL);
      if (typeof verdict === 'string') {
        return fail(
          failure,
          'rest_invalid_param',
          verdict === '' ? CUSTOM_REFUSAL : { reason: 'custom', message: verdict },
        );
      }
    }
    return schema.sanitize ? schema.sanitize(value, request, name) : value;
  } catch (error) {
    // A custom step may reject with the settings layer's exception (a 4xx code): that is a
    // rejected argument. Anything else is a server error and propagates.
    if (error instanceof Framework_Plugin_Exception && error.code >= 400 && error.code < 500) {
      return fail(failure, 'rest_invalid_param', { reason: 'custom', message: error.message });
    }
    throw error;
  }
}

/**
 * Compiles one argument schema into a {@link ValueCheck}: every keyword is read and checked
 * once, here; the returned function only runs the checks the schema has.
 *
 * @param where - names the schema in registration errors, e.g. `acme/v1 /items GET arg "page"`
 * @throws {@link Framework_Plugin_Exception} (400) for a malformed schema (unknown type or
 *   format, a keyword of the wrong kind, a pattern that does not compile or can backtrack badly)
 */
export function compileArgSchema(schema: ArgSchema, where: string): ValueCheck {
  if (!isPlainObject(schema)) throw schemaError(where, 'the schema must be an object');
  const types = declaredTypes(schema, where);
  const resolveType = compileTypeResolver(types);
  const typeParams = Object.freeze({ type: Object.freeze([...(types ?? [])]) });
  const checkEnum = compileEnum(schema, where);
  const checkString = compileStringChecks(schema, where);
  const checkNumber = compileNumberChecks(schema, where);
  const checkArray = compileArrayChecks(schema, where);
  const checkObject = compileObjectChecks(schema, where);
  for (const step of ['validate', 'sanitize'] as const) {
    if (schema[step] !== undefined && typeof schema[step] !== 'function') {
      throw schemaError(where, `"${step}" must be a function`);
    }
  }
  const hasCustomSteps = schema.validate !== undefined || schema.sanitize !== undefined;

  return (input, fromText, failure, request, name) => {
    let value = input;
    if (resolveType !== null) {
      value = resolveType(value, fromText);
      if (value === INVALID) return fail(failure, 'rest_invalid_type', typeParams);
    }
    if (checkEnum !== null && !checkEnum(value, failure)) return INVALID;
    switch (typeof value) {
      case 'string':
        if (checkString !== null && !checkString(value, failure)) return INVALID;
        break;
      case 'number':
        if (checkNumber !== null && !checkNumber(value, failure)) return INVALID;
        break;
      case 'object':
        if (value === null) break;
        if (Array.isArray(value)) {
          if (checkArray !== null) {
            value = checkArray(value, fromText, failure, request, name);
            if (value === INVALID) return INVALID;
          }
        } else if (checkObject !== null && isPlainObject(value)) {
          value = checkObject(value, failure, request, name);
          if (value === INVALID) return INVALID;
        }
        break;
    }
    if (hasCustomSteps && request !== null) return runCustomSteps(schema, value, failure, request, name);
    return value;
  };
}
