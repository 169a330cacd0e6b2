import fc from 'fast-check';
import type { PatternItem, PatternNode } from './backtracking-matcher';

/** The character classes patterns are made of: a small alphabet, so that runs meet often. */
export const CHAR_SOURCES = ['a', 'b', '@', '.', '[ab]', '[^a]', '\\w'] as const;

/** The characters inputs are made of: the alphabet, one character only `.` and `[^a]` match, and one that `.` does not. */
export const INPUT_CHARS = ['a', 'b', '@', '!', '\n'] as const;

const INFINITY = Number.POSITIVE_INFINITY;
const bounds = fc.constantFrom<[number, number]>(
  [1, 1],
  [1, 1],
  [0, INFINITY],
  [1, INFINITY],
  [0, 1],
  [2, 2],
  [1, 3],
  [2, INFINITY],
);

const charNode: fc.Arbitrary<PatternNode> = fc
  .constantFrom(...CHAR_SOURCES)
  .map((source) => ({ kind: 'char' as const, source }));

/** Items: characters, and groups of one or two alternatives nested at most twice. */
const item: fc.Arbitrary<PatternItem> = fc.letrec<{ item: PatternItem; node: PatternNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: charNode },
    fc
      .array(fc.array(tie('item'), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 })
      .map((alternatives) => ({ kind: 'group' as const, alternatives })),
  ),
  item: fc.tuple(tie('node'), bounds).map(([node, [min, max]]) => ({ node, min, max })),
})).item;

/** Patterns of one to five items, optionally anchored at either end. */
export const patternItems: fc.Arbitrary<PatternItem[]> = fc
  .tuple(fc.boolean(), fc.array(item, { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([start, items, end]) => [
    ...(start ? [{ node: { kind: 'anchor' as const, at: 'start' as const }, min: 1, max: 1 }] : []),
    ...items,
    ...(end ? [{ node: { kind: 'anchor' as const, at: 'end' as const }, min: 1, max: 1 }] : []),
  ]);

/** A hostile input family: `prefix + unit × k + suffix`. */
export const inputShape = fc.record({
  prefix: fc.string({ unit: fc.constantFrom(...INPUT_CHARS), maxLength: 1 }),
  unit: fc.string({ unit: fc.constantFrom(...INPUT_CHARS), minLength: 1, maxLength: 3 }),
  suffix: fc.string({ unit: fc.constantFrom(...INPUT_CHARS), maxLength: 1 }),
});
