import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { decodeBase64 } from './base64';

/**
 * One key of {@link createAesGcmCipher}'s key list.
 *
 * Generate a key with `openssl rand -base64 32` or
 * `node -e "console.log(crypto.randomBytes(32).toString('base64'))"`.
 */
export interface AesGcmKey {
  /**
   * The key's name, written into every storage form it encrypts (`enc:v1:<id>:…`) so that
   * decryption picks the right key: 1 to 64 characters of `A–Z a–z 0–9 _ . -`, unique in the
   * list. Not secret; a date (`2024-06`) makes rotation easy to follow.
   */
  readonly id: string;
  /**
   * The 32 key bytes (AES-256) in base64: standard alphabet (`+/`) or URL-safe alphabet
   * (`-_`), one alphabet per key, `=` padding optional, no white space.
   */
  readonly key: string;
}

/** What a key id may be: short, and free of the `:` that separates the storage form's fields. */
export const AES_GCM_KEY_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** 32 bytes in hex (`openssl rand -hex 32`): valid base64 too, of 48 bytes, so worth a hint. */
const HEX_KEY = /^[0-9A-Fa-f]{64}$/;

/** The key length of AES-256, in bytes. */
const AES_256_KEY_BYTES = 32;

/** A checked key list: ids in order (the first encrypts) and each id's key bytes. */
export interface AesGcmKeyRing {
  /** The id of the key that encrypts: the first of the list. */
  readonly encryptingId: string;
  /** Every key's bytes by id, in list order. */
  readonly keyBytes: ReadonlyMap<string, Uint8Array<ArrayBuffer>>;
}

/**
 * Checks a key list and decodes its keys.
 *
 * Error messages name a key by its position and, when the id itself is valid, its id; they
 * never show key text (not even an id that looks like a key, as when `id` and `key` were
 * swapped).
 *
 * @param keys - the list given to `createAesGcmCipher`
 * @returns the checked key ring
 * @throws {@link Framework_Plugin_Exception} (400) for an empty list, an invalid or duplicate
 *   id, or a key that is not base64 of exactly 32 bytes
 */
export function parseAesGcmKeys(keys: readonly AesGcmKey[]): AesGcmKeyRing {
  if (!Array.isArray(keys) || keys.length === 0) {
    throw invalid('the key list must be a non-empty array of { id, key }');
  }
  const keyBytes = new Map<string, Uint8Array<ArrayBuffer>>();
  const positions = new Map<string, number>();
  keys.forEach((entry: unknown, index) => {
    const { id, key } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !AES_GCM_KEY_ID_PATTERN.test(id)) {
      throw invalid(`keys[${index}].id must be 1 to 64 characters of A-Z a-z 0-9 _ . -`);
    }
    const name = looksLikeKeyMaterial(id) ? `keys[${index}]` : `keys[${index}] (id "${id}")`;
    const earlier = positions.get(id);
    if (earlier !== undefined) throw invalid(`${name}: the id is already used by keys[${earlier}]`);
    if (typeof key !== 'string') throw invalid(`${name}: key must be a string (base64 of 32 bytes)`);
    const bytes = decodeKey(key);
    if (!bytes) {
      throw invalid(
        `${name}: key is not base64 (one alphabet, standard or URL-safe, optional = padding, no white space)`,
      );
    }
    if (bytes.length !== AES_256_KEY_BYTES) {
      const hint = HEX_KEY.test(key)
        ? ' (this looks like hex: give the key in base64, openssl rand -base64 32)'
        : '';
      throw invalid(
        `${name}: key decodes to ${bytes.length} bytes; AES-256 needs ${AES_256_KEY_BYTES}${hint}`,
      );
    }
    positions.set(id, index);
    keyBytes.set(id, bytes);
  });
  return { encryptingId: keys[0]!.id, keyBytes };
}

/** A key's bytes: URL-safe alphabet when the text has `-` or `_`, otherwise standard. */
function decodeKey(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decodeBase64(text, /[-_]/.test(text) ? 'base64url' : 'base64', 'optional');
}

/** Whether an id could itself be a key (a base64url key is a valid id): then it is not shown. */
function looksLikeKeyMaterial(id: string): boolean {
  return decodeKey(id)?.length === AES_256_KEY_BYTES;
}

function invalid(reason: string): Framework_Plugin_Exception {
  return new Framework_Plugin_Exception(`createAesGcmCipher: ${reason}`, 400);
}
