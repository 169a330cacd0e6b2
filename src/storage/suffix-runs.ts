import type { CheckedSuffixScanQuery, SuffixScanPage } from './store-scan';

/**
 * One prefix's part of a suffix scan page, as a store reads it: the suffixes of its first keys
 * after the cursor, in the store's key order, and their texts when asked for.
 */
export interface SuffixRun {
  /** The suffixes, ascending in the store's order. */
  readonly suffixes: readonly string[];
  /** Parallel to `suffixes`, when the prefix's texts were read. */
  readonly texts?: readonly string[] | null | undefined;
  /** Whether the run holds as many keys as the store was asked for (more may follow it). */
  readonly full: boolean;
}

/**
 * Code-point order (the byte order of UTF-8, and so of `COLLATE "C"`): JavaScript's `<`
 * compares UTF-16 code units, which puts an astral character (a surrogate pair) below
 * U+E000–U+FFFF; here a surrogate sorts above every other code unit.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    return weight(left) - weight(right);
  }
  return a.length - b.length;
}

/** A code unit's place in code-point order (see {@link compareCodePoints}). */
function weight(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/** Code-unit order (JavaScript's own, which a sorted array of strings follows). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A page of a suffix scan from the runs of its prefixes (`query.prefixes`, then
 * `query.joined`), each read with at most `query.count` keys after the cursor, in the order
 * `compare` gives. A full run may stop before some of its suffixes: the page ends at the least
 * last suffix of the full runs (every suffix up to it is complete in every run), and at
 * `query.count` suffixes; the cursor is then the page's last suffix.
 */
export function mergeSuffixRuns(
  query: CheckedSuffixScanQuery,
  runs: readonly SuffixRun[],
  compare: (a: string, b: string) => number,
): SuffixScanPage {
  const { prefixes, values, joined, count } = query;
  let cut: string | undefined;
  for (const run of runs) {
    const last = run.suffixes[run.suffixes.length - 1];
    if (run.full && last !== undefined && (cut === undefined || compare(last, cut) < 0)) cut = last;
  }
  /** How many of a run's suffixes are within the page (up to the cut). */
  const within = (run: SuffixRun): number => {
    if (cut === undefined) return run.suffixes.length;
    let low = 0;
    let high = run.suffixes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(run.suffixes[middle]!, cut) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const found = new Map<string, { held: number[]; texts: string[] }>();
  for (let index = 0; index < prefixes.length; index++) {
    const run = runs[index]!;
    const end = within(run);
    for (let at = 0; at < end; at++) {
      const suffix = run.suffixes[at]!;
      let entry = found.get(suffix);
      if (entry === undefined) {
        entry = { held: [], texts: [] };
        found.set(suffix, entry);
      }
      entry.held.push(index);
      if (values[index]) entry.texts.push(run.texts![at]!);
    }
  }
  let suffixes = [...found.keys()].sort(compare);
  // Complete up to the cut; cut shorter at `count` suffixes, up to the last one kept.
  let cursor = cut ?? null;
  if (suffixes.length > count) {
    suffixes = suffixes.slice(0, count);
    cursor = suffixes[count - 1]!;
  }
  const joinedTexts = joined.map((_, index) => {
    const run = runs[prefixes.length + index]!;
    const texts = new Map<string, string>();
    const end = within(run);
    for (let at = 0; at < end; at++) texts.set(run.suffixes[at]!, run.texts![at]!);
    return texts;
  });
  const page: SuffixScanPage = {
    suffixes,
    held: [],
    texts: [],
    joined: [],
    cursor,
  };
  for (const suffix of suffixes) {
    const entry = found.get(suffix)!;
    page.held.push(entry.held);
    page.texts.push(entry.texts);
    page.joined.push(joinedTexts.map((texts) => texts.get(suffix) ?? null));
  }
  return page;
}
