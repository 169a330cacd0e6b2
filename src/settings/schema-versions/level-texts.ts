/**
 * One level's stored texts as the lifecycle commands work on them in memory (migrations, import
 * and restore plans): plain texts by setting id (secrets decrypted), which ids held ciphertext,
 * and which could not be decrypted.
 */
export class LevelTexts {
  /** The plain text by id. */
  readonly texts: Map<string, string>;
  /** Ids whose stored text was a ciphertext (it is written encrypted again, for its new key). */
  readonly encrypted: Set<string>;
  /** Ids whose ciphertext could not be decrypted: reading or moving them is an error. */
  readonly unreadable: Set<string>;

  /**
   * @param texts - plain texts by id
   * @param encrypted - ids whose text was a ciphertext
   * @param unreadable - ids whose ciphertext could not be decrypted
   */
  constructor(
    texts = new Map<string, string>(),
    encrypted = new Set<string>(),
    unreadable = new Set<string>(),
  ) {
    this.texts = texts;
    this.encrypted = encrypted;
    this.unreadable = unreadable;
  }

  /** A copy that can change without changing this one. */
  clone(): LevelTexts {
    return new LevelTexts(new Map(this.texts), new Set(this.encrypted), new Set(this.unreadable));
  }

  /** Whether `id` has a stored text (readable or not). */
  has(id: string): boolean {
    return this.texts.has(id) || this.unreadable.has(id);
  }

  /** Removes `id`. */
  remove(id: string): void {
    this.texts.delete(id);
    this.encrypted.delete(id);
    this.unreadable.delete(id);
  }

  /** Moves `from` to `to` (both flags included). */
  move(from: string, to: string): void {
    const text = this.texts.get(from);
    if (text !== undefined) this.texts.set(to, text);
    if (this.encrypted.has(from)) this.encrypted.add(to);
    else this.encrypted.delete(to);
    this.remove(from);
  }
}
