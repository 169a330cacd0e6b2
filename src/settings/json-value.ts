import { describeUnstorableText } from './text-rules';

/** How deep an `object` setting value may nest (a top-level object or array is level 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * Checks that `value` is a JSON value the `object` setting type accepts: plain objects and
 * arrays of strings, finite numbers, booleans, null and further plain objects and arrays,
 * at most {@link MAX_JSON_DEPTH} levels deep, with no `__proto__` keys and no cycles.
 *
 * @returns why the value is not acceptable (with a JSON-pointer-like path), or `undefined`
 */
export function describeInvalidJsonValue(value: unknown): string | undefined {
  return check(value, '', 0, new Set());
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function at(path: string): string {
  return path === '' ? '' : ` at ${path}`;
}

function check(value: unknown, path: string, depth: number, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string': {
      const problem = describeUnstorableText(value);
      return problem ? `string${at(path)} ${problem}` : undefined;
    }
    case 'number':
      return Number.isFinite(value) ? undefined : `number${at(path)} is not finite`;
    case 'boolean':
      return undefined;
    case 'object':
      break;
    default:
      return `${typeof value}${at(path)} is not a JSON value`;
  }
  if (value === null) return undefined;
  if (ancestors.has(value)) return `cycle${at(path)}`;
  if (depth + 1 > MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH} levels${at(path)}`;

  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype)
      return `array subclass${at(path)} is not a JSON value`;
    ancestors.add(value);
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) return `hole in array${at(`${path}/${index}`)}`;
      const problem = check(value[index], `${path}/${index}`, depth + 1, ancestors);
      if (problem) return problem;
    }
    ancestors.delete(value);
    return undefined;
  }

  if (!isPlainObject(value)) {
    const kind = value.constructor?.name ?? 'object';
    return `${kind}${at(path)} is not a plain object`;
  }
  ancestors.add(value);
  for (const key of Object.keys(value)) {
    const childPath = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key === '__proto__') return `forbidden key "__proto__"${at(path)}`;
    const keyProblem = describeUnstorableText(key);
    if (keyProblem) return `key${at(childPath)} ${keyProblem}`;
    const problem = check((value as Record<string, unknown>)[key], childPath, depth + 1, ancestors);
    if (problem) return problem;
  }
  ancestors.delete(value);
  return undefined;
}

/** Deep-freezes a JSON value (decoded values are shared snapshots and must not change). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
