/**
 * Reading a change log one page at a time (the optional `OptionStore.readLogPage` capability,
 * 0.3): one page of history crosses the wire, never the whole log (a store may read the
 * entries its bounds keep to count them: PostgreSQL does).
 */

/** Which entries of a log to read. */
export interface LogPageQuery {
  /** At most this many entries (at least 1). */
  readonly limit: number;
  /** How many of the matching entries to skip, newest first. Default 0. */
  readonly offset?: number | undefined;
  /** Only the entries appended with this tag (`StoreLogAppend.tags`). Absent: every entry. */
  readonly tag?: string | undefined;
}

/** One page of a change log. */
export interface LogPage {
  /** The entries, newest first. */
  readonly entries: string[];
  /** How many entries of the log match the query's `tag` (all of them without one), whatever the page. */
  readonly total: number;
  /**
   * Whether the log ever lost entries to its `keep` or `maxBytes` bound: when true, what is kept
   * may not reach back to the first change.
   */
  readonly trimmed: boolean;
}

/** A {@link LogPageQuery} with its defaults applied, as stores read it. */
export interface CheckedLogPageQuery {
  readonly limit: number;
  readonly offset: number;
  readonly tag: string | undefined;
}

/**
 * Checks a page query (for stores): `limit` a positive safe integer, `offset` absent or a
 * non-negative safe integer, `tag` absent or a string. Throws a `TypeError` naming the problem;
 * answers the query with its defaults applied.
 */
export function checkLogPageQuery(query: LogPageQuery): CheckedLogPageQuery {
  if (typeof query !== 'object' || query === null) throw new TypeError('readLogPage: expected { limit, … }');
  const { limit, offset = 0, tag } = query;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new TypeError('readLogPage: limit must be a positive integer');
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new TypeError('readLogPage: offset must be a non-negative integer');
  }
  if (tag !== undefined && typeof tag !== 'string') throw new TypeError('readLogPage: tag must be a string');
  return { limit, offset, tag };
}
