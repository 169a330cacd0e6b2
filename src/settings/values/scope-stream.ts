import type { ScanPage, SuffixScanPage } from '../../storage/store-scan';
import type { SettingsSchema } from '../schema/settings-schema';
import type { LevelServices } from './level-services';
import { KEY_PAGE_SIZE, storedKeyPages } from './stored-keys';

/** A scope found holding values of a plugin. */
export interface FoundScope {
  /** The scope path. */
  readonly scope: string;
  /**
   * The ids with a stored value at the scope, when the store's scans are ordered (every scope then
   * comes once). `undefined` for an unordered store: the scope may come once per id it holds, and
   * `via` says under which id's keys it was found this time.
   */
  readonly present: ReadonlySet<string> | undefined;
  /** The id under whose keys the scope was found (with `present`: the first of its ids). */
  readonly via: string;
  /**
   * Read with the scan (ordered stores): the stored text of each id in `present`, and the text of
   * the scope's migration marker (`undefined`: none). Absent: the consumer reads them.
   */
  readonly read?: { readonly texts: ReadonlyMap<string, string>; readonly marker: string | undefined };
}

/** How many batches one page of a merged scan holds. */
const PAGE_BATCHES = 2;

/** Texts end to end in one string, the `i`-th ending at `ends[i]`. */
interface PackedTexts {
  readonly joined: string;
  readonly ends: Uint32Array;
}

/** `texts` as one string and their ends. */
function pack(texts: readonly string[]): PackedTexts {
  const ends = new Uint32Array(texts.length);
  let end = 0;
  for (let index = 0; index < texts.length; index++) {
    end += texts[index]!.length;
    ends[index] = end;
  }
  return { joined: texts.join(''), ends };
}

/** The `at`-th of packed texts. */
function unpack(joined: string, ends: Uint32Array, at: number): string {
  return joined.slice(at === 0 ? 0 : ends[at - 1], ends[at]);
}

/**
 * One prefix's ordered scan, a page at a time with the stored texts (one round trip for keys and
 * values) or without them, its keys turned into scope paths.
 */
class ScopeCursor {
  readonly id: string;
  readonly #services: LevelServices;
  readonly #prefix: string;
  readonly #values: boolean;
  readonly #pageSize: number;
  /**
   * The page's scope paths end to end in one string, each from `#ends[at - 1]` (0 first) to
   * `#ends[at]`: one object per page instead of a key string per scope, which lives as long as
   * the page is merged (several batches and their commits) and so would be promoted to the old
   * generation, a page of every cursor at a time.
   */
  #scopes = '';
  #ends: Uint32Array = new Uint32Array(0);
  /** The page's stored texts, kept the same way; none when the scan reads no values. */
  #texts: PackedTexts | undefined;
  #at = 0;
  #cursor: string | null = null;
  #done = false;
  /** The next page, being read. */
  #next: Promise<ScanPage> | undefined;

  constructor(services: LevelServices, prefix: string, id: string, values: boolean, pageSize: number) {
    this.id = id;
    this.#pageSize = pageSize;
    this.#services = services;
    this.#prefix = prefix;
    this.#values = values;
  }

  /** Whether {@link peek} can answer without reading a page. */
  get ready(): boolean {
    return this.#at < this.#ends.length || this.#done;
  }

  /** The current scope when {@link ready}, `undefined` at the end. */
  peek(): string | undefined {
    const at = this.#at;
    if (at >= this.#ends.length) return undefined;
    return unpack(this.#scopes, this.#ends, at);
  }

  /** The current scope, `undefined` at the end (reads the next page when this one is used up). */
  async head(): Promise<string | undefined> {
    while (!this.ready) {
      const page = await (this.#next ?? this.#read(this.#cursor));
      this.#next = undefined;
      const scopes = page.items.map((key) => key.slice(this.#prefix.length));
      const packed = pack(scopes);
      this.#scopes = packed.joined;
      this.#ends = packed.ends;
      this.#texts = page.values === undefined ? undefined : pack(page.values);
      this.#at = 0;
      this.#cursor = page.cursor;
      if (page.cursor === null) this.#done = true;
      else {
        // The next page is read while this one is merged: the merge never waits for the pages
        // of every cursor at once. Its failure is met by the `head` that awaits it.
        this.#next = this.#read(page.cursor);
        this.#next.catch(() => {});
      }
    }
    return this.peek();
  }

  /** One page of the scan from `cursor`. */
  #read(cursor: string | null): Promise<ScanPage> {
    const store = this.#services.store;
    const values = this.#values;
    return this.#services.call('scan', () =>
      store.scan!({ prefix: this.#prefix, cursor, count: this.#pageSize, values }),
    );
  }

  /** The current key's stored text. */
  text(): string | undefined {
    const texts = this.#texts;
    if (texts === undefined || this.#at >= texts.ends.length) return undefined;
    return unpack(texts.joined, texts.ends, this.#at);
  }

  advance(): void {
    this.#at++;
  }
}

/**
 * Every scope holding a stored value under one of `ids` (`${base}_${id}@…`), in batches of
 * `batchSize`, with memory bounded by two pages per id: where the store's scans are ordered
 * (PostgreSQL, memory) the scans of every id — and of the migration markers — are merged, values
 * beside keys, so each scope comes once, in code-unit order, with the ids it holds, their texts and
 * its marker (no further read); elsewhere (Redis) the ids are scanned one after the other and a
 * scope comes once per id it holds (`present` undefined: the consumer tells repeats apart and
 * reads the values). With `valueIds`, only those ids' texts are read (the others' keys say
 * which scopes hold them).
 */
export async function* streamScopes(
  services: LevelServices,
  schema: SettingsSchema,
  ids: readonly string[],
  batchSize: number,
  valueIds?: ReadonlySet<string>,
): AsyncGenerator<FoundScope[]> {
  if (ids.length === 0) return;
  // A store that merges the scans itself answers a page of every id in one round trip: merged
  // cursors send one statement per id and page (about 10,000 for a migration of 100,000 scopes ×
  // 20 settings, each costing the client about 0.1 ms of system calls), and hold a page per id.
  if (typeof services.store.scanSuffixes === 'function') {
    yield* suffixScopes(services, schema, ids, batchSize, valueIds);
    return;
  }
  const ordered = await scopesStreamInOrder(services, schema, ids[0]!);
  let batch: FoundScope[] = [];
  if (!ordered) {
    for (const id of ids) {
      for await (const page of storedKeyPages(services, schema.scopedKeyPrefix(id), KEY_PAGE_SIZE)) {
        const prefix = schema.scopedKeyPrefix(id).length;
        for (const scope of new Set(page.map((key) => key.slice(prefix)))) {
          batch.push({ scope, present: undefined, via: id });
          if (batch.length >= batchSize) {
            yield batch;
            batch = [];
          }
        }
      }
    }
  } else {
    // Pages of two batches, the next one read while this one is merged: a page lives a few
    // batches, too short a time for the garbage collector to move it to the old generation.
    // Pages of 1,000 keys did get there, every cursor's, and piled up as garbage until a full
    // collection: 50 to 130 MB of heap over a migration of 100,000 scopes, against about 30 MB.
    const pageSize = Math.min(KEY_PAGE_SIZE, Math.max(batchSize * PAGE_BATCHES, 1));
    const cursors = ids.map(
      (id) =>
        new ScopeCursor(
          services,
          schema.scopedKeyPrefix(id),
          id,
          valueIds === undefined || valueIds.has(id),
          pageSize,
        ),
    );
    const markers = new ScopeCursor(services, schema.levelMarkerKey(''), '', true, pageSize);
    const heads: (string | undefined)[] = new Array(cursors.length);
    for (;;) {
      // Only cursors at the end of their page wait (for their next pages, together).
      const waiting = cursors.filter((cursor) => !cursor.ready);
      if (waiting.length > 0) await Promise.all(waiting.map((cursor) => cursor.head()));
      let least: string | undefined;
      for (let index = 0; index < cursors.length; index++) {
        const head = cursors[index]!.peek();
        heads[index] = head;
        if (head !== undefined && (least === undefined || head < least)) least = head;
      }
      if (least === undefined) break;
      const present = new Set<string>();
      const texts = new Map<string, string>();
      for (let index = 0; index < cursors.length; index++) {
        if (heads[index] !== least) continue;
        const cursor = cursors[index]!;
        present.add(cursor.id);
        const text = cursor.text();
        if (text !== undefined) texts.set(cursor.id, text);
        cursor.advance();
      }
      // Markers of scopes without values are passed over.
      let marker: string | undefined;
      for (
        let at = markers.ready ? markers.peek() : await markers.head();
        at !== undefined && at <= least;
        at = markers.ready ? markers.peek() : await markers.head()
      ) {
        if (at === least) marker = markers.text();
        markers.advance();
      }
      batch.push({ scope: least, present, via: [...present][0]!, read: { texts, marker } });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * {@link streamScopes} on a store with `scanSuffixes`: the scopes of every id, their texts and
 * markers come merged from the store, a page of two batches per round trip, the next page read
 * while this one is migrated.
 */
async function* suffixScopes(
  services: LevelServices,
  schema: SettingsSchema,
  ids: readonly string[],
  batchSize: number,
  valueIds: ReadonlySet<string> | undefined,
): AsyncGenerator<FoundScope[]> {
  const store = services.store;
  const prefixes = ids.map((id) => schema.scopedKeyPrefix(id));
  const values = ids.map((id) => valueIds === undefined || valueIds.has(id));
  const joined = [schema.levelMarkerKey('')];
  const count = Math.max(batchSize * PAGE_BATCHES, 1);
  const read = (cursor: string | null) => {
    const page = services.call('scanSuffixes', () =>
      store.scanSuffixes!({ prefixes, values, joined, cursor, count }),
    );
    // Met by the `await` below; a page read ahead and never awaited is not an unhandled rejection.
    page.catch(() => {});
    return page;
  };
  let batch: FoundScope[] = [];
  for (let next: Promise<SuffixScanPage> | undefined = read(null); next !== undefined; ) {
    const page: SuffixScanPage = await next;
    next = page.cursor === null ? undefined : read(page.cursor);
    for (let row = 0; row < page.suffixes.length; row++) {
      const held = page.held[row]!;
      const pageTexts = page.texts[row]!;
      const present = new Set<string>();
      const texts = new Map<string, string>();
      let text = 0;
      for (const index of held) {
        const id = ids[index]!;
        present.add(id);
        if (values[index]) texts.set(id, pageTexts[text++]!);
      }
      const marker = page.joined[row]![0] ?? undefined;
      batch.push({ scope: page.suffixes[row]!, present, via: ids[held[0]!]!, read: { texts, marker } });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Whether {@link streamScopes} gives each scope once, in order: on a store with `scanSuffixes`
 * (no round trip), or whose scans come ordered (one probe page of one prefix).
 */
export async function scopesStreamInOrder(
  services: LevelServices,
  schema: SettingsSchema,
  id: string,
): Promise<boolean> {
  const store = services.store;
  if (typeof store.scanSuffixes === 'function') return true;
  if (typeof store.scan !== 'function') return false;
  const prefix = schema.scopedKeyPrefix(id);
  const page = await services.call('scan', () => store.scan!({ prefix, count: 1 }));
  return page.ordered === true;
}
