import { decodeBase64Url, encodeBase64Url } from '../secrets/base64';
import { hmacSha256 } from '../secrets/hmac-sha256';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;

/** The AES-GCM key plans seal secrets with: derived from the store's salt (only the store holds it). */
function sealKey(salt: string): Promise<CryptoKey> {
  const raw = hmacSha256(salt, 'cpf-plan-seal-v1');
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/**
 * Seals a secret's text for a plan (AES-256-GCM under a key derived from the store's salt, the
 * context as authenticated data): a plan printed in a CI log or sent over REST carries the secret
 * only in this form, and only a process with access to the same store can open it.
 */
export async function sealForPlan(salt: string, context: string, text: string): Promise<string> {
  const iv = new Uint8Array(IV_BYTES);
  crypto.getRandomValues(iv);
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(context) },
    await sealKey(salt),
    encoder.encode(text),
  );
  const out = new Uint8Array(IV_BYTES + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), IV_BYTES);
  return `ps1:${encodeBase64Url(out)}`;
}

/** Opens a text {@link sealForPlan} made; `undefined` when it cannot (edited, another store, another context). */
export async function openForPlan(
  salt: string,
  context: string,
  sealed: unknown,
): Promise<string | undefined> {
  if (typeof sealed !== 'string' || !sealed.startsWith('ps1:')) return undefined;
  const bytes = decodeBase64Url(sealed.slice(4));
  if (bytes === undefined || bytes.length <= IV_BYTES) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), additionalData: encoder.encode(context) },
      await sealKey(salt),
      bytes.slice(IV_BYTES),
    );
    return decoder.decode(plain);
  } catch {
    return undefined;
  }
}

/**
 * A keyed digest (HMAC-SHA-256 under the store's salt) of `parts`, as `prefix` + base64url of 16
 * bytes. Synchronous: a plan computes one per planned key, and again when it is applied.
 */
export function keyedDigest(salt: string, prefix: string, parts: readonly string[]): string {
  let input = '';
  for (const part of parts) input += `${part.length}:${part};`;
  return `${prefix}${encodeBase64Url(hmacSha256(salt, input).subarray(0, 16))}`;
}
