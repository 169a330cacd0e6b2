/** A seeded generator (mulberry32, shared with the tests): every run draws the same "random" scopes and reads. */
export { seededRandom } from '../../test/support/fault-injecting-store';

/** `count` distinct integers of [0, range), in random order (`count` ≤ `range`). */
export function distinctSample(random: () => number, range: number, count: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(random() * range));
  return [...chosen];
}
