import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/**
 * Guards for `pattern`. JavaScript regular expressions backtrack, and some patterns take
 * exponential time on a short hostile input; two defences keep a pattern from hanging the
 * server:
 * - at registration, the pattern is parsed and refused when a repeated group can match the
 *   same text in more than one way (the cause of exponential backtracking), see
 *   {@link describeAmbiguousRepetition};
 * - at run time, strings longer than {@link MAX_PATTERN_INPUT} code units are rejected without
 *   running the expression (bounding the polynomial cases too).
 */

/** The longest string (in UTF-16 code units) a `pattern` is run on. */
export const MAX_PATTERN_INPUT = 10_000;

/** A set of characters, as the sample characters it contains (see {@link SAMPLES}). */
type CharSet = ReadonlySet<number>;

/** One element of a sequence: an atom with its repetition bounds. */
interface Item {
  readonly atom: Atom;
  readonly min: number;
  readonly max: number;
}

type Atom =
  | { readonly kind: 'chars'; readonly text: string }
  | { readonly kind: 'group'; readonly body: Alternation; readonly zeroWidth: boolean }
  | { readonly kind: 'anchor' }
  | { readonly kind: 'backreference' };

type Sequence = readonly Item[];
type Alternation = readonly Sequence[];

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
const EVERYTHING: CharSet = new Set(SAMPLES);

/** Parses a pattern that is known to compile with the `u` flag. */
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

const charSetCache = new Map<string, CharSet>();

/** The sample characters a one-character atom (`a`, `\d`, `[^,]`, `.`, `\p{L}`) matches. */
function charsOfText(text: string): CharSet {
  let set = charSetCache.get(text);
  if (set === undefined) {
    let regex: RegExp | null = null;
    try {
      regex = new RegExp(`^(?:${text})$`, 'u');
    } catch {
      regex = null;
    }
    set =
      regex === null ? EVERYTHING : new Set(SAMPLES.filter((_, index) => regex.test(SAMPLE_TEXT[index]!)));
    if (charSetCache.size < 1000) charSetCache.set(text, set);
  }
  return set;
}

function union(sets: readonly CharSet[]): CharSet {
  const result = new Set<number>();
  for (const set of sets) for (const code of set) result.add(code);
  return result;
}

function overlaps(a: CharSet, b: CharSet): boolean {
  for (const code of a) if (b.has(code)) return true;
  return false;
}

function atomNullable(atom: Atom): boolean {
  if (atom.kind === 'chars') return false;
  if (atom.kind === 'group') return atom.zeroWidth || alternationNullable(atom.body);
  return true;
}

function itemNullable(item: Item): boolean {
  return item.min === 0 || atomNullable(item.atom);
}

function alternationNullable(alternation: Alternation): boolean {
  return alternation.some((sequence) => sequence.every(itemNullable));
}

/** Every character an atom can consume. */
function charsOf(atom: Atom): CharSet {
  if (atom.kind === 'chars') return charsOfText(atom.text);
  if (atom.kind === 'group') {
    return atom.zeroWidth ? new Set() : union(atom.body.flat().map((item) => charsOf(item.atom)));
  }
  return atom.kind === 'backreference' ? EVERYTHING : new Set();
}

/** Whether an item matches a varying number of repetitions (`a+`, `\d{1,3}`, `(…)*`). */
function isRun(item: Item): boolean {
  return item.max >= 2 && item.max > item.min;
}

/** Whether every alternative of a body is one single-character item (`(a|b)`, `([a-z])`). */
function isSingleCharBody(body: Alternation): boolean {
  return body.every(
    (sequence) =>
      sequence.length === 1 &&
      sequence[0]!.atom.kind === 'chars' &&
      sequence[0]!.min === 1 &&
      sequence[0]!.max === 1,
  );
}

/**
 * The characters of a run of varying length that the item itself is (`a+`, `[a-z]{1,3}`,
 * `([a-z])+`), or `null` when the item is not such a plain run.
 */
function runChars(item: Item): CharSet | null {
  if (!isRun(item)) return null;
  if (item.atom.kind === 'chars') return charsOf(item.atom);
  if (item.atom.kind === 'group' && !item.atom.zeroWidth && isSingleCharBody(item.atom.body))
    return charsOf(item.atom);
  return null;
}

/** The runs of varying length a match of the item can begin (`edge` 'lead') or end (`edge` 'trail') with. */
function edgeRuns(item: Item, edge: 'lead' | 'trail'): CharSet[] {
  const own = runChars(item);
  if (own !== null) return [own];
  if (item.atom.kind !== 'group' || item.atom.zeroWidth) return [];
  return item.atom.body.flatMap((sequence) => sequenceEdgeRuns(sequence, edge));
}

function sequenceEdgeRuns(sequence: Sequence, edge: 'lead' | 'trail'): CharSet[] {
  const runs: CharSet[] = [];
  const items = edge === 'lead' ? sequence : [...sequence].reverse();
  for (const item of items) {
    runs.push(...edgeRuns(item, edge));
    if (!itemNullable(item)) break;
  }
  return runs;
}

function anyOverlap(left: readonly CharSet[], right: readonly CharSet[]): boolean {
  return left.some((a) => right.some((b) => overlaps(a, b)));
}

function hasRepetitionOrChoice(alternation: Alternation): boolean {
  return (
    alternation.length > 1 ||
    alternation.some((sequence) =>
      sequence.some(
        (item) => item.max > 1 || (item.atom.kind === 'group' && hasRepetitionOrChoice(item.atom.body)),
      ),
    )
  );
}

/** The characters a sequence can start with. */
function firstChars(sequence: Sequence): CharSet {
  const sets: CharSet[] = [];
  for (const item of sequence) {
    if (item.atom.kind === 'group' && !item.atom.zeroWidth) sets.push(union(item.atom.body.map(firstChars)));
    else if (item.atom.kind === 'chars' || item.atom.kind === 'backreference') sets.push(charsOf(item.atom));
    if (!itemNullable(item)) break;
  }
  return union(sets);
}

/** The per-position character sets of a sequence of single characters without repetition, or `null`. */
function fixedShape(sequence: Sequence): CharSet[] | null {
  const shape: CharSet[] = [];
  for (const item of sequence) {
    if (item.atom.kind !== 'chars' || item.min !== item.max) return null;
    for (let count = 0; count < item.min; count++) shape.push(charsOf(item.atom));
  }
  return shape;
}

/** Why the body of a repeated group can match one text in several ways, or `undefined`. */
function describeAmbiguousBody(body: Alternation): string | undefined {
  if (alternationNullable(body) && hasRepetitionOrChoice(body)) {
    return 'a repeated group can match the empty string in more than one way';
  }
  for (let i = 0; i < body.length; i++) {
    for (let j = i + 1; j < body.length; j++) {
      const [a, b] = [body[i]!, body[j]!];
      if (!overlaps(firstChars(a), firstChars(b))) continue;
      const shapeA = fixedShape(a);
      const shapeB = fixedShape(b);
      const distinguishable =
        shapeA !== null &&
        shapeB !== null &&
        shapeA.length === shapeB.length &&
        shapeA.some((set, index) => !overlaps(set, shapeB[index]!));
      if (!distinguishable) return 'alternatives of a repeated group can match the same text';
    }
  }
  const leading = body.flatMap((sequence) => sequenceEdgeRuns(sequence, 'lead'));
  const trailing = body.flatMap((sequence) => sequenceEdgeRuns(sequence, 'trail'));
  if (anyOverlap(trailing, leading)) {
    return 'a repeated group ends and begins with runs of the same characters, so repetitions can split a run in many ways';
  }
  for (const sequence of body) {
    for (const run of sequence) {
      const chars = runChars(run);
      if (chars === null) continue;
      const fixed = sequence.filter((item) => item !== run && !itemNullable(item));
      if (fixed.every((item) => overlaps(charsOf(item.atom), chars))) {
        return 'a repeated group holds a run and nothing it must match that the run cannot match too, so repetitions can split one run in many ways';
      }
    }
  }
  return undefined;
}

/** Why a sequence holds two runs of overlapping characters with nothing required between them, or `undefined`. */
function describeAdjacentRuns(sequence: Sequence): string | undefined {
  for (let i = 0; i < sequence.length; i++) {
    const trailing = edgeRuns(sequence[i]!, 'trail');
    if (trailing.length === 0) continue;
    for (let j = i + 1; j < sequence.length; j++) {
      if (anyOverlap(trailing, edgeRuns(sequence[j]!, 'lead'))) {
        return 'two runs of overlapping characters follow each other with nothing required between them';
      }
      if (!itemNullable(sequence[j]!)) break;
    }
  }
  return undefined;
}

function describeAlternation(alternation: Alternation): string | undefined {
  for (const sequence of alternation) {
    const adjacent = describeAdjacentRuns(sequence);
    if (adjacent) return adjacent;
    for (const item of sequence) {
      if (item.atom.kind !== 'group') continue;
      if (item.max > 1 && !item.atom.zeroWidth) {
        const problem = describeAmbiguousBody(item.atom.body);
        if (problem) return problem;
      }
      const inner = describeAlternation(item.atom.body);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * Why `pattern` (which compiles with the `u` flag) can backtrack exponentially, or `undefined`.
 * It looks for repeated groups (`(…)*`, `(…)+`, `(…){2,}`) whose body can match one text in
 * more than one way — a body that can be empty and repeats or chooses inside (`(a|a?)+`),
 * alternatives that can match the same text or split into one another (`(a|a)*`, `(a|aa)+`),
 * a body that ends and begins with runs of the same characters (`(\s*,\s*)*`, `(a+)+`), a
 * run with nothing required beside it that the run could not match too (`(\w+\s?)*`,
 * `(([a-z])+.)+`) — and, anywhere, two runs of overlapping characters with nothing required
 * between them (`.*.*`, `(x+x+)+`), which are polynomial but still too slow at 10 000
 * characters. `^\d+(,\d+)*$`, `^[a-z]+(-[a-z]+)*$` and `^(ab)*$` are fine.
 */
export function describeAmbiguousRepetition(pattern: string): string | undefined {
  let tree: Alternation;
  try {
    tree = new PatternParser(pattern).parse();
  } catch {
    return 'the pattern could not be analysed';
  }
  return describeAlternation(tree);
}

/**
 * Compiles a `pattern` keyword.
 *
 * @throws {@link Framework_Plugin_Exception} (400) naming the argument when the pattern does
 *   not compile with the `u` flag or can backtrack exponentially
 */
export function compilePattern(pattern: string, where: string): RegExp {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch (error) {
    throw new Framework_Plugin_Exception(
      `${where}: pattern ${JSON.stringify(pattern)} is not a valid regular expression with the u flag (${(error as Error).message})`,
      400,
    );
  }
  const problem = describeAmbiguousRepetition(pattern);
  if (problem) {
    throw new Framework_Plugin_Exception(
      `${where}: pattern ${JSON.stringify(pattern)} can take exponential time on some inputs (${problem}); ` +
        'rewrite it so that each repetition can match a text in one way only, e.g. "^\\\\d+(,\\\\d+)*$"',
      400,
    );
  }
  return regex;
}
