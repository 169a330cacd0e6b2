import type { ArgSchema, ArgType } from './arg-schema';
import { codePointLength, declaredTypes, INVALID, newCheckFailure, TYPE_RESOLVERS } from './compile-arg';
import {
  type CompiledArg,
  invalidParamsError,
  missingParamsError,
  recordInvalid,
  repeatedFailure,
  sameRepeatedValue,
} from './compiled-arg';
import { parseQueryString } from './query-string';
import type { ArgsRunner } from './run-args';

/**
 * A runner generated as straight-line JavaScript (one block per argument, property names as
 * literals), which V8 and other engines run with monomorphic property access: several times
 * faster than a loop over the arguments.
 *
 * Only argument NAMES and the NUMBERS and STRINGS of simple keywords become source text, each
 * through `JSON.stringify` / finite-number checks; everything else (checks, defaults, sets)
 * is passed in by reference. Simple arguments (one scalar type with enum, bounds, lengths) get
 * an inline fast path; when it rejects, the compiled check runs and gives the exact reason, so
 * the generated code can only accept what the compiled check accepts.
 *
 * @returns the runner, or `null` where the runtime forbids generating code (e.g. a CSP or an
 *   edge runtime without `new Function`): the caller then uses the loop runner
 */
export function generatedRunner(compiled: readonly CompiledArg[]): ArgsRunner | null {
  const lines: string[] = [
    'const { hasOwn, isArray, parse, INVALID, failure, checks, defaults, sets, missingError, invalidError,',
    '  recordInvalid, repeatedFailure, sameRepeatedValue, resolveInteger, resolveNumber, resolveBoolean, cpl,',
    '  isSafeInteger } = kit;',
    'return function run(path, body, rawQuery, request) {',
    '  const params = {};',
    '  if (path !== null) for (const key in path) params[key] = path[key];',
    "  let query = typeof rawQuery === 'string' ? undefined : rawQuery;",
    '  let isMap = query instanceof Map;',
    '  let missing = null;',
    '  let invalid = null;',
    '  let value;',
    '  let fromText;',
    '  let checked;',
  ];
  const sets: (ReadonlySet<unknown> | undefined)[] = [];
  compiled.forEach((arg, index) => {
    const name = JSON.stringify(arg.name);
    lines.push(
      `  if (path !== null && hasOwn(path, ${name})) { value = path[${name}]; fromText = true; }`,
      `  else if (body !== undefined && hasOwn(body, ${name})) { value = body[${name}]; fromText = false; }`,
      '  else {',
      '    if (query === undefined) { query = parse(rawQuery); isMap = true; }',
      `    value = isMap ? query.get(${name}) : hasOwn(query, ${name}) ? query[${name}] : undefined;`,
      '    fromText = true;',
      '  }',
    );
    const nullIsMissing = arg.required && !arg.acceptsNull;
    lines.push(`  if (value === undefined${nullIsMissing ? ' || value === null' : ''}) {`);
    if (arg.required) lines.push('    if (missing === null) missing = [];', `    missing.push(${name});`);
    else if (arg.hasDefault) lines.push(`    params[${name}] = defaults[${index}];`);
    lines.push('  }');
    if (!arg.acceptsList) {
      // A repeated query key whose values are all the same counts once.
      lines.push(
        '  else if (fromText && isArray(value) && (value = sameRepeatedValue(value)) === undefined) {',
        `    invalid = recordInvalid(invalid, ${name}, repeatedFailure());`,
        '  }',
      );
    }
    lines.push('  else {');
    const fast = fastPath(arg.schema, index, sets);
    if (fast !== null) {
      lines.push(...fast.map((line) => `    ${line}`));
      lines.push(
        `    if (checked === INVALID) checked = checks[${index}](value, fromText, failure, request, ${name});`,
      );
    } else {
      lines.push(`    checked = checks[${index}](value, fromText, failure, request, ${name});`);
    }
    lines.push(
      `    if (checked === INVALID) invalid = recordInvalid(invalid, ${name}, failure);`,
      `    else params[${name}] = checked;`,
      '  }',
    );
  });
  lines.push(
    '  if (missing !== null) throw missingError(missing);',
    '  if (invalid !== null) throw invalidError(invalid);',
    '  return params;',
    '};',
  );

  const failure = newCheckFailure();
  const kit = {
    hasOwn: Object.hasOwn,
    isArray: Array.isArray,
    parse: parseQueryString,
    INVALID,
    failure,
    checks: compiled.map((arg) => arg.check),
    defaults: compiled.map((arg) => arg.defaultValue),
    sets,
    missingError: missingParamsError,
    invalidError: invalidParamsError,
    recordInvalid,
    repeatedFailure,
    sameRepeatedValue,
    resolveInteger: TYPE_RESOLVERS.integer,
    resolveNumber: TYPE_RESOLVERS.number,
    resolveBoolean: TYPE_RESOLVERS.boolean,
    cpl: codePointLength,
    isSafeInteger: Number.isSafeInteger,
  };
  try {
    const factory = new Function('kit', lines.join('\n')) as (kit: unknown) => ArgsRunner;
    return factory(kit);
  } catch {
    return null;
  }
}

const FAST_TYPES: readonly ArgType[] = ['string', 'integer', 'number', 'boolean'];
const SIMPLE_KEYWORDS = new Set([
  'type',
  'required',
  'default',
  'description',
  'title',
  'context',
  'readonly',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
]);

/** A literal for a primitive enum value, or `null` when it has none (objects, non-finite numbers). */
function literal(value: unknown): string | null {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? `(${String(value)})` : null;
  if (typeof value === 'boolean' || value === null) return String(value);
  return null;
}

function finite(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? `(${String(value)})` : null;
}

/**
 * Inline statements that set `checked` to the value or INVALID, for a simple schema (one scalar
 * type; enum of primitives; bounds; lengths; no custom steps, format or pattern); `null` otherwise.
 */
function fastPath(
  schema: ArgSchema,
  index: number,
  sets: (ReadonlySet<unknown> | undefined)[],
): string[] | null {
  for (const key of Object.keys(schema)) if (!SIMPLE_KEYWORDS.has(key)) return null;
  const types = declaredTypes(schema, '');
  if (types === null || types.length !== 1 || !FAST_TYPES.includes(types[0]!)) return null;
  const type = types[0]!;
  const lines: string[] = [];
  switch (type) {
    case 'string':
      lines.push("checked = typeof value === 'string' ? value : INVALID;");
      break;
    case 'integer':
      lines.push(
        "checked = typeof value === 'number' ? (isSafeInteger(value) ? value : INVALID) : resolveInteger(value, fromText);",
      );
      break;
    case 'number':
      lines.push('checked = resolveNumber(value, fromText);');
      break;
    case 'boolean':
      lines.push('checked = resolveBoolean(value, fromText);');
      break;
  }
  const conditions: string[] = [];
  if (schema.enum !== undefined) {
    const literals = schema.enum.map(literal);
    if (literals.every((text) => text !== null) && literals.length <= 8) {
      conditions.push(`(${literals.map((text) => `checked === ${text}`).join(' || ')})`);
    } else if (schema.enum.every((value) => typeof value !== 'object' || value === null)) {
      sets[index] = new Set(schema.enum);
      conditions.push(`sets[${index}].has(checked)`);
    } else return null;
  }
  if (type === 'integer' || type === 'number') {
    const minimum = schema.minimum === undefined ? undefined : finite(schema.minimum);
    const maximum = schema.maximum === undefined ? undefined : finite(schema.maximum);
    if (minimum === null || maximum === null) return null;
    if (minimum !== undefined)
      conditions.push(`checked ${schema.exclusiveMinimum === true ? '>' : '>='} ${minimum}`);
    if (maximum !== undefined)
      conditions.push(`checked ${schema.exclusiveMaximum === true ? '<' : '<='} ${maximum}`);
  }
  if (type === 'string' && (schema.minLength !== undefined || schema.maxLength !== undefined)) {
    const minLength = schema.minLength === undefined ? undefined : finite(schema.minLength);
    const maxLength = schema.maxLength === undefined ? undefined : finite(schema.maxLength);
    if (minLength === null || maxLength === null) return null;
    if (minLength !== undefined) conditions.push(`cpl(checked) >= ${minLength}`);
    if (maxLength !== undefined) conditions.push(`cpl(checked) <= ${maxLength}`);
  }
  if (conditions.length > 0)
    lines.push(`if (checked !== INVALID && !(${conditions.join(' && ')})) checked = INVALID;`);
  return lines;
}
