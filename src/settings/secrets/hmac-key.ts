/** How many secrets' keys are kept imported (a process signs with very few: the tag salt, the CSRF secret). */
const MAX_KEPT_KEYS = 8;
const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

/**
 * An HMAC-SHA-256 signing key for `secret` (WebCrypto only, every runtime), imported once and
 * kept for the next signature: the entity tags' salt and the admin's CSRF secret each sign many
 * messages with one key.
 */
export function hmacSha256Key(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    if (keys.size >= MAX_KEPT_KEYS) keys.delete(keys.keys().next().value as string);
    keys.set(secret, key);
  }
  return key;
}
