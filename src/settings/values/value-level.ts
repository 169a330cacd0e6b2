import type { Framework_Setting } from '../setting';
import { LevelEntry } from './level-entry';
import type { LevelServices } from './level-services';
import { readStoredText, type StoredValue } from './stored-text';

/**
 * The cached values of one level: the global level (`path` `''`, whose entries live on the
 * settings themselves, so that `Framework_Setting.getValue()` reads it) or one scope. Each entry
 * holds the texts of the whole scope chain, so a level resolves its values on its own and can be
 * evicted on its own. Reads of stale entries share one `getMany` (concurrent readers share a
 * read already in flight).
 */
export class ValueLevel {
  /** `''` for the global level, else the scope path. */
  readonly path: string;
  /** The levels a value is resolved through, nearest first (`['eu/de', 'eu', '']`). */
  readonly chain: readonly string[];
  readonly #services: LevelServices;
  readonly #entries = new Map<Framework_Setting, LevelEntry>();
  readonly #pendingReads = new Map<LevelEntry, { read: Promise<void>; generation: number }>();
  /** The container's view of this level, kept with it (so `scope(path)` of a cached level allocates nothing and checks nothing). */
  view: object | undefined;

  /**
   * @param path - `''` or a scope path
   * @param chain - `scopeChain(path)`
   * @param services - the container's store access
   */
  constructor(path: string, chain: readonly string[], services: LevelServices) {
    this.path = path;
    this.chain = chain;
    this.#services = services;
  }

  /** The entry of `setting` (created empty and stale when this level has none yet). */
  entry(setting: Framework_Setting): LevelEntry {
    if (this.path === '') return setting.globalEntry;
    let entry = this.#entries.get(setting);
    if (entry === undefined) {
      entry = new LevelEntry(this.chain.length);
      this.#entries.set(setting, entry);
    }
    return entry;
  }

  /** The entry of `setting` when this level has one. */
  peek(setting: Framework_Setting): LevelEntry | undefined {
    return this.path === '' ? setting.globalEntry : this.#entries.get(setting);
  }

  /** Marks every entry stale (a resync of the change feed). */
  markAllStale(settings: Iterable<Framework_Setting>): void {
    for (const setting of settings) this.peek(setting)?.markStale();
  }

  /** The storage key of `setting` at index `index` of this level's chain. */
  keyOf(setting: Framework_Setting, index: number): string {
    return this.#services.schema.keyOf(setting.getId(), this.chain[index]!);
  }

  /** The index of `level` in this level's chain, or -1 when values stored there do not reach this level. */
  indexOf(level: string): number {
    return this.chain.indexOf(level);
  }

  /** Reads from the store the entries of `settings` that are not fresh, sharing reads in flight; nothing when all are fresh. */
  ensureFresh(settings: Iterable<Framework_Setting>, withSalt = false): Promise<void> {
    const waits: Promise<void>[] = [];
    const toRead: Framework_Setting[] = [];
    for (const setting of settings) {
      const entry = this.entry(setting);
      if (entry.fresh) continue;
      const pending = this.#pendingReads.get(entry);
      if (pending !== undefined && pending.generation === entry.generation) waits.push(pending.read);
      else toRead.push(setting);
    }
    if (toRead.length > 0) waits.push(this.read(toRead, withSalt));
    if (waits.length === 0) return Promise.resolve();
    return waits.length === 1 ? waits[0]! : Promise.all(waits).then(() => undefined);
  }

  /**
   * Reads the chain texts of `settings` from the store in one `getMany` (after queued writes
   * to those keys) and sets their entries; `withSalt`: the entity tags' salt too, when it is not
   * known yet (so that a first tagged answer costs one round trip).
   */
  read(settings: readonly Framework_Setting[], withSalt = false): Promise<void> {
    if (settings.length === 0) return Promise.resolve();
    const { schema, cipher, salt, versions } = this.#services;
    const chain = this.chain;
    const keys: string[] = [];
    for (const setting of settings)
      for (const level of chain) keys.push(schema.keyOf(setting.getId(), level));
    const entries = settings.map((setting) => this.entry(setting));
    const readSalt = withSalt && !salt.known;
    const read = this.#services.queued('getMany', keys, async () => {
      const startedAt = entries.map((entry) => entry.generation);
      // A scope's read fetches the global texts too: stale global entries are settled with them,
      // so that a global read after a cold scoped read costs no second round trip.
      const globals = this.path === '' ? [] : settings.map((setting) => setting.globalEntry);
      const globalStartedAt = globals.map((entry) => (entry.fresh ? -1 : entry.generation));
      // The schema record comes along with the first read (docs/architecture.md, "Schema versions").
      const readRecord = !versions.known;
      const asked =
        readSalt || readRecord
          ? [
              ...keys,
              ...(readSalt ? [schema.tagSaltKey] : []),
              ...(readRecord ? [schema.schemaRecordKey] : []),
            ]
          : keys;
      const { texts: found, versionOf } = await this.#services.read(asked);
      if (readSalt && !salt.known) salt.loaded(found.get(schema.tagSaltKey));
      if (readRecord && !versions.known) versions.loaded(found.get(schema.schemaRecordKey));
      const decoding: (StoredValue | Promise<StoredValue>)[] = [];
      settings.forEach((setting, index) => {
        for (let level = 0; level < chain.length; level++) {
          const key = keys[index * chain.length + level]!;
          decoding.push(readStoredText(setting, key, found.get(key), cipher));
        }
      });
      const decoded = decoding.some((item) => item instanceof Promise)
        ? await Promise.all(decoding)
        : (decoding as StoredValue[]);
      entries.forEach((entry, index) => {
        for (let level = 0; level < chain.length; level++) {
          const at = index * chain.length + level;
          const stored = decoded[at]!;
          const key = keys[at]!;
          entry.setLevel(level, found.get(key), stored.value, stored.unreadable, versionOf(key));
        }
        entry.settle(startedAt[index]!);
      });
      globals.forEach((entry, index) => {
        const startedAt = globalStartedAt[index]!;
        // Only an entry that was stale and saw no change report since (its generation unchanged).
        if (startedAt === -1 || entry.fresh || entry.generation !== startedAt) return;
        const at = index * chain.length + chain.length - 1;
        const stored = decoded[at]!;
        const key = keys[at]!;
        entry.setLevel(0, found.get(key), stored.value, stored.unreadable, versionOf(key));
        entry.settle(startedAt);
      });
    });
    for (const entry of entries) this.#pendingReads.set(entry, { read, generation: entry.generation });
    read.then(
      () => this.#forget(entries, read),
      () => this.#forget(entries, read),
    );
    return read;
  }

  /** A read settled: the entries it was the pending read of have none. */
  #forget(entries: readonly LevelEntry[], read: Promise<void>): void {
    for (const entry of entries)
      if (this.#pendingReads.get(entry)?.read === read) this.#pendingReads.delete(entry);
  }
}
