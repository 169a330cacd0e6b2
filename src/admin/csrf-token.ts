/**
 * CSRF tokens of the admin forms: an HMAC-SHA256 of the user's id keyed with the server's
 * `csrfSecret`, base64url-encoded. Uses WebCrypto (`crypto.subtle`), available globally on
 * Node 20+, Deno, Bun and edge runtimes.
 */

const TOKEN_CONTEXT = 'commerce-plugin-framework/admin-csrf/v1\u0000';
const TOKEN_BYTES = 32;
const encoder = new TextEncoder();

let cachedKey: { secret: string; key: Promise<CryptoKey> } | null = null;

function signingKey(secret: string): Promise<CryptoKey> {
  if (typeof secret !== 'string' || secret === '') {
    return Promise.reject(new Error('The admin pages need a non-empty csrfSecret'));
  }
  if (cachedKey?.secret !== secret) {
    const key = crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    cachedKey = { secret, key };
  }
  return cachedKey.key;
}

async function tokenBytes(secret: string, userId: string | number): Promise<Uint8Array> {
  const key = await signingKey(secret);
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(TOKEN_CONTEXT + String(userId)));
  return new Uint8Array(signature);
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Compares two byte arrays in time that depends only on their length. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a[index]! ^ b[index]!;
  return difference === 0;
}

/**
 * The CSRF token of a user: what the admin form sends back in its hidden `_csrf` field.
 * Hosts that embed the form themselves (see `Framework_Register_Settings.renderForm`) use it.
 *
 * @param csrfSecret - the server's `admin.csrfSecret` (non-empty)
 * @param userId - the authenticated user's id
 * @returns 43 base64url characters
 */
export async function createCsrfToken(csrfSecret: string, userId: string | number): Promise<string> {
  return toBase64Url(await tokenBytes(csrfSecret, userId));
}

/**
 * Whether `token` is the CSRF token of `userId` under `csrfSecret`. Compares in constant time;
 * a missing, malformed or foreign token is simply false.
 */
export async function verifyCsrfToken(
  csrfSecret: string,
  userId: string | number,
  token: string | null | undefined,
): Promise<boolean> {
  if (typeof token !== 'string') return false;
  const received = fromBase64Url(token);
  if (received === null || received.length !== TOKEN_BYTES) return false;
  return constantTimeEqual(received, await tokenBytes(csrfSecret, userId));
}
