/**
 * The parse tree of a `pattern` (a regular expression known to compile with the `u` flag),
 * as the pattern guard reads it: sequences of atoms with their repetition bounds, and, for
 * each atom that consumes one character, the set of characters it matches.
 */

/**
 * A set of characters, as the sample characters it contains (see {@link SAMPLES}): a bit per
 * sample.
 */
export type CharSet = Uint32Array;

/** One element of a sequence: an atom with its repetition bounds. */
export interface Item {
  readonly atom: Atom;
  readonly min: number;
  readonly max: number;
}

/** What an item repeats. */
export type Atom =
  /** One character of a class: `a`, `\d`, `[^,]`, `.`, `\p{L}`. */
  | { readonly kind: 'chars'; readonly text: string }
  /** A group; `zeroWidth` for lookarounds, which consume nothing. */
  | { readonly kind: 'group'; readonly body: Alternation; readonly zeroWidth: boolean }
  /** `^`, `$`, `\b`, `\B`. */
  | { readonly kind: 'anchor' }
  /** `\1`, `\k<name>`: any text. */
  | { readonly kind: 'backreference' };

/** Items matched one after the other. */
export type Sequence = readonly Item[];
/** Sequences of which one matches. */
export type Alternation = readonly Sequence[];

/**
 * The characters membership is tested on: Latin-1, and one representative of other scripts,
 * line separators, spaces and astral characters. Exact for ASCII and Latin-1 classes, a close
 * approximation for the rest.
 */
const SAMPLES: readonly number[] = [
  ...Array.from({ length: 0x180 }, (_, index) => index),
  0x3b1,
  0x416,
  0x5d0,
  0x627,
  0x905,
  0x2028,
  0x2029,
  0x200b,
  0x3000,
  0x4e00,
  0xfeff,
  0xff10,
  0x1f600,
  0x10400,
];
const SAMPLE_TEXT = SAMPLES.map((code) => String.fromCodePoint(code));
const WORDS = Math.ceil(SAMPLES.length / 32);

/** The set of every sample character (what a backreference or an unknown class may match). */
export const EVERYTHING: CharSet = (() => {
  const set = new Uint32Array(WORDS);
  for (let index = 0; index < SAMPLES.length; index++) set[index >>> 5]! |= 1 << (index & 31);
  return set;
})();

/** Whether two sets share a character. */
export function overlaps(a: CharSet, b: CharSet): boolean {
  for (let word = 0; word < WORDS; word++) if ((a[word]! & b[word]!) !== 0) return true;
  return false;
}

/** Whether three sets share a character. */
export function overlapsAll(a: CharSet, b: CharSet, c: CharSet): boolean {
  for (let word = 0; word < WORDS; word++) if ((a[word]! & b[word]! & c[word]!) !== 0) return true;
  return false;
}

const charSetCache = new Map<string, CharSet>();

/** The sample characters a one-character atom (`a`, `\d`, `[^,]`, `.`, `\p{L}`) matches. */
export function charsOfText(text: string): CharSet {
  let set = charSetCache.get(text);
  if (set === undefined) {
    let regex: RegExp | null = null;
    try {
      regex = new RegExp(`^(?:${text})$`, 'u');
    } catch {
      regex = null;
    }
    if (regex === null) set = EVERYTHING;
    else {
      set = new Uint32Array(WORDS);
      for (let index = 0; index < SAMPLE_TEXT.length; index++) {
        if (regex.test(SAMPLE_TEXT[index]!)) set[index >>> 5]! |= 1 << (index & 31);
      }
    }
    if (charSetCache.size < 1000) charSetCache.set(text, set);
  }
  return set;
}

/**
 * Parses a pattern that is known to compile with the `u` flag.
 *
 * @throws Error when the text does not parse (the guard then refuses the pattern)
 */
export function parsePattern(pattern: string): Alternation {
  return new PatternParser(pattern).parse();
}

/** The parser behind {@link parsePattern}. */
class PatternParser {
  readonly #chars: readonly string[];
  #index = 0;

  constructor(pattern: string) {
    this.#chars = [...pattern];
  }

  parse(): Alternation {
    const alternation = this.#alternation();
    if (this.#index < this.#chars.length) throw new Error('unbalanced parenthesis');
    return alternation;
  }

  #peek(offset = 0): string | undefined {
    return this.#chars[this.#index + offset];
  }

  #alternation(): Alternation {
    const sequences: Sequence[] = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#index++;
      sequences.push(this.#sequence());
    }
    return sequences;
  }

  #sequence(): Sequence {
    const items: Item[] = [];
    for (let next = this.#peek(); next !== undefined && next !== '|' && next !== ')'; next = this.#peek()) {
      const atom = this.#atom();
      const [min, max] = this.#quantifier();
      items.push({ atom, min, max });
    }
    return items;
  }

  #atom(): Atom {
    const char = this.#chars[this.#index++]!;
    switch (char) {
      case '^':
      case '$':
        return { kind: 'anchor' };
      case '[':
        return { kind: 'chars', text: `[${this.#classBody()}` };
      case '(':
        return this.#group();
      case '\\':
        return this.#escape();
      default:
        return { kind: 'chars', text: char };
    }
  }

  #classBody(): string {
    let text = '';
    for (;;) {
      const char = this.#chars[this.#index++];
      if (char === undefined) throw new Error('unterminated class');
      text += char;
      if (char === '\\') text += this.#chars[this.#index++] ?? '';
      else if (char === ']') return text;
    }
  }

  #group(): Atom {
    let zeroWidth = false;
    if (this.#peek() === '?') {
      const kind = this.#peek(1);
      if (kind === ':') this.#index += 2;
      else if (kind === '=' || kind === '!') {
        this.#index += 2;
        zeroWidth = true;
      } else if (kind === '<' && (this.#peek(2) === '=' || this.#peek(2) === '!')) {
        this.#index += 3;
        zeroWidth = true;
      } else if (kind === '<') {
        while (this.#peek() !== '>' && this.#peek() !== undefined) this.#index++;
        this.#index++;
      }
    }
    const body = this.#alternation();
    if (this.#chars[this.#index++] !== ')') throw new Error('unterminated group');
    return { kind: 'group', body, zeroWidth };
  }

  #escape(): Atom {
    const char = this.#chars[this.#index++] ?? '';
    if (char === 'b' || char === 'B') return { kind: 'anchor' };
    if (/[1-9]/.test(char)) {
      while (/[0-9]/.test(this.#peek() ?? '')) this.#index++;
      return { kind: 'backreference' };
    }
    if (char === 'k') {
      while (this.#peek() !== '>' && this.#peek() !== undefined) this.#index++;
      this.#index++;
      return { kind: 'backreference' };
    }
    let text = `\\${char}`;
    const take = (count: number) => {
      text += this.#chars.slice(this.#index, this.#index + count).join('');
      this.#index += count;
    };
    if ((char === 'p' || char === 'P' || char === 'u') && this.#peek() === '{') {
      while (this.#peek() !== '}' && this.#peek() !== undefined) take(1);
      take(1);
    } else if (char === 'u') {
      take(4);
      // In u-mode a surrogate pair written as two escapes is one character.
      const isHigh = /^\\u[dD][89abAB]/.test(text);
      const nextIsLow =
        this.#peek() === '\\' &&
        this.#peek(1) === 'u' &&
        /[dD]/.test(this.#peek(2) ?? '') &&
        /[c-fC-F]/.test(this.#peek(3) ?? '');
      if (isHigh && nextIsLow) take(6);
    } else if (char === 'x') take(2);
    else if (char === 'c') take(1);
    return { kind: 'chars', text };
  }

  #quantifier(): [number, number] {
    let bounds: [number, number];
    const char = this.#peek();
    if (char === '*') bounds = [0, Number.POSITIVE_INFINITY];
    else if (char === '+') bounds = [1, Number.POSITIVE_INFINITY];
    else if (char === '?') bounds = [0, 1];
    else if (char === '{') {
      let text = '';
      let offset = 1;
      for (let next = this.#peek(offset); next !== undefined && next !== '}'; next = this.#peek(++offset))
        text += next;
      const match = /^(\d+)(?:(,)(\d*))?$/.exec(text);
      if (!match) return [1, 1];
      const min = Number(match[1]);
      const max =
        match[2] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
      this.#index += offset;
      bounds = [min, max];
    } else return [1, 1];
    this.#index++;
    if (this.#peek() === '?') this.#index++;
    return bounds;
  }
}
