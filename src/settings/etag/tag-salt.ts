import type { OptionStore } from '../../storage/option-store';
import { encodeBase64Url } from '../secrets/base64';
import { callStore } from '../store-calls';

const SALT_BYTES = 32;

/**
 * The random salt the entity tags of one container are keyed with, kept in the store beside the
 * values (so every instance on the store computes the same tags) and read with the global
 * values. Created on first need: with a store that has `commit`, only when absent, so that two
 * instances creating it at once agree on the winner.
 */
export class TagSalt {
  readonly #store: OptionStore;
  readonly #key: string;
  #text: string | undefined;
  #known = false;
  #creating: Promise<string> | undefined;

  /**
   * @param store - the container's store
   * @param key - the salt's key (`<prefix>_<plugin>:tag-salt`)
   */
  constructor(store: OptionStore, key: string) {
    this.#store = store;
    this.#key = key;
  }

  /** Whether the salt's stored state is known (read with the global values, or created). */
  get known(): boolean {
    return this.#known;
  }

  /** The salt when it is known and stored, without waiting (`undefined`: call {@link text}). */
  get current(): string | undefined {
    return this.#known ? this.#text : undefined;
  }

  /** Records the stored salt as a read found it. */
  loaded(text: string | undefined): void {
    this.#text = text;
    this.#known = true;
  }

  /** Forgets the salt (another instance changed it): the next tag reads it again. */
  forget(): void {
    this.#known = false;
    this.#text = undefined;
  }

  /** The salt, read or created when not known. Store failures reject with an `OptionStoreError`. */
  text(): Promise<string> {
    const current = this.current;
    if (current !== undefined) return Promise.resolve(current);
    this.#creating ??= this.#obtain().finally(() => {
      this.#creating = undefined;
    });
    return this.#creating;
  }

  async #obtain(): Promise<string> {
    const store = this.#store;
    // Known absent (read with the values just now): create it without asking again.
    const existing = this.#known ? this.#text : await callStore(store, 'get', () => store.get(this.#key));
    if (existing !== undefined && existing !== '') {
      this.loaded(existing);
      return existing;
    }
    const bytes = new Uint8Array(SALT_BYTES);
    crypto.getRandomValues(bytes);
    const created = encodeBase64Url(bytes);
    if (typeof store.commit === 'function') {
      const result = await callStore(store, 'commit', () =>
        store.commit!({ writes: [{ key: this.#key, value: created, expect: existing ?? null }] }),
      );
      const winner = result.ok ? created : (result.current.get(this.#key) ?? created);
      this.loaded(winner);
      return winner;
    }
    await callStore(store, 'set', () => store.set(this.#key, created));
    this.loaded(created);
    return created;
  }
}
