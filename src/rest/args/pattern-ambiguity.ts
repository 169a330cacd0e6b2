import type { PositionAutomaton } from './pattern-automaton';
import { overlaps, overlapsAll } from './pattern-parser';

/**
 * How a backtracking match of a pattern can blow up, read off its position automaton (the
 * criteria of Weideman, van der Merwe, Berglund and Watson, "Analyzing matching time behavior
 * of backtracking regular expression matchers by using ambiguity of NFA", 2016):
 *
 * - **exponential**: some state can loop back to itself along two different paths reading the
 *   same text (`(a|a)*`, `(a+)+`, `(\s*,\s*)*`): each repetition doubles the ways to try;
 * - **polynomial**: two different looping states `p` and `q` and one text that loops on `p`,
 *   leads from `p` to `q` and loops on `q` (`.*.*`, `.+@.+`): the border between the loops
 *   can sit anywhere, and a search that tries every start adds one more factor.
 *
 * A pattern with neither costs at most linear time per start position, so at most quadratic
 * time for a search, which the input cap keeps small.
 */
export type Ambiguity = 'exponential' | 'polynomial';

/** Thrown when the analysis would take more steps than its budget. */
export class AnalysisTooLong extends Error {}

/** Counts the analysis' steps against a budget. */
class StepCounter {
  #left: number;
  constructor(budget: number) {
    this.#left = budget;
  }
  step(count = 1): void {
    this.#left -= count;
    if (this.#left < 0) throw new AnalysisTooLong();
  }
}

/** The strongly connected components of the automaton's states (Tarjan, iterative): a component id per state. */
function components(automaton: PositionAutomaton): Int32Array {
  const count = automaton.chars.length;
  const component = new Int32Array(count).fill(-1);
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  let nextIndex = 0;
  let nextComponent = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    const work: [number, Iterator<number>][] = [[root, automaton.follow[root]!.keys()]];
    index[root] = low[root] = nextIndex++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [state, targets] = frame;
      const next = targets.next();
      if (!next.done) {
        const target = next.value;
        if (index[target] === -1) {
          index[target] = low[target] = nextIndex++;
          stack.push(target);
          onStack[target] = 1;
          work.push([target, automaton.follow[target]!.keys()]);
        } else if (onStack[target]) low[state] = Math.min(low[state]!, index[target]!);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[state]!);
      }
      if (low[state] === index[state]) {
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = 0;
          component[member] = nextComponent;
        } while (member !== state);
        nextComponent++;
      }
    }
  }
  return component;
}

/** Whether a state lies on a cycle (a component of several states, or a transition to itself). */
function loops(automaton: PositionAutomaton, component: Int32Array, state: number): boolean {
  for (const target of automaton.follow[state]!.keys())
    if (component[target] === component[state]) return true;
  return false;
}

/** The nodes reachable from `sources` along `edges` (`sources` included). */
function reachableFrom(
  sources: readonly number[],
  edges: readonly (readonly number[])[],
  counter: StepCounter,
): Uint8Array {
  const seen = new Uint8Array(edges.length);
  const queue: number[] = [];
  for (const source of sources) {
    if (!seen[source]) {
      seen[source] = 1;
      queue.push(source);
    }
  }
  while (queue.length > 0) {
    for (const target of edges[queue.pop()!]!) {
      counter.step();
      if (!seen[target]) {
        seen[target] = 1;
        queue.push(target);
      }
    }
  }
  return seen;
}

/** A check of one kind of ambiguity over an automaton and its strongly connected components. */
type AmbiguityCheck = (automaton: PositionAutomaton, component: Int32Array, counter: StepCounter) => boolean;

/**
 * Exponential: a transition taken in two ways inside a cycle, or, in the product of the
 * automaton with itself, a component that holds both a pair `(p, p)` and a pair `(q, r)` with
 * `q ≠ r` (two different paths leave `p` and come back to it on one text).
 */
const hasExponentialAmbiguity: AmbiguityCheck = (automaton, component, counter) => {
  const { chars, follow } = automaton;
  const count = chars.length;
  for (let state = 0; state < count; state++) {
    for (const [target, ways] of follow[state]!) {
      if (ways > 1 && component[target] === component[state]) return true;
    }
  }
  // Pairs of states of one component; both paths of a loop on p stay in p's component.
  const members = new Map<number, number[]>();
  for (let state = 0; state < count; state++) {
    const list = members.get(component[state]!) ?? [];
    list.push(state);
    members.set(component[state]!, list);
  }
  for (const list of members.values()) {
    if (list.length < 2) continue;
    // From each diagonal pair, can we reach an off-diagonal pair that leads back to a diagonal one?
    // Equivalent: some component of the pair graph holds both kinds.
    const size = list.length;
    const local = new Map(list.map((state, position) => [state, position]));
    const pairCount = size * size;
    const successors = (pair: number): number[] => {
      const left = list[Math.floor(pair / size)]!;
      const right = list[pair % size]!;
      const result: number[] = [];
      for (const leftTarget of follow[left]!.keys()) {
        const l = local.get(leftTarget);
        if (l === undefined) continue;
        for (const rightTarget of follow[right]!.keys()) {
          counter.step();
          const r = local.get(rightTarget);
          if (r === undefined || !overlaps(chars[leftTarget]!, chars[rightTarget]!)) continue;
          result.push(l * size + r);
        }
      }
      return result;
    };
    // An off-diagonal pair reachable from a diagonal one that also reaches a diagonal one.
    const graph: number[][] = [];
    for (let pair = 0; pair < pairCount; pair++) graph.push(successors(pair));
    const reverse: number[][] = Array.from({ length: pairCount }, () => []);
    for (let pair = 0; pair < pairCount; pair++) for (const next of graph[pair]!) reverse[next]!.push(pair);
    const diagonal = list.map((_, position) => position * size + position);
    const fromDiagonal = reachableFrom(
      diagonal.flatMap((pair) => graph[pair]!),
      graph,
      counter,
    );
    const toDiagonal = reachableFrom(
      diagonal.flatMap((pair) => reverse[pair]!),
      reverse,
      counter,
    );
    for (let pair = 0; pair < pairCount; pair++) {
      const offDiagonal = Math.floor(pair / size) !== pair % size;
      if (offDiagonal && fromDiagonal[pair] && toDiagonal[pair]) return true;
    }
  }
  return false;
};

/**
 * Polynomial: looping states `p ≠ q` and one text that reads `p → p`, `p → q` and `q → q`:
 * in the product of three copies of the automaton, a path from `(p, p, q)` to `(p, q, q)`.
 * The first copy stays in `p`'s component, the third in `q`'s, the second between the two.
 */
const hasPolynomialAmbiguity: AmbiguityCheck = (automaton, component, counter) => {
  const { chars, follow } = automaton;
  const count = chars.length;
  const forward = follow.map((targets) => [...targets.keys()]);
  const backward: number[][] = Array.from({ length: count }, () => []);
  forward.forEach((targets, state) => {
    for (const target of targets) backward[target]!.push(state);
  });
  const looping: number[] = [];
  for (let state = 0; state < count; state++) if (loops(automaton, component, state)) looping.push(state);
  if (looping.length < 2) return false;
  const from = new Map(looping.map((state) => [state, reachableFrom([state], forward, counter)]));
  const to = new Map(looping.map((state) => [state, reachableFrom([state], backward, counter)]));
  for (const p of looping) {
    const fromP = from.get(p)!;
    for (const q of looping) {
      if (p === q || !fromP[q]) continue;
      const toQ = to.get(q)!;
      const seen = new Set<number>([(p * count + p) * count + q]);
      const queue: [number, number, number][] = [[p, p, q]];
      while (queue.length > 0) {
        const [x, y, z] = queue.pop()!;
        for (const x2 of forward[x]!) {
          if (component[x2] !== component[p]) continue;
          for (const y2 of forward[y]!) {
            if (!toQ[y2] || !overlaps(chars[x2]!, chars[y2]!)) continue;
            for (const z2 of forward[z]!) {
              counter.step();
              if (component[z2] !== component[q] || !overlapsAll(chars[x2]!, chars[y2]!, chars[z2]!))
                continue;
              if (x2 === p && y2 === q && z2 === q) return true;
              const key = (x2 * count + y2) * count + z2;
              if (!seen.has(key)) {
                seen.add(key);
                queue.push([x2, y2, z2]);
              }
            }
          }
        }
      }
    }
  }
  return false;
};

/**
 * Whether backtracking on the automaton can take exponential or super-linear polynomial time
 * per start position, or `undefined` when neither.
 *
 * @param budget - how many steps the analysis may take
 * @throws {@link AnalysisTooLong} past the budget
 */
export function findAmbiguity(automaton: PositionAutomaton, budget: number): Ambiguity | undefined {
  const counter = new StepCounter(budget);
  const component = components(automaton);
  if (hasExponentialAmbiguity(automaton, component, counter)) return 'exponential';
  if (hasPolynomialAmbiguity(automaton, component, counter)) return 'polynomial';
  return undefined;
}
