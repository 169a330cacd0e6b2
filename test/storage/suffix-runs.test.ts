import { MemoryOptionStore, type OptionStore } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../src/storage/suffix-runs';
import { describeWithService } from '../support/services';
import { dropOptionTables } from './fixtures/postgres-cleanup';

/**
 * Suffix scans against a model: random keys under a few prefixes (suffixes from an alphabet with
 * ASCII, U+E000–U+FFFF and astral characters, whose code-unit and code-point orders differ),
 * random page sizes and values: every page walk gives each suffix once, in the store's order,
 * with the prefixes it follows, the texts asked for and the joined keys. On PostgreSQL the runs
 * come in `COLLATE "C"` order and are merged in code-point order: the model's.
 */

/** Characters whose orders differ: `a` < `\uE000` < `\uFFFF` < `😀` by code point; by code unit the emoji comes first. */
const ALPHABET = ['a', 'b', '/', '\uE000', '\uFFFF', '😀', '𝄞'];
const suffix = fc
  .array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''));
const PREFIXES = ['p_a@', 'p_b@', 'p_c@'];
const MARKER = 'p:m@';

const state = fc.record({
  held: fc.array(fc.tuple(fc.constantFrom(...PREFIXES, MARKER), suffix), { maxLength: 40 }),
  values: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
  count: fc.integer({ min: 1, max: 7 }),
});

/** Every page of a suffix scan of `store`, as one list. */
async function walk(store: OptionStore, values: readonly boolean[], count: number) {
  const seen: { suffix: string; held: number[]; texts: string[]; joined: (string | null)[] }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const answer = await store.scanSuffixes!({ prefixes: PREFIXES, values, joined: [MARKER], cursor, count });
    expect(answer.suffixes.length).toBeLessThanOrEqual(count);
    for (const [index, each] of answer.suffixes.entries()) {
      seen.push({
        suffix: each,
        held: answer.held[index]!,
        texts: answer.texts[index]!,
        joined: answer.joined[index]!,
      });
    }
    cursor = answer.cursor;
    if (cursor === null) return seen;
  }
  throw new Error('the scan did not end');
}

/** What the walk must give for `data`, in `order`. */
function model(
  data: ReadonlyMap<string, string>,
  values: readonly boolean[],
  order: (a: string, b: string) => number,
) {
  const suffixes = new Set<string>();
  for (const key of data.keys())
    for (const prefix of PREFIXES) if (key.startsWith(prefix)) suffixes.add(key.slice(prefix.length));
  return [...suffixes].sort(order).map((each) => {
    const held = PREFIXES.flatMap((prefix, index) => (data.has(prefix + each) ? [index] : []));
    return {
      suffix: each,
      held,
      texts: held.filter((index) => values[index]).map((index) => data.get(PREFIXES[index]! + each)!),
      joined: [data.get(MARKER + each) ?? null],
    };
  });
}

/** The stored keys of a generated state, each text naming its key. */
function keysOf(held: readonly (readonly [string, string])[]): Map<string, string> {
  return new Map(held.map(([prefix, each]) => [prefix + each, `text of ${prefix}${each}`]));
}

describe('compareCodePoints', () => {
  it('is the byte order of UTF-8', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        (a, b) => {
          expect(Math.sign(compareCodePoints(a, b))).toBe(
            Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('scanSuffixes against a model', () => {
  it('memory: in code-unit order', async () => {
    await fc.assert(
      fc.asyncProperty(state, async ({ held, values, count }) => {
        const data = keysOf(held);
        const store = new MemoryOptionStore(data);
        expect(await walk(store, values, count)).toEqual(
          model(data, values, (a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describeWithService('DATABASE_URL', 'scanSuffixes on PostgreSQL against a model', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  afterAll(() => pool.end());

  it('in code-point order (COLLATE "C")', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(state, async ({ held, values, count }) => {
        const table = `suffix_runs_${process.pid}_${run++}`;
        const store = new PostgresOptionStore({ client: pool, table });
        try {
          const data = keysOf(held);
          for (const [key, text] of data) await store.set(key, text);
          expect(await walk(store, values, count)).toEqual(model(data, values, compareCodePoints));
        } finally {
          await store.close();
          await dropOptionTables(pool, table);
        }
      }),
      { numRuns: 40 },
    );
  });
});
