/**
 * The order `JSON.stringify` writes an object's members in: integer-like keys (array indices)
 * first, ascending, then the others in insertion order. A document streamed member by member
 * must follow it to give the same bytes as `JSON.stringify(document)`.
 */

/** Whether `key` is an array index, which objects order before every other key. */
function isArrayIndex(key: string): boolean {
  if (key === '' || key.length > 10 || !/^(0|[1-9][0-9]*)$/.test(key)) return false;
  return Number(key) < 4_294_967_295;
}

/** `keys` (in the insertion order wanted) in the order an object built that way would keep. */
export function objectKeyOrder(keys: readonly string[]): string[] {
  const indices = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((key) => !isArrayIndex(key))];
}

/** Compares texts by code units (the order scope paths are listed in). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
