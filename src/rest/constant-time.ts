/**
 * Compares two strings in time that depends only on their lengths, not on where they differ,
 * so that a caller cannot learn a secret one character at a time by timing the comparison.
 * Pure JavaScript (no `node:crypto`), for every runtime.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let difference = a.length ^ b.length;
  for (let index = 0; index < length; index++) {
    // charCodeAt past the end gives NaN, which `| 0` turns into 0: both strings are walked fully.
    difference |= (a.charCodeAt(index) | 0) ^ (b.charCodeAt(index) | 0);
  }
  return difference === 0;
}
