import { encodeBase64Url } from '../secrets/base64';
import { hmacSha256 } from '../secrets/hmac-sha256';

const TAG_BYTES = 16;

/**
 * A strong entity tag (`"…"`, 22 base64url characters) naming stored state: an HMAC-SHA-256,
 * keyed with the container's salt, over each storage key and its text (`undefined`: nothing
 * stored), length-prefixed so that no two different states share an input. Every instance on
 * the store computes the same tag for the same state; without the salt a tag says nothing
 * about the texts (a secret's included).
 *
 * Synchronous: the HMAC is the package's own (`hmacSha256`, the same bytes as WebCrypto's
 * `sign('HMAC')` with the salt's UTF-8 bytes as the raw key), so a tag costs no promise and no
 * trip through the runtime's crypto thread pool, and tags stay those every other instance of the
 * package issues.
 */
export function entityTag(
  salt: string,
  parts: readonly (readonly [key: string, text: string | undefined])[],
): string {
  let input = '';
  for (const [key, text] of parts) {
    input += `${key.length}:${key}${text === undefined ? '-' : `${text.length}:${text}`};`;
  }
  return `"${encodeBase64Url(hmacSha256(salt, input).subarray(0, TAG_BYTES))}"`;
}

/**
 * Whether an `If-Match` header value matches: `*` when a value is stored, else one of its
 * comma-separated strong tags equals `current` (weak tags never match a strong comparison).
 */
export function ifMatchHolds(header: string, current: string, stored: boolean): boolean {
  const text = header.trim();
  if (text === '*') return stored;
  for (const candidate of splitTags(text)) if (candidate === current) return true;
  return false;
}

/** Whether an `If-None-Match` header value names `current` (weak comparison: `W/` ignored; `*` matches any). */
export function ifNoneMatchHolds(header: string, current: string): boolean {
  const text = header.trim();
  if (text === '*') return true;
  for (const candidate of splitTags(text)) {
    if ((candidate.startsWith('W/') ? candidate.slice(2) : candidate) === current) return true;
  }
  return false;
}

function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
