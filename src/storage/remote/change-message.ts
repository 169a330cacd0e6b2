/**
 * The text a store sends to the other instances when it changed keys (a PostgreSQL NOTIFY
 * payload, a Redis pub/sub message). Every message names the instance that sent it, so an
 * instance can ignore its own writes, which the `watch` contract excludes.
 *
 * Forms:
 * - `k:<instance id>:<key>`: the instance changed (set or deleted) `key` (a write of one key;
 *   the form every version of the package reads);
 * - `m:<instance id>:<JSON array of keys>`: the instance changed all these keys in one atomic
 *   commit; receivers report them together, so a reader marks the whole commit stale at once;
 * - `r:<instance id>`: something changed that cannot be named (keys too long for the channel's
 *   payload limit): every receiver re-reads all it holds.
 *
 * Any other text on the channel (say an operator's `NOTIFY channel` after editing the table
 * by hand, or an `m:` message from a version that cannot read it) is read as a resync request.
 */

/** What a received change message asks for. */
export type ChangeMessage =
  | { readonly kind: 'change'; readonly sender: string; readonly keys: readonly string[] }
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
 * The message announcing that `sender` changed `keys` (the `k:` form for one key, `m:` for
 * several); when that text would exceed `maxBytes` (UTF-8), the resync form instead.
 */
export function encodeChangeMessage(
  sender: string,
  keys: readonly string[],
  maxBytes = Number.POSITIVE_INFINITY,
): string {
  const message = keys.length === 1 ? `k:${sender}:${keys[0]}` : `m:${sender}:${JSON.stringify(keys)}`;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most messages are known to fit without encoding them.
  if (message.length * 3 <= maxBytes) return message;
  if (Number.isFinite(maxBytes) && utf8.encode(message).length > maxBytes) return `r:${sender}`;
  return message;
}

/** Reads a received message; unknown or malformed text reads as a resync request. */
export function decodeChangeMessage(text: string): ChangeMessage {
  const end = text.indexOf(':', 2);
  if (end > 2 && text.startsWith('k:')) {
    return { kind: 'change', sender: text.slice(2, end), keys: [text.slice(end + 1)] };
  }
  if (end > 2 && text.startsWith('m:')) {
    const keys = parseKeyList(text.slice(end + 1));
    if (keys !== undefined) return { kind: 'change', sender: text.slice(2, end), keys };
  }
  if (text.startsWith('r:') && text.length > 2) return { kind: 'resync', sender: text.slice(2) };
  return { kind: 'resync', sender: undefined };
}

/** The keys of an `m:` message, or `undefined` when the text is not a JSON array of strings. */
function parseKeyList(json: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every((key) => typeof key === 'string')) return undefined;
  return parsed as string[];
}
