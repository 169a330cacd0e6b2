import type { StoreLogAppend } from './store-commit';
import { utf8Length } from './utf8-length';

/**
 * The part of one log append that can stay in the log: its newest entries within the log's
 * `keep` count and `maxBytes` byte bound, the newest one always (0.3). Entries older than those
 * would be trimmed right after the append, so every store drops them before writing anything.
 */
export interface KeptAppend {
  /** The entries that stay, oldest first. */
  readonly entries: readonly string[];
  /** Their tags (parallel to `entries`), or `undefined` when the append has none. */
  readonly tags: readonly string[] | undefined;
  /**
   * How many of the appended entries were dropped (they count as trimmed: the log lost them).
   * When any was, every entry the log held before goes too: it is older than a dropped one.
   */
  readonly dropped: number;
}

/** A {@link KeptAppend} with the UTF-8 lengths of its entries. */
export interface BoundedAppend extends KeptAppend {
  /** The UTF-8 lengths of `entries` (parallel to them). */
  readonly sizes: readonly number[];
  /** The sum of `sizes`. */
  readonly bytes: number;
}

/**
 * The entries of `log` that survive its own bounds (see {@link KeptAppend}). Measures them only
 * under a byte bound: without one, `keep` alone decides (the hot path of a write).
 */
export function keptEntries(log: StoreLogAppend): KeptAppend {
  if (log.maxBytes === undefined) {
    const dropped = Math.max(0, log.entries.length - log.keep);
    return dropped === 0 ? { entries: log.entries, tags: log.tags, dropped } : keep(log, dropped);
  }
  return boundAppend(log);
}

/** The entries of `log` that survive its own bounds, with their UTF-8 lengths. */
export function boundAppend(log: StoreLogAppend): BoundedAppend {
  const { entries, keep: count } = log;
  if (entries.length === 1) {
    // One entry (a write of one setting): the newest always stays.
    const size = utf8Length(entries[0]!);
    return { entries, tags: log.tags, dropped: 0, sizes: [size], bytes: size };
  }
  const maxBytes = log.maxBytes ?? Number.POSITIVE_INFINITY;
  const sizes: number[] = [];
  let bytes = 0;
  let first = entries.length;
  // From the newest back: the newest always stays, an older one while both bounds allow it.
  while (first > 0) {
    const size = utf8Length(entries[first - 1]!);
    const kept = entries.length - first;
    if (kept > 0 && (kept >= count || bytes + size > maxBytes)) break;
    sizes.push(size);
    bytes += size;
    first--;
  }
  sizes.reverse();
  const kept = keep(log, first);
  return { entries: kept.entries, tags: kept.tags, dropped: kept.dropped, sizes, bytes };
}

/** `log`'s entries and tags without the `dropped` oldest. */
function keep(log: StoreLogAppend, dropped: number): KeptAppend {
  if (dropped === 0) return { entries: log.entries, tags: log.tags, dropped };
  return { entries: log.entries.slice(dropped), tags: log.tags?.slice(dropped), dropped };
}
