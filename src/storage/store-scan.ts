/**
 * Walking a store's keys or logs a page at a time (the optional `OptionStore.scan` capability,
 * 0.3): migrations, exports and restores visit every level of a plugin with memory bounded by
 * the page size, however many scopes the store holds.
 */

/** What one `scan` call reads. */
export interface ScanQuery {
  /** Only items that start with this text (compared as text: no LIKE or glob patterns). */
  readonly prefix: string;
  /** Where to go on: the `cursor` of the previous page; absent or `null` for the first page. */
  readonly cursor?: string | null | undefined;
  /** About how many items one page holds (a hint; at least 1). */
  readonly count: number;
  /** `true`: the names of change logs instead of option keys. */
  readonly logs?: boolean | undefined;
  /** `true` (keys only): each key's stored text too, in `ScanPage.values`. */
  readonly values?: boolean | undefined;
}

/**
 * One page of a scan. Every item that exists from the first page to the last is returned at
 * least once (a store may return one twice, as Redis `SCAN` may); items written or removed
 * during the scan may or may not be.
 */
export interface ScanPage {
  /** The keys (or log names) of this page, in any order. */
  readonly items: string[];
  /** The cursor of the next page; `null` when the scan is complete. */
  readonly cursor: string | null;
  /**
   * `true` when the items are in ascending code-unit order, each page continuing after the
   * previous one's last item (PostgreSQL, memory): the settings layer then merges the scans of
   * several prefixes into one stream of scopes, holding one page per prefix. Absent: any order
   * (Redis `SCAN`).
   */
  readonly ordered?: boolean;
  /**
   * With `values: true`: the stored text of each item (parallel to `items`). A key removed
   * between the scan and the read of its text is left out of both.
   */
  readonly values?: string[];
}

/** A {@link ScanQuery} as stores read it: the cursor `null` on the first page. */
export interface CheckedScanQuery {
  readonly prefix: string;
  readonly cursor: string | null;
  readonly count: number;
  readonly logs: boolean;
  readonly values: boolean;
}

/**
 * Checks a scan query (for stores): `prefix` a string, `cursor` absent, `null` or a string,
 * `count` a positive safe integer. Throws a `TypeError` naming the problem. (Whether a cursor
 * string is one of its own is for the store to say.)
 */
export function checkScanQuery(query: ScanQuery): CheckedScanQuery {
  if (typeof query !== 'object' || query === null) throw new TypeError('scan: expected { prefix, count, … }');
  const { prefix, cursor = null, count, logs = false, values = false } = query;
  if (typeof prefix !== 'string') throw new TypeError('scan: prefix must be a string');
  if (cursor !== null && typeof cursor !== 'string')
    throw new TypeError('scan: cursor must be a string or null');
  if (!Number.isSafeInteger(count) || count < 1)
    throw new TypeError('scan: count must be a positive integer');
  if (values === true && logs === true) throw new TypeError('scan: values come with keys, not with logs');
  return { prefix, cursor, count, logs: logs === true, values: values === true };
}

/**
 * What one `scanSuffixes` call reads (the optional `OptionStore.scanSuffixes` capability, 0.3):
 * the keys of several prefixes merged by what follows the prefix. A plugin keeps each setting's
 * scoped values under a prefix of its own (`framework_acme_mode@eu/de`), so the scopes holding
 * any of its settings are the suffixes of its settings' prefixes; one page of them, with the
 * texts asked for, replaces one scan per setting and a merge in the client.
 */
export interface SuffixScanQuery {
  /**
   * The prefixes whose keys name suffixes: a suffix is what follows one of them in a stored key.
   * Each is a non-empty text not made only of U+10FFFF (no text bounds such a prefix's keys from
   * above, which an index range needs).
   */
  readonly prefixes: readonly string[];
  /** Parallel to `prefixes`: whether the texts of that prefix's keys come too (absent: none). */
  readonly values?: readonly boolean[] | undefined;
  /**
   * Prefixes whose key with each suffix found is read too (its text, or `null`), without naming
   * suffixes of their own: the migration marker of a scope that holds values. Non-empty texts,
   * as `prefixes`.
   */
  readonly joined?: readonly string[] | undefined;
  /** Where to go on: the `cursor` of the previous page; absent or `null` for the first page. */
  readonly cursor?: string | null | undefined;
  /** At most how many suffixes one page holds (at least 1). */
  readonly count: number;
}

/**
 * One page of a `scanSuffixes`: every suffix after the cursor up to the page's last, ascending in
 * the store's key order (PostgreSQL: code points, as `COLLATE "C"` sorts; memory: JavaScript's
 * code units; the two differ only for astral characters), each once, with the prefixes it follows. Every
 * suffix that exists from the first page to the last is returned exactly once; keys written or
 * removed during the scan may or may not count.
 */
export interface SuffixScanPage {
  /** The suffixes of this page, ascending. */
  readonly suffixes: string[];
  /** Parallel to `suffixes`: the indexes into `prefixes` of the prefixes the suffix follows in a stored key, ascending. */
  readonly held: number[][];
  /**
   * Parallel to `suffixes`: the stored texts of the keys in `held` whose prefix was asked with
   * `values`, in the order of `held` (the others left out).
   */
  readonly texts: string[][];
  /** Parallel to `suffixes`: per prefix of `joined`, the text of that prefix + the suffix, `null` when nothing is stored. */
  readonly joined: (string | null)[][];
  /** The cursor of the next page; `null` when the scan is complete. */
  readonly cursor: string | null;
}

/** A text made only of U+10FFFF. */
const ONLY_MAX_CODE_POINTS = /^(?:\u{10FFFF})+$/u;

/** A {@link SuffixScanQuery} as stores read it. */
export interface CheckedSuffixScanQuery {
  readonly prefixes: readonly string[];
  readonly values: readonly boolean[];
  readonly joined: readonly string[];
  readonly cursor: string | null;
  readonly count: number;
}

/**
 * Checks a suffix scan query (for stores): `prefixes` and `joined` non-empty texts, none made
 * only of U+10FFFF, `values` absent or one boolean per prefix, `cursor` absent, `null` or a
 * string, `count` a positive safe integer. Throws a `TypeError` naming the problem.
 */
export function checkSuffixScanQuery(query: SuffixScanQuery): CheckedSuffixScanQuery {
  if (typeof query !== 'object' || query === null)
    throw new TypeError('scanSuffixes: expected { prefixes, count, … }');
  const { prefixes, values, joined = [], cursor = null, count } = query;
  if (!Array.isArray(prefixes) || prefixes.some((prefix) => typeof prefix !== 'string' || prefix === ''))
    throw new TypeError('scanSuffixes: prefixes must be non-empty strings');
  if (
    values !== undefined &&
    (!Array.isArray(values) ||
      values.length !== prefixes.length ||
      values.some((value) => typeof value !== 'boolean'))
  )
    throw new TypeError('scanSuffixes: values must hold one boolean per prefix');
  if (!Array.isArray(joined) || joined.some((prefix) => typeof prefix !== 'string' || prefix === ''))
    throw new TypeError('scanSuffixes: joined must be non-empty strings');
  if ([...prefixes, ...joined].some((prefix) => ONLY_MAX_CODE_POINTS.test(prefix)))
    throw new TypeError('scanSuffixes: a prefix made only of U+10FFFF has no upper bound');
  if (cursor !== null && typeof cursor !== 'string')
    throw new TypeError('scanSuffixes: cursor must be a string or null');
  if (!Number.isSafeInteger(count) || count < 1)
    throw new TypeError('scanSuffixes: count must be a positive integer');
  return {
    prefixes,
    values: values ?? prefixes.map(() => false),
    joined,
    cursor,
    count,
  };
}
