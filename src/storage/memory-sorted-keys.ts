import type { CheckedScanQuery, ScanPage } from './store-scan';

/**
 * The keys (or log names) of a {@link MemoryOptionStore} in sorted order, for `scan`: sorted
 * once and kept until a name is added or removed, so that a page costs a binary search and the
 * page itself. The cursor is the last name of the previous page; pages continue after it, so a
 * name that exists for the whole scan is returned exactly once.
 */
export class MemorySortedKeys {
  readonly #names: () => Iterable<string>;
  #sorted: string[] | null = null;

  /** @param names - reads the current names (called again after {@link MemorySortedKeys.invalidate}) */
  constructor(names: () => Iterable<string>) {
    this.#names = names;
  }

  /** Forgets the order: a name was added or removed. */
  invalidate(): void {
    this.#sorted = null;
  }

  /** One page of the names that start with `prefix`, after `cursor`. */
  page({ prefix, cursor, count }: CheckedScanQuery): ScanPage {
    this.#sorted ??= [...this.#names()].sort();
    const sorted = this.#sorted;
    let at = firstIndex(sorted, (name) => name >= prefix);
    if (cursor !== null)
      at = Math.max(
        at,
        firstIndex(sorted, (name) => name > cursor),
      );
    const items: string[] = [];
    while (at < sorted.length && items.length < count && sorted[at]!.startsWith(prefix))
      items.push(sorted[at++]!);
    const more = items.length === count && at < sorted.length && sorted[at]!.startsWith(prefix);
    return { items, cursor: more ? items[items.length - 1]! : null, ordered: true };
  }
}

/** The first index of `sorted` whose name passes `test` (a test that holds from some index on). */
function firstIndex(sorted: readonly string[], test: (name: string) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(sorted[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
