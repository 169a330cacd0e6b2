import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { AES_GCM_TAG_BYTES } from './aes-gcm-engine';
import { type AesGcmKey, parseAesGcmKeys } from './aes-gcm-key';
import { decodeBase64Url, encodeBase64Url } from './base64';
import { nativeAesGcm } from './native-aes-gcm';
import { ENCRYPTED_TEXT_PREFIX, type SecretCipher } from './secret-cipher';
import { webCryptoAesGcm } from './web-crypto-aes-gcm';

/** The storage form's scheme and version: `enc:v1:<key id>:<base64url(IV ‖ ciphertext ‖ tag)>`. */
const FORMAT_PREFIX = `${ENCRYPTED_TEXT_PREFIX}v1:`;

/** A 96-bit IV, the length NIST SP 800-38D recommends for GCM. */
const IV_BYTES = 12;

const TAG_BYTES = AES_GCM_TAG_BYTES;

/** A lone surrogate cannot be encoded as UTF-8 and would not round-trip. */
const LONE_SURROGATE = /\p{Cs}/u;

const utf8 = new TextEncoder();

/** Fatal: bytes that are not UTF-8 are an error, never replaced by U+FFFD. */
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A {@link SecretCipher} for AES-256-GCM that runs on Node 20+, Bun, Deno, browsers and edge
 * runtimes: through the runtime's native `node:crypto` where it offers one (found with
 * `process.getBuiltinModule`, never imported: synchronous, a few microseconds per secret), else
 * WebCrypto (`globalThis.crypto.subtle`). Both give and read the same storage form.
 *
 * - The first key encrypts; every key decrypts. To rotate, put a new key first, keep the old
 *   ones until `rotateSecrets()` has rewritten every stored secret, then drop them.
 * - Each `encrypt` draws a fresh random 96-bit IV and authenticates the UTF-8 of `context`
 *   (the storage key) as additional data: a ciphertext copied to another storage key does not
 *   decrypt.
 * - Storage form: `enc:v1:<key id>:<base64url of IV ‖ ciphertext ‖ 16-byte tag>`, without
 *   padding; 28 bytes of overhead plus the UTF-8 length of the plain text.
 * - `decrypt` rejects with a {@link Framework_Plugin_Exception} (code 0) for another prefix or
 *   version, an unknown key id, text that is not canonical base64url, text too short to hold
 *   an IV and a tag, and failed authentication (altered text, another context, another key
 *   under the same id). The message names the context and the reason only.
 * - `encrypt` rejects (code 400) for a plain text or context that is not a string or has a lone
 *   surrogate (UTF-8 cannot carry it); `decrypt` likewise for such a context.
 * - Keys become native key objects at once, or WebCrypto non-extractable keys on first use; their
 *   raw bytes are wiped as they do.
 *
 * @param keys - one or more keys; see {@link AesGcmKey} for ids and key text
 * @returns the cipher
 * @throws {@link Framework_Plugin_Exception} (400), synchronously, for an empty list, an id
 *   outside `[A-Za-z0-9_.-]{1,64}`, a duplicate id, or a key that is not base64 of 32 bytes;
 *   (0) when the runtime has no WebCrypto. Messages never contain key text.
 *
 * @example
 * ```ts
 * const cipher = createAesGcmCipher([
 *   { id: '2024-06', key: process.env.SETTINGS_KEY! }, // encrypts
 *   { id: '2023-01', key: process.env.SETTINGS_KEY_OLD! }, // still decrypts older values
 * ]);
 * ```
 */
export function createAesGcmCipher(keys: readonly AesGcmKey[]): SecretCipher {
  return aesGcmCipher(keys, 'auto');
}

/**
 * {@link createAesGcmCipher} on a chosen engine: `'auto'` (native `node:crypto` where the runtime
 * offers it, else WebCrypto) or `'webcrypto'` (for the tests that check both engines agree).
 * Not exported from the package.
 */
export function aesGcmCipher(keys: readonly AesGcmKey[], engine: 'auto' | 'webcrypto'): SecretCipher {
  const ring = parseAesGcmKeys(keys);
  const aes =
    (engine === 'auto' ? nativeAesGcm(ring.keyBytes) : undefined) ??
    webCryptoAesGcm(webCryptoSubtle(), ring.keyBytes);
  const knownIds = [...ring.keyBytes.keys()];

  return Object.freeze({
    needsRotation(stored: string): boolean {
      return !stored.startsWith(`${FORMAT_PREFIX}${ring.encryptingId}:`);
    },

    async encrypt(plain: string, context: string): Promise<string> {
      checkText(plain, 'the plain text', context);
      checkText(context, 'the context', context);
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await aes.seal(ring.encryptingId, iv, utf8.encode(context), utf8.encode(plain));
      const payload = new Uint8Array(IV_BYTES + sealed.byteLength);
      payload.set(iv);
      payload.set(sealed, IV_BYTES);
      return `${FORMAT_PREFIX}${ring.encryptingId}:${encodeBase64Url(payload)}`;
    },

    async decrypt(stored: string, context: string): Promise<string> {
      checkText(context, 'the context', context);
      const fail = (reason: string) => cannotDecrypt(context, reason);
      if (typeof stored !== 'string' || !stored.startsWith(FORMAT_PREFIX)) {
        throw fail(
          `the text is not in the ${FORMAT_PREFIX}<key id>:<data> form (another cipher or version?)`,
        );
      }
      const fields = stored.slice(FORMAT_PREFIX.length).split(':');
      if (fields.length !== 2) throw fail('the text does not have exactly one key id and one data field');
      const [id, data] = fields as [string, string];
      if (!ring.keyBytes.has(id)) {
        throw fail(
          `its key id is not among the configured ones (${knownIds.join(', ')}); was a key dropped too early?`,
        );
      }
      const payload = decodeBase64Url(data);
      if (!payload) throw fail('its data is not canonical base64url');
      if (payload.length < IV_BYTES + TAG_BYTES) throw fail('its data is too short to hold an IV and a tag');
      let plain: Uint8Array;
      try {
        plain = await aes.open(
          id,
          payload.subarray(0, IV_BYTES),
          utf8.encode(context),
          payload.subarray(IV_BYTES),
        );
      } catch {
        throw fail(
          `authentication failed under key "${id}": the text was altered, belongs to another storage key, or that key changed`,
        );
      }
      try {
        return utf8Strict.decode(plain);
      } catch {
        throw fail('the decrypted bytes are not UTF-8 text');
      }
    },
  });
}

/** The runtime's WebCrypto, or an error saying it has none. */
function webCryptoSubtle(): SubtleCrypto {
  const subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new Framework_Plugin_Exception(
      'createAesGcmCipher: this runtime has no WebCrypto (globalThis.crypto.subtle)',
    );
  }
  return subtle;
}

/** Rejects what cannot be encrypted faithfully: a non-string, or a string with a lone surrogate. */
function checkText(text: unknown, what: string, context: unknown): void {
  if (typeof text === 'string' && !LONE_SURROGATE.test(text)) return;
  const where = typeof context === 'string' && !LONE_SURROGATE.test(context) ? ` for "${context}"` : '';
  const problem = typeof text === 'string' ? 'has a lone surrogate (not UTF-8 encodable)' : 'is not a string';
  throw new Framework_Plugin_Exception(`AES-GCM cipher${where}: ${what} ${problem}`, 400);
}

function cannotDecrypt(context: string, reason: string): Framework_Plugin_Exception {
  return new Framework_Plugin_Exception(`Cannot decrypt the secret stored under "${context}": ${reason}`);
}
