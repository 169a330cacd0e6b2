/**
 * A step-counting backtracking matcher: the timing oracle of the pattern-guard properties.
 *
 * It explores exactly the choices a backtracking engine such as V8's Irregexp explores
 * (greedy quantifiers, alternatives in order, every start position for an unanchored
 * search), without any of its shortcuts, and counts each step. Steps are deterministic: the
 * same pattern and input always take the same number, whatever the machine's load, so a
 * property can compare growth without measuring time. A per-run step budget bounds the
 * cost of a case, catastrophic ones included.
 */

/** One element of a pattern: what it matches and how often. */
export interface PatternItem {
  readonly node: PatternNode;
  readonly min: number;
  readonly max: number;
}

/** What a pattern element matches. */
export type PatternNode =
  /** One character of a class (`a`, `.`, `[ab]`), written as `source`. */
  | { readonly kind: 'char'; readonly source: string }
  /** A group of alternatives, each a sequence of items. */
  | { readonly kind: 'group'; readonly alternatives: readonly (readonly PatternItem[])[] }
  /** `^` or `$` (no multiline flag). */
  | { readonly kind: 'anchor'; readonly at: 'start' | 'end' };

/** The pattern's source text, as it is given to the guard and to `RegExp`. */
export function patternSource(items: readonly PatternItem[]): string {
  return items.map(itemSource).join('');
}

function itemSource(item: PatternItem): string {
  const { node } = item;
  const atom =
    node.kind === 'char'
      ? node.source
      : node.kind === 'anchor'
        ? node.at === 'start'
          ? '^'
          : '$'
        : `(?:${node.alternatives.map(patternSource).join('|')})`;
  return atom + quantifierSource(item.min, item.max);
}

function quantifierSource(min: number, max: number): string {
  if (min === 1 && max === 1) return '';
  if (min === 0 && max === Number.POSITIVE_INFINITY) return '*';
  if (min === 1 && max === Number.POSITIVE_INFINITY) return '+';
  if (min === 0 && max === 1) return '?';
  if (max === Number.POSITIVE_INFINITY) return `{${min},}`;
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/** Thrown when a run exceeds its step budget. */
export class StepBudgetExceeded extends Error {}

const charTests = new Map<string, (char: string) => boolean>();

function charTest(source: string): (char: string) => boolean {
  let test = charTests.get(source);
  if (test === undefined) {
    const regex = new RegExp(`^(?:${source})$`, 'u');
    const cache = new Map<string, boolean>();
    test = (char) => {
      let verdict = cache.get(char);
      if (verdict === undefined) {
        verdict = regex.test(char);
        cache.set(char, verdict);
      }
      return verdict;
    };
    charTests.set(source, test);
  }
  return test;
}

type Continuation = (position: number) => boolean;

/**
 * Runs an unanchored search of the pattern in `input` (like `RegExp.prototype.test` without
 * flags other than `u`; the input must hold no astral characters) and answers how many steps
 * it took and whether it matched.
 *
 * @throws {@link StepBudgetExceeded} after `budget` steps
 */
export function countSteps(
  items: readonly PatternItem[],
  input: string,
  budget: number,
): { steps: number; matched: boolean } {
  let steps = 0;
  const step = () => {
    if (++steps > budget) throw new StepBudgetExceeded(`more than ${budget} steps`);
  };

  const matchSequence = (
    sequence: readonly PatternItem[],
    index: number,
    position: number,
    next: Continuation,
  ): boolean => {
    if (index === sequence.length) return next(position);
    return matchItem(sequence[index]!, position, (after) => matchSequence(sequence, index + 1, after, next));
  };

  const matchNode = (node: PatternNode, position: number, next: Continuation): boolean => {
    step();
    if (node.kind === 'anchor') {
      return (node.at === 'start' ? position === 0 : position === input.length) && next(position);
    }
    if (node.kind === 'char') {
      return position < input.length && charTest(node.source)(input[position]!) && next(position + 1);
    }
    for (const alternative of node.alternatives)
      if (matchSequence(alternative, 0, position, next)) return true;
    return false;
  };

  // Greedy repetition as the ECMAScript RepeatMatcher: once the minimum is reached, an
  // iteration that consumed nothing fails.
  const matchItem = (item: PatternItem, position: number, next: Continuation): boolean => {
    const repeat = (count: number, at: number): boolean => {
      step();
      if (
        count < item.max &&
        matchNode(item.node, at, (after) =>
          after === at && count >= item.min ? false : repeat(count + 1, after),
        )
      ) {
        return true;
      }
      return count >= item.min && next(at);
    };
    return repeat(0, position);
  };

  for (let start = 0; start <= input.length; start++) {
    if (matchSequence(items, 0, start, () => true)) return { steps, matched: true };
  }
  return { steps, matched: false };
}
