import stableStringify from 'fast-json-stable-stringify';

/**
 * Whether a JSON array holds two deeply equal items (the `uniqueItems` keyword), in one pass:
 * scalars go into a set as they are, objects and arrays as their stable JSON text (keys
 * sorted), so `{a:1,b:2}` and `{b:2,a:1}` count as equal. Linear in the size of the array,
 * where comparing every pair was quadratic.
 */
export function hasDuplicateItems(items: readonly unknown[]): boolean {
  const scalars = new Set<unknown>();
  const structures = new Set<string>();
  for (const item of items) {
    if (typeof item === 'object' && item !== null) {
      const text = stableStringify(item);
      if (structures.has(text)) return true;
      structures.add(text);
    } else {
      if (scalars.has(item)) return true;
      scalars.add(item);
    }
  }
  return false;
}
