import { isNewerVersion } from '../../storage/versioned-reads';

/**
 * What one value level knows of one setting: the stored text at each level of its scope chain
 * (index 0 the level itself, the last the global level), each decoded (`null`: nothing
 * readable), and the resolved value — the nearest readable one — with its origin.
 *
 * Freshness follows the change feed: `markStale` counts a report that some text of the chain
 * changed elsewhere; a store access records `generation` when it starts and may mark the entry
 * fresh only when no report came in since (so a report arriving during a read is never lost).
 *
 * With a store of versioned change messages, each text of a current entry also keeps the
 * version it was read or announced at, and another instance's change is taken from its message
 * when its version is above that one ({@link applyChange}; docs/architecture.md, "Versioned
 * change messages").
 */
export class LevelEntry {
  /** The stored texts along the chain; `undefined`: nothing stored at that level. */
  readonly texts: (string | undefined)[];
  /** The decoded values along the chain; `null`: nothing stored, or unreadable. */
  readonly decoded: unknown[];
  /** The resolved value: the nearest readable one, `null` when none (the default then applies, unless {@link blocked}). */
  value: unknown = null;
  /** Index in the chain of the level `value` comes from; -1 when none. */
  originIndex = -1;
  /** Per chain level: the text is a secret that could not be decrypted. */
  readonly unreadableAt: boolean[];
  /**
   * Per chain level: the version of the text (see `storage/versioned-reads.ts`); `undefined`
   * when not known (this instance's own write, a store without versions). Meaningful while fresh.
   */
  readonly versions: (string | undefined)[];
  /**
   * True when the nearest stored text is a scope's secret that could not be decrypted: the value
   * is `null`, with no default and nothing inherited from further up (a scope's secret, another
   * merchant account's, never falls back to its parent's), and `originIndex` names that scope.
   */
  blocked = false;
  /** True when the texts are known to mirror the store. */
  fresh = false;
  /** Counts the reports that a text of the chain changed elsewhere. */
  generation = 0;
  /** The entity tag of the texts, computed on demand and dropped when a text changes. */
  tag: Promise<string> | undefined;
  /** The text of {@link tag} once it is known: a fresh entry then answers its tag without waiting. */
  tagText: string | undefined;

  /** @param depth - the length of the chain */
  constructor(depth: number) {
    this.texts = new Array<string | undefined>(depth).fill(undefined);
    this.decoded = new Array<unknown>(depth).fill(null);
    this.unreadableAt = new Array<boolean>(depth).fill(false);
    this.versions = new Array<string | undefined>(depth).fill(undefined);
  }

  /** True when the level's own text is a secret that could not be decrypted. */
  get unreadable(): boolean {
    return this.unreadableAt[0] === true;
  }

  /** Marks the texts as possibly out of date: the next read goes to the store. */
  markStale(): void {
    this.generation++;
    this.fresh = false;
  }

  /**
   * Sets the text at chain `index`, what it decodes to, whether it is a secret that could not be
   * decrypted, and its version (absent: not known).
   */
  setLevel(
    index: number,
    text: string | undefined,
    decoded: unknown,
    unreadable = false,
    version?: string,
  ): void {
    if (this.texts[index] !== text) {
      this.tag = undefined;
      this.tagText = undefined;
    }
    this.texts[index] = text;
    this.decoded[index] = decoded ?? null;
    this.unreadableAt[index] = unreadable;
    this.versions[index] = version;
  }

  /**
   * Takes another instance's change of the text at chain `index` from its message, when the
   * entry is current and the text's version is known and below `version`; answers whether it did
   * (else the caller marks the entry stale). The caller has checked that no read or write of this
   * instance holds the key: one would set the entry from a state the version cannot be compared with.
   */
  applyChange(index: number, text: string | undefined, decoded: unknown, version: string): boolean {
    const known = this.versions[index];
    if (!this.fresh || known === undefined || !isNewerVersion(version, known)) return false;
    this.setLevel(index, text, decoded, false, version);
    this.settle(this.generation);
    return true;
  }

  /**
   * Recomputes the resolved value after `setLevel`, and records a store access started at
   * `startedAt`. The nearest readable text wins; an unreadable secret at a scope stops the walk
   * (see {@link blocked}); one at the global level reads as nothing stored (CONTRACT §7).
   */
  settle(startedAt: number): void {
    const last = this.decoded.length - 1;
    let index = 0;
    while (index <= last && this.decoded[index] === null && !(index < last && this.unreadableAt[index])) {
      index++;
    }
    this.blocked = index < last && this.decoded[index] === null;
    this.originIndex = index <= last ? index : -1;
    this.value = index <= last ? this.decoded[index] : null;
    this.fresh = startedAt === this.generation;
  }
}
