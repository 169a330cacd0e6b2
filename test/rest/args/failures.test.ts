/** Argument failures as data: code, path, params; the message formatted from them, naming the path. */
import { type ArgSchema, formatArgFailure } from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echoServer } from '../support/echo-plugin';
import { call } from '../support/fixtures';

const ECHO = '/api/test/v1/echo';

async function failure(schema: ArgSchema, value: unknown) {
  const res = await call(echoServer({ v: schema }), 'POST', ECHO, { body: { v: value } });
  expect(res.status).toBe(400);
  expect(res.json.code).toBe('rest_invalid_param');
  const detail = res.json.data.details.v;
  expect(res.json.data.params.v).toBe(detail.message);
  return detail;
}

const LINE: ArgSchema = {
  type: 'object',
  required: ['sku'],
  additionalProperties: false,
  properties: {
    sku: { type: 'string', minLength: 3, pattern: '^[A-Z]+$' },
    quantity: { type: 'integer', minimum: 1, maximum: 99 },
    'gift wrap': { type: 'boolean' },
  },
};
const LINES: ArgSchema = { type: 'array', items: LINE, maxItems: 5 };

describe('argument failures', () => {
  it('name the path of a nested value, with the schema parameters', async () => {
    const lines = [{ sku: 'ABC' }, { sku: 'ABD' }, { sku: 'ab' }];
    expect(await failure(LINES, lines)).toEqual({
      code: 'rest_too_short',
      message: 'v[2].sku must be at least 3 characters long.',
      path: ['v', 2, 'sku'],
      params: { minLength: 3 },
    });
    expect(await failure(LINES, [{ sku: 'ABC', quantity: 100 }])).toEqual({
      code: 'rest_out_of_bounds',
      message: 'v[0].quantity must be between 1 (inclusive) and 99 (inclusive).',
      path: ['v', 0, 'quantity'],
      params: { minimum: 1, maximum: 99 },
    });
    expect(await failure(LINES, [{ sku: 'ABC', 'gift wrap': 'yes' }])).toMatchObject({
      code: 'rest_invalid_type',
      message: 'v[0]["gift wrap"] is not of type boolean.',
      path: ['v', 0, 'gift wrap'],
      params: { type: ['boolean'] },
    });
    expect(await failure(LINES, [{ quantity: 1 }])).toMatchObject({
      code: 'rest_property_required',
      path: ['v', 0, 'sku'],
      params: { property: 'sku' },
    });
    expect(await failure(LINES, [{ sku: 'ABC', note: 1 }])).toMatchObject({
      code: 'rest_additional_properties_forbidden',
      path: ['v', 0, 'note'],
      params: { property: 'note' },
    });
    expect(await failure(LINES, [{ sku: 'abc' }])).toMatchObject({
      code: 'rest_invalid_pattern',
      path: ['v', 0, 'sku'],
      params: { pattern: '^[A-Z]+$' },
    });
    expect(await failure(LINES, new Array(6).fill({ sku: 'ABC' }))).toMatchObject({
      code: 'rest_too_many_items',
      path: ['v'],
      params: { maxItems: 5 },
    });
    expect(await failure({ type: 'string', enum: ['a', 'b'] }, 'c')).toMatchObject({
      code: 'rest_not_in_enum',
      message: 'v is not one of a and b.',
      params: { allowed: ['a', 'b'] },
    });
    expect(await failure({ type: 'string', format: 'email' }, 'nope')).toMatchObject({
      code: 'rest_invalid_format',
      params: { format: 'email' },
    });
  });

  it('keep a custom message and pass custom steps the nested name', async () => {
    const names: string[] = [];
    const schema: ArgSchema = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: {
            type: 'string',
            validate: (value, _request, name) => {
              names.push(name);
              return value === 'ok' || `${name} must be ok.`;
            },
          },
        },
      },
    };
    expect(await failure(schema, [{ code: 'ok' }, { code: 'ko' }])).toEqual({
      code: 'rest_invalid_param',
      message: 'v[1].code must be ok.',
      path: ['v', 1, 'code'],
      params: { reason: 'custom', message: 'v[1].code must be ok.' },
    });
    expect(names).toEqual(['v[0].code', 'v[1].code']);
  });

  it('answers any integer outside [minimum, maximum] with rest_out_of_bounds naming both bounds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        async (minimum, span, distance, below) => {
          const maximum = minimum + span;
          const value = below ? minimum - distance : maximum + distance;
          const server = echoServer({ n: { type: 'integer', minimum, maximum } });
          const res = await call(server, 'GET', `${ECHO}?n=${value}`);
          expect(res.status).toBe(400);
          const detail = res.json.data.details.n;
          expect(detail).toMatchObject({
            code: 'rest_out_of_bounds',
            path: ['n'],
            params: { minimum, maximum },
          });
          expect(detail.message).toContain(String(minimum));
          expect(detail.message).toContain(String(maximum));
          expect(formatArgFailure(detail)).toBe(detail.message);
        },
      ),
      { numRuns: 60 },
    );
  });
});
