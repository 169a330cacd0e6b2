import type { LogPage, LogPageQuery } from '../../storage/store-log';
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

/** How {@link readHistoryPage} reads a log. */
export interface LogPager {
  /** Reads one page of the log (newest first). */
  page(query: LogPageQuery): Promise<LogPage>;
  /** True when the store reads pages itself (`readLogPage`); false when `page` reads the whole (bounded) log. */
  readonly paged: boolean;
}

/** A limit meaning "all of them". */
const ALL = 2 ** 31 - 1;
/** How many entries one step of a walk towards a `before` entry reads. */
const WALK_PAGE = 100;

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

/**
 * One page of a level's history, newest first, and how many entries match in all. With a store
 * that reads pages, only the page is read (a `before` entry is reached a page at a time, holding
 * one page in memory); with one that does not, the whole log — bounded by `historyLimit` and
 * `historyMaxBytes` — is read and cut here.
 */
export async function readHistoryPage(
  pager: LogPager,
  query: Pick<HistoryQuery, 'settingId' | 'before' | 'limit'> & { readonly offset?: number },
  parse: (text: string) => HistoryEntry | null,
): Promise<HistoryPage> {
  const limit = query.limit ?? ALL;
  const offset = query.offset ?? 0;
  const tag = query.settingId;
  if (!pager.paged) {
    const all = (await pager.page({ limit: ALL })).entries.flatMap((text) => parse(text) ?? []);
    const matching = selectEntries(all, { settingId: tag, before: query.before });
    return { entries: matching.slice(offset, offset + limit), total: matching.length };
  }
  if (query.before === undefined) {
    const page = await pager.page({ limit: Math.max(1, limit), offset, tag });
    return { entries: page.entries.flatMap((text) => parse(text) ?? []), total: page.total };
  }
  // Walk towards the `before` entry a page at a time, then collect the entries after it.
  const before = query.before;
  const selected: HistoryEntry[] = [];
  let skipped = 0;
  let found = false;
  let total = 0;
  for (let at = 0; selected.length < limit; at += WALK_PAGE) {
    const page = await pager.page({ limit: WALK_PAGE, offset: at, tag });
    total = page.total;
    for (const text of page.entries) {
      const entry = parse(text);
      if (entry === null) continue;
      if (!found) {
        if (entry.id === before) {
          found = true;
          continue;
        }
        // An entry trimmed away: its id still orders it (ids sort by creation time).
        if (entry.id >= before) continue;
        found = true;
      }
      if (skipped < offset) skipped++;
      else if (selected.length < limit) selected.push(entry);
    }
    if (page.entries.length < WALK_PAGE) break;
  }
  return { entries: selected, total };
}
