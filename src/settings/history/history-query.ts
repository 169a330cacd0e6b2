import type { HistoryEntry } from './history-entry';

/** Options of `getHistory`. */
export interface HistoryQuery {
  /** Only the entries of this setting. */
  readonly settingId?: string;
  /** The level whose entries to read: a scope path; absent for the global level. */
  readonly scope?: string;
  /** At most this many entries (default: all that are kept). */
  readonly limit?: number;
  /** Only entries older than the entry with this id. */
  readonly before?: string;
}

/** A page of history entries (the REST routes' `page` / `per_page`). */
export interface HistoryPage {
  /** The entries of the page, newest first. */
  readonly entries: readonly HistoryEntry[];
  /** How many entries match in all (the `X-Total` header). */
  readonly total: number;
}

/** The entries of `all` (newest first) that match `settingId` and come after `before`, at most `limit`. */
export function selectEntries(
  all: readonly HistoryEntry[],
  query: Pick<HistoryQuery, 'settingId' | 'before' | 'limit'>,
): HistoryEntry[] {
  let start = 0;
  if (query.before !== undefined) {
    const index = all.findIndex((entry) => entry.id === query.before);
    // An entry trimmed away: its id still orders it (ids sort by creation time).
    start = index !== -1 ? index + 1 : all.findIndex((entry) => entry.id < query.before!);
    if (start === -1) return [];
  }
  const selected: HistoryEntry[] = [];
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  for (let index = start; index < all.length && selected.length < limit; index++) {
    const entry = all[index]!;
    if (query.settingId === undefined || entry.setting_id === query.settingId) selected.push(entry);
  }
  return selected;
}
