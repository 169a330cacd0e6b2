/**
 * Keys and values that trip up stores which pattern-match, escape, normalise or trim: SQL
 * LIKE wildcards, glob characters, quotes, backslashes, array-literal syntax, white space,
 * astral characters and combining marks. (No NUL characters and no lone surrogates: the
 * settings layer never stores those, and PostgreSQL cannot.)
 */
export const AWKWARD_KEY_SUFFIXES: readonly string[] = [
  'plain',
  'with space',
  ' leading-and-trailing ',
  "single'quote",
  'double"quote',
  'back\\slash',
  'trailing\\',
  'percent%',
  'under_score',
  'star*',
  'question?',
  'bracket[ab]',
  'brace{a,b}',
  'caret^dollar$',
  'pipe|semicolon;',
  "'); DROP TABLE options; --",
  'NULL',
  'colon:separated:key',
  'new\nline',
  'tab\there',
  'slash/and.dot',
  'é-composed',
  'e\u0301-decomposed',
  'astral-𝌆-😀',
  'ǅigraph-İ-ß',
  'rtl-\u05e9\u05dc\u05d5\u05dd',
];

/** Values that must come back byte for byte. */
export const AWKWARD_VALUES: readonly string[] = [
  ' ',
  '  padded  ',
  'NULL',
  'null',
  'undefined',
  '0',
  'false',
  '{"json":["array",1,true,null]}',
  'it\'s "quoted" \\ back\\slashed',
  'line\nbreak\r\nwindows\ttab',
  '%_*?[]{}',
  'astral 𝌆😀 and combining e\u0301 vs é',
  '\u200b zero-width \ufeff bom',
];

/**
 * Key suffixes for the prefix checks (`listKeys`, `scan`): LIKE and glob characters, a
 * backslash, a combining mark and the edges of the BMP, each with and without a following
 * character, so that a prefix read as a pattern matches keys it should not.
 */
export const PREFIX_KEY_SUFFIXES: readonly string[] = [
  'a',
  'a%',
  'a%b',
  'a_',
  'a_b',
  'ab',
  'a*',
  'a*b',
  'a?',
  'a[b]',
  'a\\',
  'a\\b',
  'a.b',
  'a e\u0301',
  'a\uffff',
  'a\u{10000}',
  'a\u{10ffff}',
  'b',
];

/** The prefixes (after a test's own) that the prefix checks ask for, each against {@link PREFIX_KEY_SUFFIXES}. */
export const PREFIX_PROBES: readonly string[] = [
  'a',
  'a%',
  'a_',
  'a*',
  'a?',
  'a[',
  'a\\',
  'a.',
  'a ',
  'a\uffff',
  'a\u{10ffff}',
  'b',
  'c',
];
