import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/** The most segments a scope path may have. */
export const MAX_SCOPE_DEPTH = 8;
const SEGMENT = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Whether `path` is a scope path (CONTRACT §10): 1 to 8 segments joined by `/`, each
 * `[A-Za-z0-9_.-]{1,64}` other than `.` and `..`, e.g. `eu` or `eu/de`.
 */
export function isScopePath(path: unknown): path is string {
  if (typeof path !== 'string' || path === '') return false;
  const segments = path.split('/');
  if (segments.length > MAX_SCOPE_DEPTH) return false;
  return segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

/** Why `path` is not a scope path, as a sentence (for error messages); `undefined` when it is one. */
export function describeInvalidScopePath(path: unknown): string | undefined {
  if (isScopePath(path)) return undefined;
  return `${typeof path === 'string' ? JSON.stringify(path.slice(0, 80)) : `a ${path === null ? 'null' : typeof path}`} is not a scope path: use 1 to ${MAX_SCOPE_DEPTH} segments joined by "/", each 1 to 64 of A-Z a-z 0-9 _ . - (not "." or "..")`;
}

/**
 * Checks a scope path.
 *
 * @throws {@link Framework_Plugin_Exception} (400) when `path` is not one
 */
export function assertScopePath(path: unknown): asserts path is string {
  const problem = describeInvalidScopePath(path);
  if (problem !== undefined) throw new Framework_Plugin_Exception(problem, 400);
}

/**
 * The levels a value of `path` is resolved through, nearest first: the scope itself, each
 * parent, then `''` (the global level). `scopeChain('eu/de')` is `['eu/de', 'eu', '']`;
 * `scopeChain('')` is `['']`.
 */
export function scopeChain(path: string): string[] {
  const chain: string[] = [];
  let current = path;
  while (current !== '') {
    chain.push(current);
    const slash = current.lastIndexOf('/');
    current = slash === -1 ? '' : current.slice(0, slash);
  }
  chain.push('');
  return chain;
}

/** Whether the level `path` sees values stored at `level`: `level` is `path` itself, one of its parents, or the global level `''`. */
export function inheritsFrom(path: string, level: string): boolean {
  return (
    level === '' ||
    path === level ||
    (path.length > level.length && path.charCodeAt(level.length) === 47 && path.startsWith(level))
  );
}
