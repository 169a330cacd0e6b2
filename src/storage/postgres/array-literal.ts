/**
 * PostgreSQL array literals for `$n::text[]` and `$n::bigint[]` parameters, made by the store
 * instead of the driver. node-postgres turns a JavaScript array into the same literal, but
 * escapes every element with two regular-expression replaces, even a number: for the 10,000
 * keys, texts and expected texts of a large commit that was a tenth of the client's work. Here
 * an element is copied as it is unless it holds a quote or a backslash, and then escaped by
 * `JSON.stringify` when that gives the same text (see `JSON_ESCAPES_MORE`). Both drivers pass a
 * string parameter through unchanged, and the cast in the statement parses it.
 */

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;
/**
 * What `JSON.stringify` escapes besides a quote and a backslash: control characters and (lone)
 * surrogates. A text without any is quoted by `JSON.stringify` exactly as an array element is.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const JSON_ESCAPES_MORE = /[\u0000-\u001f\ud800-\udfff]/;

/** The literal of `texts` (`null`: SQL NULL), every element quoted. */
export function textArrayLiteral(texts: readonly (string | null | undefined)[]): string {
  let literal = '{';
  for (let index = 0; index < texts.length; index++) {
    if (index > 0) literal += ',';
    const text = texts[index];
    if (text === null || text === undefined) literal += 'NULL';
    else if (!NEEDS_ESCAPE.test(text)) literal += `"${text}"`;
    // A JSON text (a history entry, a stored value) is full of quotes: JSON.stringify escapes
    // them natively, about four times faster than the regular-expression replace.
    else if (!JSON_ESCAPES_MORE.test(text)) literal += JSON.stringify(text);
    else literal += `"${text.replace(ESCAPED, '\\$&')}"`;
  }
  return `${literal}}`;
}

/** The literal of integers `numbers` (`null`: SQL NULL). */
export function integerArrayLiteral(numbers: readonly (number | null | undefined)[]): string {
  let literal = '{';
  for (let index = 0; index < numbers.length; index++) {
    if (index > 0) literal += ',';
    const number = numbers[index];
    literal += number === null || number === undefined ? 'NULL' : String(number);
  }
  return `${literal}}`;
}

/** The literal of booleans `flags`. */
export function booleanArrayLiteral(flags: readonly boolean[]): string {
  return `{${flags.map((flag) => (flag ? 't' : 'f')).join(',')}}`;
}
