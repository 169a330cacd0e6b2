/** Large input spaces, checked with fast-check (seeded, reproducible). */
import { type ArgSchema, allowPublic, type EndpointDefinition } from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echoServer, type RouteTable, tableServer } from './support/echo-plugin';
import { call } from './support/fixtures';

const RUNS = { numRuns: 300, seed: 20240501 };

describe('query coercion', () => {
  const server = echoServer({
    i: { type: 'integer' },
    n: { type: 'number' },
    b: { type: 'boolean' },
    a: { type: 'array', items: { type: 'integer' } },
    s: { type: 'string' },
  });

  it('round-trips safe integers, finite numbers, booleans and integer lists through the query string', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.maxSafeInteger(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.array(fc.integer(), { maxLength: 5 }),
        fc.string(),
        async (i, n, b, a, s) => {
          const query = new URLSearchParams({ i: String(i), n: String(n), b: String(b), a: a.join(','), s });
          const res = await call(server, 'GET', `/api/test/v1/echo?${query}`);
          expect(res.status).toBe(200);
          expect(res.json.params).toEqual({ i, n: Object.is(n, -0) ? 0 : n, b, a, s });
        },
      ),
      RUNS,
    );
  });

  it('never fails on arbitrary query text: 200 or a 400 argument error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (name, value) => {
        const query = new URLSearchParams([
          [['i', 'n', 'b', 'a', 's'][name.length % 5]!, value],
          [name, value],
        ]);
        const res = await call(server, 'GET', `/api/test/v1/echo?${query}`);
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect(res.json.code).toBe('rest_invalid_param');
      }),
      RUNS,
    );
  });

  it('never fails on arbitrary JSON values against a rich schema', async () => {
    const rich: ArgSchema = {
      type: ['object', 'array', 'string'],
      properties: {
        x: { type: 'integer', minimum: 0 },
        y: { type: 'string', pattern: '^[a-z]+$', maxLength: 5 },
      },
      additionalProperties: { type: ['string', 'number'] },
      items: { type: 'string', format: 'ip' },
      minLength: 1,
      format: 'date-time',
    };
    const richServer = echoServer({ v: rich });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const res = await call(richServer, 'POST', '/api/test/v1/echo', { body: { v: value } });
        if (value === null) expect(res.status).toBe(400);
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect(res.json.code).toBe('rest_invalid_param');
      }),
      RUNS,
    );
  });
});

describe('route matching', () => {
  const segment = fc.constantFrom('a', 'b', 'items', 'x-y', '{id}', '{name}');

  it('matches like a reference matcher that tries every route (static, then digits, then text)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.array(segment, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        fc.array(
          fc.array(fc.constantFrom('a', 'b', 'items', 'x-y', '7', '42', 'zz'), {
            minLength: 1,
            maxLength: 4,
          }),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        async (templates, requests) => {
          // Shapes: {id} is an integer parameter, {name} a text parameter; routes with equal
          // shapes are refused, so keep the first of each shape.
          const shapes = new Set<string>();
          const routes = templates.filter((parts) => {
            const shape = parts
              .map((part) => (part === '{id}' ? '#' : part === '{name}' ? '*' : part))
              .join('/');
            if (shapes.has(shape)) return false;
            shapes.add(shape);
            return !parts.includes('{id}') || parts.indexOf('{id}') === parts.lastIndexOf('{id}');
          });
          const table: RouteTable = routes
            .filter((parts) => parts.indexOf('{name}') === parts.lastIndexOf('{name}'))
            .map((parts, index) => {
              const endpoint: EndpointDefinition = {
                methods: 'GET',
                permission: allowPublic(),
                args: parts.includes('{id}') ? { id: { type: 'integer' } } : {},
                handler: () => index,
              };
              return ['t/v1', `/${parts.join('/')}`, endpoint];
            });
          const server = tableServer(table);
          const reference = (path: string[]): number | null => {
            // Rank candidates the way the matcher walks: per segment, static < digits < text.
            let best: { index: number; rank: number[] } | null = null;
            table.forEach(([, template], index) => {
              const parts = template.slice(1).split('/');
              if (parts.length !== path.length) return;
              const rank: number[] = [];
              for (let i = 0; i < parts.length; i++) {
                const part = parts[i]!;
                if (part === path[i]) rank.push(0);
                else if (part === '{id}' && /^\d+$/.test(path[i]!)) rank.push(1);
                else if (part === '{name}') rank.push(2);
                else return;
              }
              const better =
                best === null ||
                rank.some(
                  (value, i) =>
                    value < best!.rank[i]! && rank.slice(0, i).every((v, j) => v === best!.rank[j]),
                );
              if (better) best = { index, rank };
            });
            return best === null ? null : (best as { index: number }).index;
          };
          for (const path of requests) {
            const res = await call(server, 'GET', `/api/t/v1/${path.join('/')}`);
            const expected = reference(path);
            if (expected === null) expect(res.status).toBe(404);
            else expect(res.json).toBe(expected);
          }
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});
