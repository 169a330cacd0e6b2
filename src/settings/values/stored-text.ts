import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { isEncryptedText, type SecretCipher } from '../secrets/secret-cipher';
import type { Framework_Setting } from '../setting';

/** What a stored text reads as. */
export interface StoredValue {
  /** The decoded value; `null` for nothing stored, text that breaks the rules, or an undecryptable secret. */
  readonly value: unknown;
  /** True when the text is a secret's ciphertext that could not be decrypted. */
  readonly unreadable: boolean;
}

const NOTHING: StoredValue = { value: null, unreadable: false };
const UNREADABLE_SECRET: StoredValue = { value: null, unreadable: true };

/**
 * Reads stored text as a value of `setting` (CONTRACT §4, §7): a secret's `enc:` text is
 * decrypted first (with `key` as the context); when that fails, or no cipher is configured,
 * it reads as nothing stored and is flagged unreadable. Plain text stored before a cipher was
 * configured still reads. Synchronous unless there is something to decrypt.
 */
export function readStoredText(
  setting: Framework_Setting,
  key: string,
  text: string | undefined,
  cipher: SecretCipher | undefined,
): StoredValue | Promise<StoredValue> {
  if (text === undefined) return NOTHING;
  const codec = setting.codec;
  if (!(setting.isSecret() && isEncryptedText(text)))
    return { value: codec.decode(text) ?? null, unreadable: false };
  if (cipher === undefined) return UNREADABLE_SECRET;
  return cipher.decrypt(text, key).then(
    (plain) =>
      typeof plain === 'string'
        ? { value: codec.decode(plain) ?? null, unreadable: false }
        : UNREADABLE_SECRET,
    () => UNREADABLE_SECRET,
  );
}

/**
 * The plain text of a stored text of `setting` (decrypted when it is a secret's ciphertext), or
 * `undefined` when unreadable. Synchronous unless there is something to decrypt.
 */
export function plainStoredText(
  setting: Framework_Setting,
  key: string,
  text: string | undefined,
  cipher: SecretCipher | undefined,
): string | undefined | Promise<string | undefined> {
  if (text === undefined || !(setting.isSecret() && isEncryptedText(text))) return text;
  if (cipher === undefined) return undefined;
  try {
    return cipher.decrypt(text, key).then(
      (plain) => plain,
      () => undefined,
    );
  } catch {
    return undefined;
  }
}

/** A valid value as it goes to the store: `text` (encrypted for a secret when there is a cipher) and its `plain` form. */
export interface TextToStore {
  /** What the store receives. */
  readonly text: string;
  /** The storage form before encryption (equal to `text` for non-secrets). */
  readonly plain: string;
}

/**
 * Encodes a valid value for the store; a secret is encrypted when there is a cipher, so its
 * plain text never reaches the store.
 *
 * @throws {@link Framework_Plugin_Exception} (400) for a secret, kept in plain text for lack of a
 *   cipher, whose text starts with `enc:` (it would read back as a ciphertext); an `Error` (a
 *   configuration fault, not the value's) when the cipher returns text that does not start with `enc:`;
 *   synchronous unless there is something to encrypt (a rejection then)
 */
export function writeStoredText(
  setting: Framework_Setting,
  key: string,
  value: unknown,
  cipher: SecretCipher | undefined,
): TextToStore | Promise<TextToStore> {
  const plain = setting.codec.encode(value);
  if (!setting.isSecret()) return { text: plain, plain };
  if (cipher === undefined) {
    if (isEncryptedText(plain)) {
      throw new Framework_Plugin_Exception(
        `Invalid value for setting "${setting.getId()}": a secret stored without a cipher cannot start with "enc:"`,
        400,
      );
    }
    return { text: plain, plain };
  }
  return cipher.encrypt(plain, key).then((text) => {
    if (typeof text !== 'string' || !isEncryptedText(text)) {
      throw new Error(
        `The secrets cipher returned, for setting "${setting.getId()}", text that does not start with "enc:": it would be stored as plain text`,
      );
    }
    return { text, plain };
  });
}
