import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { AnalysisTooLong, findAmbiguity } from './pattern-ambiguity';
import { buildPositionAutomaton, PatternTooLarge } from './pattern-automaton';
import { type Alternation, parsePattern } from './pattern-parser';

/**
 * Guards for `pattern`. JavaScript regular expressions backtrack, and some patterns take
 * exponential or high polynomial time on a hostile input; two defences keep a pattern from
 * hanging the server (arguments are checked before authentication):
 * - at registration, the pattern is parsed into its position automaton and refused when a
 *   text can take several paths through it in a way that grows with the text (see
 *   {@link describeAmbiguousRepetition});
 * - at run time, strings longer than {@link MAX_PATTERN_INPUT} code units are rejected without
 *   running the expression, which bounds what an accepted pattern costs: at most linear time
 *   per start position, so at most about a million steps for a search.
 */

/** The longest string (in UTF-16 code units) a `pattern` is run on. */
export const MAX_PATTERN_INPUT = 1_000;

/** The most automaton states a pattern may have (`a{1,10}` is ten); larger patterns are refused. */
const MAX_STATES = 400;

/** The most steps the analysis of one pattern may take; longer analyses refuse the pattern. */
const ANALYSIS_BUDGET = 5_000_000;

const EXPONENTIAL =
  'a repeated part can match the same text in more than one way (as in "(a|a)*", "(a+)+" or "(\\\\s*,\\\\s*)*"), so backtracking takes exponential time';
const POLYNOMIAL =
  'two repetitions can share the same text, with nothing between them that only one of them can match (as in ".*.*" or ".+@.+"), so backtracking takes polynomial time';

function describeTree(tree: Alternation): string | undefined {
  const automaton = buildPositionAutomaton(tree, MAX_STATES);
  const ambiguity = findAmbiguity(automaton, ANALYSIS_BUDGET);
  if (ambiguity !== undefined) return ambiguity === 'exponential' ? EXPONENTIAL : POLYNOMIAL;
  // A lookaround's body is matched on its own wherever the engine tries it.
  for (const body of automaton.lookarounds) {
    const problem = describeTree(body);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Why `pattern` (which compiles with the `u` flag) can backtrack in more than linear time per
 * start position, or `undefined`. It builds the pattern's position automaton (a state per
 * character the pattern consumes; anchors, lookarounds and large repetition counts widened so
 * that the automaton allows at least every path the engine can take) and refuses:
 *
 * - exponential ambiguity: a state that loops back to itself along two different paths on
 *   one text — `(a+)+`, `(\w+\s?)*`, `(a|a)*`, `(a|aa)+`, `(a|b|ab)*c`, `(\s*,\s*)*`;
 * - polynomial ambiguity: two looping states and one text that loops on the first, leads to
 *   the second and loops on it — `.*.*=`, `^\s*(.*?)\s*$`, and runs separated only by what
 *   both can match, `.+@.+\..+` (cubic on `@@@…@`: each `@` can be the one in the middle).
 *
 * `^\d+(,\d+)*$`, `^[a-z]+(-[a-z]+)*$`, `^[^@]+@[^@.]+\.[^@]+$` and `^(ab|abc)*$` are fine.
 * A pattern too large to analyse (more than 400 states) is refused too.
 */
export function describeAmbiguousRepetition(pattern: string): string | undefined {
  let tree: Alternation;
  try {
    tree = parsePattern(pattern);
  } catch {
    return 'the pattern could not be analysed';
  }
  try {
    return describeTree(tree);
  } catch (error) {
    if (error instanceof PatternTooLarge || error instanceof AnalysisTooLong) {
      return 'the pattern is too large to be checked; split it or use fewer and smaller repetition counts';
    }
    throw error;
  }
}

/**
 * Compiles a `pattern` keyword.
 *
 * @throws {@link Framework_Plugin_Exception} (400) naming the argument when the pattern does
 *   not compile with the `u` flag or can backtrack in more than linear time
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
      `${where}: pattern ${JSON.stringify(pattern)} is refused: ${problem}; ` +
        'rewrite it so that each part of a text can be matched in one way only, e.g. "^\\\\d+(,\\\\d+)*$" or "^[^@]+@[^@]+$"',
      400,
    );
  }
  return regex;
}
