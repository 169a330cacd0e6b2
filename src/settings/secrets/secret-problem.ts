/**
 * In a value's JSON text: an escape sequence; group 1 when it is a NUL character or a lone
 * surrogate (JSON escapes lone surrogates; `\\` is consumed whole, so `\\u0000` is not one).
 */
const ESCAPES = /\\(?:u(0000|d[89a-f][0-9a-f]{2})|[^u])/gi;

/**
 * Why a secret's value is refused, in words that never repeat the value, its keys or the allowed
 * options: refused only for characters no store can hold (without them, `accepts` would take
 * it), it says so; otherwise what was `expected` (e.g. "a value of type string").
 */
export function describeInvalidSecret(
  value: unknown,
  expected: string,
  accepts: (value: unknown) => boolean,
): string {
  let nul = false;
  let unstorable = false;
  try {
    const json = JSON.stringify(value);
    const stripped = json?.replace(ESCAPES, (sequence: string, bad?: string) => {
      if (bad === undefined) return sequence;
      unstorable = true;
      nul ||= bad === '0000';
      return '';
    });
    unstorable &&= stripped !== undefined && accepts(JSON.parse(stripped));
  } catch {
    unstorable = false; // not JSON (a cycle, a BigInt): the general message
  }
  if (!unstorable) return `expected ${expected} (a secret's value is not repeated here)`;
  const what = nul ? 'a NUL character' : 'a lone surrogate (half of a UTF-16 character pair)';
  return `the text contains ${what}, which stores cannot hold (a secret's value is not repeated here)`;
}
