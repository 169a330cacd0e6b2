/**
 * The generated argument runner (straight-line code with inline fast paths) must behave exactly
 * like the portable loop runner: same params, same errors, for any schema and input.
 */
import { type ArgSchema, RestError } from 'commerce-plugin-framework';
import { compileArgs } from 'commerce-plugin-framework/adapter-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

function outcome(run: () => Record<string, unknown>): unknown {
  try {
    return { params: run() };
  } catch (error) {
    if (error instanceof RestError) return { error: error.toJSON() };
    throw error;
  }
}

const scalarSchema: fc.Arbitrary<ArgSchema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('integer' as const),
      minimum: fc.integer({ min: -5, max: 5 }),
      maximum: fc.integer({ min: 5, max: 50 }),
      exclusiveMinimum: fc.boolean(),
      exclusiveMaximum: fc.boolean(),
      required: fc.boolean(),
      enum: fc.uniqueArray(fc.integer({ min: -5, max: 50 }), { minLength: 1, maxLength: 10 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('number' as const),
      minimum: fc.double({ min: -10, max: 0, noNaN: true }),
      maximum: fc.double({ min: 0, max: 10, noNaN: true }),
      required: fc.boolean(),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('string' as const),
      minLength: fc.nat(3),
      maxLength: fc.integer({ min: 3, max: 8 }),
      enum: fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 12 }),
      required: fc.boolean(),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('boolean' as const), required: fc.boolean() }, { requiredKeys: ['type'] }),
  fc.record(
    {
      type: fc.constantFrom<ArgSchema['type']>(['integer', 'null'], 'array', 'object', ['string', 'integer']),
      required: fc.boolean(),
    },
    { requiredKeys: ['type'] },
  ),
);

const textValue = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '-0',
    '1',
    '5',
    '12',
    '-3',
    '2.5',
    'true',
    'false',
    'TRUE',
    'abc',
    'a,b',
    '1e2',
    ' 7',
  ),
  fc.string({ maxLength: 6 }),
);
const jsonValue = fc.oneof(
  fc.integer({ min: -10, max: 60 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 6 }),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('generated and loop runners', () => {
  it('generates code on this runtime', () => {
    expect(compileArgs({ a: { type: 'integer' } }, 'test').generated).toBe(true);
    expect(compileArgs({ a: { type: 'integer' } }, 'test', { generate: false }).generated).toBe(false);
  });

  it('agree on every schema and input', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('a', 'b', 'c', 'toString', 'per_page', 'x"y', 'line\u2028sep'),
          scalarSchema,
          {
            maxKeys: 4,
          },
        ),
        fc.dictionary(
          fc.constantFrom('a', 'b', 'c', 'toString', 'per_page', 'x"y', 'line\u2028sep'),
          fc.oneof(textValue, fc.array(textValue, { maxLength: 3 })),
        ),
        fc.option(fc.dictionary(fc.constantFrom('a', 'b', 'c', 'toString'), jsonValue), { nil: undefined }),
        fc.option(fc.dictionary(fc.constantFrom('a', 'c'), fc.constantFrom('1', '22', 'x')), { nil: null }),
        (args, query, body, path) => {
          const generated = compileArgs(args, 'test');
          const loop = compileArgs(args, 'test', { generate: false });
          expect(generated.generated).toBe(true);
          const record = Object.fromEntries(Object.entries(query));
          const map = new Map(Object.entries(query));
          const text = new URLSearchParams(
            Object.entries(query).flatMap(([key, value]) =>
              Array.isArray(value) ? value.map((v) => [key, v]) : [[key, value]],
            ),
          ).toString();
          for (const input of [record, map, text]) {
            expect(outcome(() => generated.run(path, body, input, null))).toEqual(
              outcome(() => loop.run(path, body, input, null)),
            );
          }
        },
      ),
      { numRuns: 1500, seed: 99 },
    );
  });
});
