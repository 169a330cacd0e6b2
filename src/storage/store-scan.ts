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
