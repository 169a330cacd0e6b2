/**
 * What a settings container knows of its stored secrets between two audits (the status report
 * audits them on every request): the verdict on each stored secret text from the last audit,
 * and the keys that changed since — written by this instance (every commit of the settings layer
 * reports its keys) or reported by the store's change feed. An audit then reads and judges only
 * those keys, instead of every stored secret of every scope.
 *
 * The verdicts are trusted only while the change feed runs without a gap: a resync, a write
 * that ended after its time limit, or more than {@link MAX_WATCHED_SECRETS} secrets or changed
 * keys make the next audit a full one. A verdict is kept with the exact text it was made for, so
 * a full audit decrypts only texts it has not judged before.
 */
export class SecretWatch {
  /** The last audit's verdicts by stored key, when later audits can build on them. */
  #verdicts: Map<string, SecretVerdict> | null = null;
  /** Earlier verdicts, for texts a full audit finds unchanged (not decrypted again). */
  #known = new Map<string, SecretVerdict>();
  /**
   * The keys changed since the last audit, each with the text this instance wrote there (`null`:
   * deleted), or `undefined` when another instance changed it (the audit reads it).
   */
  #changed = new Map<string, string | null | undefined>();
  /** Counts the gaps (`lost`): a full audit that started before one is not built on. */
  #generation = 0;
  /** The generation of the full audit under way, or 0. */
  #auditing = 0;

  /** Whether an audit may judge only the changed keys. */
  get current(): boolean {
    return this.#verdicts !== null;
  }

  /** Whether changes are noted now (an audit was made, or one is under way). */
  get listening(): boolean {
    return this.#verdicts !== null || this.#auditing !== 0;
  }

  /**
   * A stored secret's key changed: written by this instance (`written`: the text its commit
   * stored, `null` for a delete), or reported by the change feed (`written` absent). A change
   * reported and not yet audited stays one to read: this instance's own commit may resolve after
   * a later commit of another one was reported.
   */
  changed(key: string, written?: string | null): void {
    if (this.#verdicts === null && this.#auditing === 0) return;
    if (written === undefined || !this.#changed.has(key) || this.#changed.get(key) !== undefined) {
      this.#changed.set(key, written);
    }
    if (this.#changed.size > MAX_WATCHED_SECRETS) this.lost();
  }

  /** Changes may have been missed: the next audit reads every stored secret. */
  lost(): void {
    if (this.#verdicts !== null) this.#known = this.#verdicts;
    this.#verdicts = null;
    this.#changed.clear();
    this.#auditing = 0;
    this.#generation++;
  }

  /**
   * The keys changed since the last audit, with the text this instance wrote there (`null`:
   * deleted; `undefined`: to be read). Emptied: changes from now on are new.
   */
  takeChanged(): Map<string, string | null | undefined> {
    const changed = this.#changed;
    this.#changed = new Map();
    return changed;
  }

  /** The verdict of an earlier audit on `text` stored under `key` (`undefined`: not judged, or changed). */
  known(key: string, text: string): SecretVerdict | undefined {
    const verdict = (this.#verdicts ?? this.#known).get(key);
    return verdict !== undefined && verdict.text === text ? verdict : undefined;
  }

  /**
   * Starts a full audit: changes from now on are kept for the next audit (the full one may
   * have read a key before it changed). Returns the audit's generation, for {@link finishFull}.
   */
  startFull(): number {
    this.lost();
    this.#auditing = this.#generation;
    return this.#generation;
  }

  /** Ends a full audit: later audits build on its verdicts, unless a gap came meanwhile or there are too many. */
  finishFull(generation: number, verdicts: Map<string, SecretVerdict>): void {
    if (generation !== this.#generation) return;
    this.#auditing = 0;
    this.#known = new Map();
    if (verdicts.size <= MAX_WATCHED_SECRETS) this.#verdicts = verdicts;
    else this.#changed.clear();
  }

  /** The verdicts an audit that builds on the last one updates in place (only while {@link current}). */
  verdicts(): Map<string, SecretVerdict> {
    return this.#verdicts ?? new Map();
  }
}

/** What an audit found for one stored secret text. */
export interface SecretVerdict {
  /** The stored text judged. */
  readonly text: string;
  /** `ok` (decrypts), `unreadable` (does not), `plaintext` (not encrypted, with a cipher). */
  readonly state: 'ok' | 'unreadable' | 'plaintext';
  /** The setting's position in registration order. */
  readonly order: number;
  /** How the audit names it: `id` for the global value, `id@scope` for a scope's. */
  readonly named: string;
  /** Whether it is the global value (listed before the scopes). */
  readonly global: boolean;
}

/** The most stored secrets (and changed keys) a container follows between audits. */
export const MAX_WATCHED_SECRETS = 4096;
