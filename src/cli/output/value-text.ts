/** A value as the readable output shows it. */

/** What a secret's value reads as in every output. */
export const MASK = '********';

/**
 * A value as one line of text: JSON (so `0`, `""`, `false` and `null` are told apart, strings
 * quoted), a secret's mask as it is (`********`), `—` for nothing stored.
 */
export function valueText(value: unknown, secret = false): string {
  if (value === undefined) return '—';
  if (secret && value === MASK) return MASK;
  return JSON.stringify(value) ?? String(value);
}

/** A level as the readable output names it: `global` for `''` or `null`, else the scope path. */
export function levelName(scope: string | null | undefined): string {
  return scope === null || scope === undefined || scope === '' ? 'global' : scope;
}

/** Where a value comes from, as REST's `origin`: a scope path, `global` for `''`, `default` for `null`. */
export function originName(origin: string | null): string {
  return origin === null ? 'default' : levelName(origin);
}
