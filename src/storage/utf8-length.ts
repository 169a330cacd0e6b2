/** A UTF-16 unit from U+0080 on (surrogates included): a text without any is one byte per unit. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The UTF-8 length of a text, counted without encoding it: what `new TextEncoder().encode(text)
 * .length` answers (a lone surrogate counts as the 3 bytes of U+FFFD, which is what encoders,
 * the pg driver and ioredis send for it), and what PostgreSQL's `octet_length` and Lua's `#`
 * count for the text the store wrote.
 */
export function utf8Length(text: string): number {
  // Most texts (history entries, JSON of ASCII values) are ASCII: a compiled regular expression
  // tells in a fraction of the time of the loop below.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
