import { encodeBase64Url } from '../secrets/base64';
import { hmacSha256 } from '../secrets/hmac-sha256';

/** How many bytes of the HMAC a fingerprint keeps (128 bits). */
const FINGERPRINT_BYTES = 16;

/**
 * A secret's fingerprint in a settings document (CONTRACT §13): an HMAC-SHA-256 of its storage
 * key and plain value, keyed with the salt every instance of the store shares (the entity tags'
 * salt, which key rotation does not change). It changes when the secret changes and says nothing
 * about it; the same secret under another key or in another store has another fingerprint.
 */
export function secretFingerprint(salt: string, key: string, plain: string): string {
  const input = `cpf-secret-fingerprint\u0000${key.length}:${key}${plain}`;
  return `fp1:${encodeBase64Url(hmacSha256(salt, input).subarray(0, FINGERPRINT_BYTES))}`;
}
