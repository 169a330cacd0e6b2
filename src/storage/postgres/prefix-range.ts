/** The largest Unicode code point. */
const MAX_CODE_POINT = 0x10ffff;
/** The first surrogate code point: text never holds one, so the range is skipped. */
const SURROGATES_START = 0xd800;
const SURROGATES_END = 0xdfff;

/**
 * The least text greater than every text that starts with `prefix`, in code-point order (which
 * is the byte order of UTF-8 and so of `COLLATE "C"`), or `null` when there is none (an empty
 * prefix, or one made only of U+10FFFF). With it, "starts with `prefix`" becomes the index range
 * `key >= prefix AND key < bound`, with no LIKE pattern to escape.
 */
export function prefixUpperBound(prefix: string): string | null {
  const codePoints = Array.from(prefix, (character) => character.codePointAt(0)!);
  while (codePoints.length > 0) {
    const last = codePoints.pop()!;
    if (last === MAX_CODE_POINT) continue;
    const next = last + 1 === SURROGATES_START ? SURROGATES_END + 1 : last + 1;
    codePoints.push(next);
    return String.fromCodePoint(...codePoints);
  }
  return null;
}
