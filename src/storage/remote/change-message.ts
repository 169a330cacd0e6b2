/**
 * The text a store sends to the other instances when it changed a key (a PostgreSQL NOTIFY
 * payload, a Redis pub/sub message). Every message names the instance that sent it, so an
 * instance can ignore its own writes, which the `watch` contract excludes.
 *
 * Forms:
 * - `k:<instance id>:<key>`: the instance changed (set or deleted) `key`;
 * - `r:<instance id>`: something changed that cannot be named (a key too long for the
 *   channel's payload limit): every receiver re-reads all it holds.
 *
 * Any other text on the channel (say an operator's `NOTIFY channel` after editing the table
 * by hand) is read as a resync request from nobody in particular.
 */

/** What a received change message asks for. */
export type ChangeMessage =
  | { readonly kind: 'change'; readonly sender: string; readonly key: string }
  | { readonly kind: 'resync'; readonly sender: string | undefined };

const INSTANCE_ID_BYTES = 12;
const utf8 = new TextEncoder();

/** A random id for one store instance: 24 lowercase hex characters. */
export function newInstanceId(): string {
  const bytes = new Uint8Array(INSTANCE_ID_BYTES);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The message announcing that `sender` changed `key`; when that text would exceed
 * `maxBytes` (UTF-8), the resync form instead.
 */
export function encodeChangeMessage(
  sender: string,
  key: string,
  maxBytes = Number.POSITIVE_INFINITY,
): string {
  const message = `k:${sender}:${key}`;
  if (Number.isFinite(maxBytes) && utf8.encode(message).length > maxBytes) return `r:${sender}`;
  return message;
}

/** Reads a received message; unknown text reads as a resync request. */
export function decodeChangeMessage(text: string): ChangeMessage {
  if (text.startsWith('k:')) {
    const end = text.indexOf(':', 2);
    if (end > 2) return { kind: 'change', sender: text.slice(2, end), key: text.slice(end + 1) };
  }
  if (text.startsWith('r:') && text.length > 2) return { kind: 'resync', sender: text.slice(2) };
  return { kind: 'resync', sender: undefined };
}
