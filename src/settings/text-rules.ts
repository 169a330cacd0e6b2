/**
 * Rules for text that every store must be able to hold: PostgreSQL rejects NUL characters
 * and lone surrogates cannot be encoded as UTF-8.
 */

const NUL_OR_LONE_SURROGATE = /[\0\p{Cs}]/u;

/** Why `text` cannot be stored, or `undefined` when it can. */
export function describeUnstorableText(text: string): string | undefined {
  const match = NUL_OR_LONE_SURROGATE.exec(text);
  if (!match) return undefined;
  return match[0] === '\0'
    ? `contains a NUL character at index ${match.index}`
    : `contains a lone surrogate at index ${match.index}`;
}
