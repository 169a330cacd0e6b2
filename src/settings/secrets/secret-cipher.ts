/**
 * The interface through which the settings layer encrypts secrets at rest (CONTRACT §7).
 */

/**
 * The prefix every encrypted storage form starts with. Stored text of a secret that starts
 * with it is decrypted on read; any other stored text is plain text written before a cipher
 * was configured.
 */
export const ENCRYPTED_TEXT_PREFIX = 'enc:';

/**
 * Encrypts and decrypts secret setting values for storage.
 *
 * The package ships one implementation, {@link createAesGcmCipher} (AES-256-GCM through
 * WebCrypto, keys held by the process). A host that keeps its keys elsewhere (AWS KMS, Google
 * Cloud KMS, HashiCorp Vault transit, an HSM) implements this interface itself; see
 * `examples/kms-envelope-cipher` for an envelope-encryption cipher.
 *
 * Rules every implementation follows:
 * - `encrypt` resolves to text that starts with {@link ENCRYPTED_TEXT_PREFIX} (`enc:`), so that
 *   the settings layer can tell it from plain text stored before a cipher was configured. Add a
 *   scheme and version after it (`enc:v1:…`, `enc:kms1:…`) so that the format can evolve.
 * - `context` is the storage key of the setting (`framework_acme_api_key`). Bind the ciphertext
 *   to it as additional authenticated data: text copied to another storage key must not
 *   decrypt there. The context is not secret.
 * - Two encryptions of the same plain text should differ (a fresh random IV or nonce each time).
 * - `decrypt(await encrypt(plain, context), context)` resolves to `plain` for every string,
 *   including the empty string and astral characters.
 * - `decrypt` rejects when it cannot give back the exact plain text: a foreign format or
 *   version, an unknown key, malformed or truncated text, failed authentication (tampering, a
 *   wrong context). It never resolves to a guess.
 * - Neither method throws synchronously, and no rejection's message contains the plain text,
 *   the stored text or key material (messages end up in logs).
 *
 * @example
 * ```ts
 * const cipher: SecretCipher = createAesGcmCipher([{ id: '2024-06', key: process.env.SETTINGS_KEY! }]);
 * const stored = await cipher.encrypt('sk_live_123', 'framework_acme_api_key'); // 'enc:v1:2024-06:…'
 * await cipher.decrypt(stored, 'framework_acme_api_key'); // 'sk_live_123'
 * ```
 */
export interface SecretCipher {
  /**
   * Encrypts a secret for storage.
   *
   * @param plain - the secret value, any well-formed string (empty included)
   * @param context - the storage key the result will be stored under; authenticated, not encrypted
   * @returns text starting with `enc:` that only {@link SecretCipher.decrypt} with the same
   *   `context` turns back into `plain`
   */
  encrypt(plain: string, context: string): Promise<string>;

  /**
   * Decrypts text produced by {@link SecretCipher.encrypt}.
   *
   * @param stored - the stored text, starting with `enc:`
   * @param context - the storage key the text was read from
   * @returns the plain text
   * @throws (as a rejection) when the text cannot be decrypted: another format or version, an
   *   unknown key, malformed or truncated text, failed authentication (altered text, another
   *   context, another key). The message names the reason, never the stored or plain text.
   */
  decrypt(stored: string, context: string): Promise<string>;

  /**
   * Optional: whether `stored` (a ciphertext of this cipher) should be rewritten by
   * `rotateSecrets` — false when it is already under the key that encrypts now. A cipher
   * without it has every ciphertext rewritten by a rotation.
   *
   * @param stored - the stored text, starting with `enc:`
   */
  needsRotation?(stored: string): boolean;
}

/**
 * Whether stored text is in an encrypted storage form, i.e. starts with
 * {@link ENCRYPTED_TEXT_PREFIX} (`enc:`). It says nothing about whether the text decrypts.
 *
 * @param text - stored text
 * @returns true when `text` is a string that starts with `enc:`
 */
export function isEncryptedText(text: string): boolean {
  return typeof text === 'string' && text.startsWith(ENCRYPTED_TEXT_PREFIX);
}
