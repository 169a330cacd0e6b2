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
 *   payload limit): every receiver re-reads all it holds;
 * - versioned (0.3, a commit of the package's own stores): the `m:` form whose array ends with
 *   one more string, `"\u0000v1:<version>:<JSON array>"`, the version of the commit (filled in by
 *   the store as it commits) and per key its new text, `0` deleted, or `null` not known. An
 *   instance of 0.2 reads the extra string as one more key, which names no setting and is
 *   ignored, so it still re-reads the keys; this version takes the texts (see `versioned-reads.ts`).
 *
 * Any other text on the channel (say an operator's `NOTIFY channel` after editing the table
 * by hand, or an `m:` message from a version that cannot read it) is read as a resync request.
 */

import { isVersionText, type KeyChange } from '../versioned-reads';

/** What a received change message asks for. */
export type ChangeMessage =
  | {
      readonly kind: 'change';
      readonly sender: string;
      readonly keys: readonly string[];
      /** With a versioned message: per key its change, `undefined` where the text is not known. */
      readonly changes?: readonly (KeyChange | undefined)[];
    }
  | { readonly kind: 'resync'; readonly sender: string | undefined };

/**
 * A versioned message before its version is known: the store sends `head`, the version, then
 * `tail`, as one text (PostgreSQL concatenates them in the commit statement, a Redis script as
 * it publishes).
 */
export interface VersionedMessage {
  /** The text before the version. */
  readonly head: string;
  /** The text after the version. */
  readonly tail: string;
}

/** What starts the versioned element of an `m:` array (a key never starts with a NUL). */
const VERSION_MARK = '\u0000v1:';
/** The most digits a version has (PostgreSQL's log position: below 2^64). */
const MAX_VERSION_DIGITS = 20;

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

/**
 * The versioned message announcing that `sender` changed `keys` to `texts` (parallel: a text,
 * `null` deleted, `undefined` not known), or `undefined` when it would exceed `maxBytes` (UTF-8)
 * with the longest version, or a key starts with a NUL (it would read as the versioned element):
 * the store then sends {@link encodeChangeMessage}'s form.
 */
export function encodeVersionedMessage(
  sender: string,
  keys: readonly string[],
  texts: readonly (string | null | undefined)[],
  maxBytes = Number.POSITIVE_INFINITY,
): VersionedMessage | undefined {
  let length = 0;
  for (const key of keys) {
    if (key.charCodeAt(0) === 0) return undefined;
    length += key.length;
  }
  for (const text of texts) if (typeof text === 'string') length += text.length;
  // Each UTF-16 unit is at least one UTF-8 byte, and the message holds all of them: too long already.
  if (length > maxBytes) return undefined;
  const states = JSON.stringify(texts.map((text) => (text === null ? 0 : text === undefined ? null : text)));
  const keyList = JSON.stringify(keys);
  // The element's text is JSON inside a JSON string: its quotes escaped once more.
  const head = `m:${sender}:${keyList.slice(0, -1)}${keys.length > 0 ? ',' : ''}${JSON.stringify(VERSION_MARK).slice(0, -1)}`;
  const tail = `${JSON.stringify(`:${states}`).slice(1)}]`;
  const units = head.length + MAX_VERSION_DIGITS + tail.length;
  if (units * 3 > maxBytes && utf8.encode(head + tail).length + MAX_VERSION_DIGITS > maxBytes)
    return undefined;
  return { head, tail };
}

/** Reads a received message; unknown or malformed text reads as a resync request. */
export function decodeChangeMessage(text: string): ChangeMessage {
  const end = text.indexOf(':', 2);
  if (end > 2 && text.startsWith('k:')) {
    return { kind: 'change', sender: text.slice(2, end), keys: [text.slice(end + 1)] };
  }
  if (end > 2 && text.startsWith('m:')) {
    const keys = parseKeyList(text.slice(end + 1));
    if (keys !== undefined) return changeOf(text.slice(2, end), keys);
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

/**
 * The change an `m:` message's keys announce: with the versioned element last, the keys before
 * it and their changes (a malformed element leaves the keys without changes: they are re-read).
 */
function changeOf(sender: string, keys: string[]): ChangeMessage {
  const last = keys[keys.length - 1];
  if (last === undefined || !last.startsWith(VERSION_MARK)) return { kind: 'change', sender, keys };
  const named = keys.slice(0, -1);
  const colon = last.indexOf(':', VERSION_MARK.length);
  const version = last.slice(VERSION_MARK.length, colon);
  if (colon < 0 || !isVersionText(version)) return { kind: 'change', sender, keys: named };
  let states: unknown;
  try {
    states = JSON.parse(last.slice(colon + 1));
  } catch {
    return { kind: 'change', sender, keys: named };
  }
  if (!Array.isArray(states) || states.length !== named.length)
    return { kind: 'change', sender, keys: named };
  const changes = states.map((state: unknown): KeyChange | undefined =>
    typeof state === 'string'
      ? { text: state, version }
      : state === 0
        ? { text: undefined, version }
        : undefined,
  );
  return { kind: 'change', sender, keys: named, changes };
}
