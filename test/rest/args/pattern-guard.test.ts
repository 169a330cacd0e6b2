/**
 * The pattern guard against a timing oracle. Every `pattern` the guard accepts must cost a
 * backtracking search at most quadratic time in the input (linear per start position), which
 * the input cap of 1 000 code units keeps near a million steps.
 *
 * The oracle is a step-counting backtracking matcher (`support/backtracking-matcher.ts`): it
 * explores every choice V8 explores, without its shortcuts, so it never under-counts. Steps are
 * deterministic (no wall clock, nothing that a loaded machine could change): a case measures
 * one input family `prefix + unit × k + suffix` at two sizes four times apart, and fails when
 * the count grows by more than 4^2.3 ≈ 24 (quadratic growth is at most 16, cubic about 64) or
 * passes the per-case budget (exponential). Patterns are generated over a small alphabet with
 * few runs, so runs meet often.
 */
import { Framework_Plugin_Exception } from 'commerce-plugin-framework';
import { compileArgs } from 'commerce-plugin-framework/adapter-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countSteps,
  type PatternItem,
  patternSource,
  StepBudgetExceeded,
} from './support/backtracking-matcher';
import { inputShape, patternItems } from './support/pattern-arbitrary';

const SEED = 0x5eed;
/** Input length (in units of the family) of the small size; the large one is four times it. */
const SMALL_LENGTH = 64;
/** Steps a case may take at the large size: about 25 times what any accepted pattern took in 15 000 cases. */
const STEP_BUDGET = 20_000_000;
/** Growth between the two sizes above which a pattern is slower than quadratic. */
const MAX_GROWTH = 24;

function accepted(pattern: string): boolean {
  try {
    compileArgs({ v: { type: 'string', pattern } }, 'pattern-guard test');
    return true;
  } catch (error) {
    if (error instanceof Framework_Plugin_Exception && error.code === 400) return false;
    throw error;
  }
}

/** How the step count grows from `SMALL_LENGTH` to four times it (Infinity past the budget). */
function growth(
  items: readonly PatternItem[],
  input: { prefix: string; unit: string; suffix: string },
): number {
  const repeats = Math.ceil(SMALL_LENGTH / input.unit.length);
  const at = (count: number) =>
    countSteps(items, input.prefix + input.unit.repeat(count) + input.suffix, STEP_BUDGET).steps;
  try {
    return at(4 * repeats) / at(repeats);
  } catch (error) {
    if (error instanceof StepBudgetExceeded) return Number.POSITIVE_INFINITY;
    throw error;
  }
}

const char = (source: string, min = 1, max = 1): PatternItem => ({
  node: { kind: 'char', source },
  min,
  max,
});
const group = (alternatives: PatternItem[][], min = 1, max = 1): PatternItem => ({
  node: { kind: 'group', alternatives },
  min,
  max,
});
const end: PatternItem = { node: { kind: 'anchor', at: 'end' }, min: 1, max: 1 };
const INFINITY = Number.POSITIVE_INFINITY;

describe('the timing oracle', () => {
  it('sees quadratic, cubic and exponential searches apart', () => {
    const family = (unit: string, suffix = '') => ({ prefix: '', unit, suffix });
    // `a+b`, unanchored, on a…a: linear per start, quadratic in all.
    expect(growth([char('a', 1, INFINITY), char('b')], family('a'))).toBeLessThan(17);
    // `.+@.+\..+` on @…@: cubic.
    const email = [
      char('.', 1, INFINITY),
      char('@'),
      char('.', 1, INFINITY),
      char('\\.'),
      char('.', 1, INFINITY),
    ];
    expect(growth(email, family('@'))).toBeGreaterThan(MAX_GROWTH);
    // `(?:a|a)*$` on a…a!: exponential.
    expect(growth([group([[char('a')], [char('a')]], 0, INFINITY), end], family('a', '!'))).toBe(INFINITY);
  });
});

describe('the pattern guard', () => {
  it('refuses runs separated only by what both can match (".+@.+\\\\..+")', () => {
    for (const pattern of ['.+@.+\\..+', '(.+)@(.+)\\.', '^\\w+a\\w+!', '[ab]+ab[ab]+$', 'a+(?:aa)*$']) {
      expect(accepted(pattern), pattern).toBe(false);
    }
    for (const pattern of ['^[^@]+@[^@.]+\\.[^@]+$', '^\\d+(,\\d+)*$', '^[a-z]+(-[a-z]+)*$', '^(ab|abc)*$']) {
      expect(accepted(pattern), pattern).toBe(true);
    }
  });

  it('refuses a large bounded number of ways too ("(a|a){20}", a million per start)', () => {
    expect(accepted('(a|a){20}$')).toBe(false);
    expect(accepted('(?:\\d{1,3}\\.){3}\\d{1,3}')).toBe(true);
  });

  it('accepts only patterns whose search is at most quadratic (generated patterns, step oracle)', () => {
    let tried = 0;
    fc.assert(
      fc.property(patternItems, inputShape, (items, input) => {
        if (!accepted(patternSource(items))) return;
        tried++;
        expect(growth(items, input), patternSource(items)).toBeLessThanOrEqual(MAX_GROWTH);
      }),
      {
        seed: SEED,
        numRuns: 1000,
        examples: [
          // The review's finding: cubic on `@…@`, accepted before.
          [
            [char('.', 1, INFINITY), char('@'), char('.', 1, INFINITY), char('\\.'), char('.', 1, INFINITY)],
            { prefix: '', unit: '@', suffix: '' },
          ],
          // A run meets a repeated group that can be made of its characters.
          [
            [char('a', 1, INFINITY), group([[char('a'), char('a')]], 0, INFINITY), end],
            { prefix: '', unit: 'a', suffix: '!' },
          ],
          // A run inside an optional group, after a required character both runs match.
          [
            [
              char('\\w', 0, INFINITY),
              group([[char('\\w'), char('\\w', 1, INFINITY), char('[^a]', 2, 2)]], 0, 1),
              char('@', 1, INFINITY),
              end,
            ],
            { prefix: '', unit: 'b', suffix: '' },
          ],
        ],
      },
    );
    // The property must have had something to check.
    expect(tried).toBeGreaterThan(200);
  });
});
