import {
  type Alternation,
  type Atom,
  type CharSet,
  charsOfText,
  EVERYTHING,
  type Item,
  type Sequence,
} from './pattern-parser';

/**
 * The position automaton (Glushkov automaton) of a pattern: one state per character the
 * pattern can consume, entered by consuming one of that state's characters. A backtracking
 * engine walks exactly the paths of this automaton, so how many paths one text has through it
 * bounds how much a backtracking match of that text can cost.
 *
 * Transitions keep their multiplicity: `(a*)*` reaches `a` from `a` in two ways (the inner and
 * the outer loop), which is what makes it exponential, and a set of transitions would hide.
 */
export interface PositionAutomaton {
  /** The characters each state consumes, by state index. */
  readonly chars: readonly CharSet[];
  /** The states the match can begin with. */
  readonly first: readonly number[];
  /** For each state, the states that can follow it, each with how many ways it follows. */
  readonly follow: readonly ReadonlyMap<number, number>[];
  /** The bodies of lookarounds, which the engine matches on their own at each place they are tried. */
  readonly lookarounds: readonly Alternation[];
}

/**
 * Fixed repetitions of one character up to this count are built as that many copies
 * (`\d{4}`). Every other repetition that can match more than once — a varying count
 * (`a{1,3}`), a repeated group (`(a|a){20}`), a count above this — is widened to "its minimum
 * (at most this many) copies, then any number more" (`a{2,5}` as `a{2,}`). A widened pattern
 * allows every path the engine can take and more, so the analysis stays on the safe side,
 * and a large but bounded number of ways (`(a|a){20}`, a million per start) shows up as the
 * unbounded kind it approximates.
 */
const MAX_COPIES = 10;

/** What a piece of the pattern contributes: whether it can match nothing, its first and last states. */
interface Fragment {
  readonly nullable: boolean;
  readonly first: readonly number[];
  readonly last: readonly number[];
}

const EMPTY: Fragment = { nullable: true, first: [], last: [] };

/** Thrown when the automaton would have more states than the builder's limit. */
export class PatternTooLarge extends Error {}

class AutomatonBuilder {
  readonly chars: CharSet[] = [];
  readonly follow: Map<number, number>[] = [];
  readonly lookarounds: Alternation[] = [];
  readonly #maxStates: number;

  constructor(maxStates: number) {
    this.#maxStates = maxStates;
  }

  alternation(alternation: Alternation): Fragment {
    let nullable = false;
    const first: number[] = [];
    const last: number[] = [];
    for (const sequence of alternation) {
      const fragment = this.sequence(sequence);
      nullable ||= fragment.nullable;
      first.push(...fragment.first);
      last.push(...fragment.last);
    }
    return { nullable, first, last };
  }

  sequence(sequence: Sequence): Fragment {
    let result = EMPTY;
    for (const item of sequence) result = this.#concat(result, this.#item(item));
    return result;
  }

  #concat(left: Fragment, right: Fragment): Fragment {
    this.#link(left.last, right.first);
    return {
      nullable: left.nullable && right.nullable,
      first: left.nullable ? [...left.first, ...right.first] : left.first,
      last: right.nullable ? [...left.last, ...right.last] : right.last,
    };
  }

  /** Adds a transition from every state of `from` to every state of `to` (counting repeats). */
  #link(from: readonly number[], to: readonly number[]): void {
    for (const source of from) {
      const targets = this.follow[source]!;
      for (const target of to) targets.set(target, (targets.get(target) ?? 0) + 1);
    }
  }

  #item(item: Item): Fragment {
    const { atom, min, max } = item;
    if (max === 0) return EMPTY;
    if (max === 1) {
      const once = this.#atom(atom);
      return min === 0 ? { ...once, nullable: true } : once;
    }
    let result = EMPTY;
    const fixed = atom.kind === 'chars' && min === max && max <= MAX_COPIES;
    if (fixed) {
      for (let copy = 0; copy < min; copy++) result = this.#concat(result, this.#atom(atom));
      return result;
    }
    // Widened: `x{m,}` is m - 1 copies and a looping one; `x{0,}` an optional looping copy.
    const required = Math.min(min, MAX_COPIES);
    for (let copy = 1; copy < required; copy++) result = this.#concat(result, this.#atom(atom));
    const loop = this.#atom(atom);
    this.#link(loop.last, loop.first);
    return this.#concat(result, required === 0 ? { ...loop, nullable: true } : loop);
  }

  #atom(atom: Atom): Fragment {
    switch (atom.kind) {
      case 'chars':
        return this.#state(charsOfText(atom.text));
      case 'backreference': {
        // Any text, of any length: as `[\s\S]*`.
        const state = this.#state(EVERYTHING);
        this.#link(state.first, state.first);
        return { ...state, nullable: true };
      }
      case 'anchor':
        return EMPTY;
      case 'group':
        if (!atom.zeroWidth) return this.alternation(atom.body);
        this.lookarounds.push(atom.body);
        return EMPTY;
    }
  }

  #state(chars: CharSet): Fragment {
    if (this.chars.length >= this.#maxStates) throw new PatternTooLarge();
    const state = this.chars.length;
    this.chars.push(chars);
    this.follow.push(new Map());
    return { nullable: false, first: [state], last: [state] };
  }
}

/**
 * Builds the position automaton of a parsed pattern (anchors and lookarounds consume nothing
 * and are left out: that only adds paths, so the analysis stays on the safe side).
 *
 * @throws {@link PatternTooLarge} past `maxStates` states
 */
export function buildPositionAutomaton(tree: Alternation, maxStates: number): PositionAutomaton {
  const builder = new AutomatonBuilder(maxStates);
  const { first } = builder.alternation(tree);
  return {
    chars: builder.chars,
    first: [...new Set(first)],
    follow: builder.follow,
    lookarounds: builder.lookarounds,
  };
}
