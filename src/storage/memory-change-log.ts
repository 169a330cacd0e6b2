import { boundAppend } from './log-bounds';
import type { StoreLogAppend } from './store-commit';
import type { CheckedLogPageQuery, LogPage } from './store-log';

/**
 * One change log of a {@link MemoryOptionStore}: its entries oldest first, each with its tag and
 * UTF-8 length, their byte total, and whether the log ever lost entries to its bounds.
 */
export class MemoryChangeLog {
  readonly #entries: string[] = [];
  readonly #tags: Array<string | undefined> = [];
  readonly #sizes: number[] = [];
  #bytes = 0;
  #trimmed = false;

  /** Appends the entries of `log` that its bounds let stay, then trims the oldest beyond `keep` and `maxBytes`. */
  append(log: StoreLogAppend): void {
    const bounded = boundAppend(log);
    let drop = 0;
    if (bounded.dropped > 0) {
      // Older than a dropped entry: every entry the log held goes.
      this.#trimmed = true;
      drop = this.#entries.length;
    }
    bounded.entries.forEach((entry, index) => {
      this.#entries.push(entry);
      this.#tags.push(bounded.tags?.[index]);
      this.#sizes.push(bounded.sizes[index]!);
    });
    this.#bytes += bounded.bytes;
    const maxBytes = log.maxBytes ?? Number.POSITIVE_INFINITY;
    for (let index = 0; index < drop; index++) this.#bytes -= this.#sizes[index]!;
    // The newest entry always stays.
    while (
      this.#entries.length - drop > 1 &&
      (this.#entries.length - drop > log.keep || this.#bytes > maxBytes)
    ) {
      this.#bytes -= this.#sizes[drop]!;
      drop++;
    }
    if (drop === 0) return;
    this.#trimmed = true;
    this.#entries.splice(0, drop);
    this.#tags.splice(0, drop);
    this.#sizes.splice(0, drop);
  }

  /** The newest `limit` entries, newest first. */
  read(limit: number): string[] {
    return this.#entries.slice(Math.max(0, this.#entries.length - limit)).reverse();
  }

  /** One page of the entries (of one tag), newest first, with the count of matching entries. */
  page({ limit, offset, tag }: CheckedLogPageQuery): LogPage {
    const matching: string[] = [];
    for (let index = this.#entries.length - 1; index >= 0; index--) {
      if (tag === undefined || this.#tags[index] === tag) matching.push(this.#entries[index]!);
    }
    return {
      entries: matching.slice(offset, offset + limit),
      total: matching.length,
      trimmed: this.#trimmed,
    };
  }
}
