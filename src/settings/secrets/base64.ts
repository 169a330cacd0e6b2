/**
 * Base64 (RFC 4648 §4) and base64url (§5) for every runtime: plain code over `Uint8Array`, no
 * `Buffer` (Node only) and no `atob`/`btoa` (Latin-1 strings, lenient about what they accept).
 *
 * Decoding is strict: one alphabet, no white space, and the unused low bits of the last
 * character must be zero. Every byte sequence therefore has exactly one accepted text form,
 * so that changing any character of stored text changes the decoded bytes (or is rejected).
 */

const LETTERS_AND_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const ALPHABETS = {
  base64: `${LETTERS_AND_DIGITS}+/`,
  base64url: `${LETTERS_AND_DIGITS}-_`,
} as const;

/** The two alphabets of RFC 4648: standard (`+/`) and URL- and file-name-safe (`-_`). */
export type Base64Alphabet = keyof typeof ALPHABETS;

/** Whether `=` padding to a multiple of four characters is refused or may be present. */
export type Base64Padding = 'none' | 'optional';

/** Character code → 6-bit value, -1 for characters outside the alphabet. */
function decodeTable(alphabet: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let index = 0; index < alphabet.length; index++) table[alphabet.charCodeAt(index)] = index;
  return table;
}

const DECODE_TABLES: Record<Base64Alphabet, Int8Array> = {
  base64: decodeTable(ALPHABETS.base64),
  base64url: decodeTable(ALPHABETS.base64url),
};

/**
 * Encodes bytes as base64url (RFC 4648 §5) without padding: `A–Z a–z 0–9 - _`.
 *
 * @param bytes - the bytes to encode
 * @returns the text form, `''` for no bytes
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  const alphabet = ALPHABETS.base64url;
  const sextet = (bits: number, shift: number) => alphabet[(bits >>> shift) & 63]!;
  const parts: string[] = [];
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const bits = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
    parts.push(sextet(bits, 18) + sextet(bits, 12) + sextet(bits, 6) + sextet(bits, 0));
  }
  const left = bytes.length - index;
  if (left > 0) {
    const bits = (bytes[index]! << 16) | (left === 2 ? bytes[index + 1]! << 8 : 0);
    parts.push(sextet(bits, 18) + sextet(bits, 12) + (left === 2 ? sextet(bits, 6) : ''));
  }
  return parts.join('');
}

/**
 * Decodes strict base64url (RFC 4648 §5) without padding, the form {@link encodeBase64Url}
 * writes.
 *
 * @param text - base64url text
 * @returns the bytes, or `undefined` when `text` is not exactly the form `encodeBase64Url`
 *   writes for some bytes (another character, padding, a length of 4n+1, non-zero unused bits)
 */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decodeBase64(text, 'base64url', 'none');
}

/**
 * Decodes base64 text of one alphabet, strictly (see the module comment).
 *
 * @param text - the text
 * @param alphabet - which alphabet `text` must use throughout
 * @param padding - `'optional'`: `=` padding may complete the last group of four (and must
 *   then be exactly right); `'none'`: `=` is refused
 * @returns the bytes, or `undefined` when `text` is not canonical base64 of that alphabet
 */
export function decodeBase64(
  text: string,
  alphabet: Base64Alphabet,
  padding: Base64Padding,
): Uint8Array<ArrayBuffer> | undefined {
  let body = text;
  if (padding === 'optional' && text.endsWith('=')) {
    if (text.length % 4 !== 0) return undefined;
    body = text.slice(0, text.endsWith('==') ? -2 : -1);
  }
  if (body.length % 4 === 1) return undefined;
  const table = DECODE_TABLES[alphabet];
  const bytes = new Uint8Array((body.length * 3) >>> 2);
  let pending = 0;
  let pendingBits = 0;
  let written = 0;
  for (let index = 0; index < body.length; index++) {
    const code = body.charCodeAt(index);
    const value = code < 128 ? table[code]! : -1;
    if (value < 0) return undefined;
    pending = (pending << 6) | value;
    pendingBits += 6;
    if (pendingBits >= 8) {
      pendingBits -= 8;
      bytes[written++] = pending >>> pendingBits;
      pending &= (1 << pendingBits) - 1;
    }
  }
  return pending === 0 ? bytes : undefined;
}
