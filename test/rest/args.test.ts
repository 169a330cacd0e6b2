import { type ArgSchema, allowPublic, Framework_Plugin_Exception } from 'commerce-plugin-framework';
import { compileArgs } from 'commerce-plugin-framework/adapter-kit';
import { describe, expect, it } from 'vitest';
import { echoServer, tableServer } from './support/echo-plugin';
import { ADMIN_TOKEN, call, makeServer } from './support/fixtures';

const ECHO = '/api/test/v1/echo';

/** Sends `value` for argument `v` in the query string (text) and answers the result. */
async function viaQuery(schema: ArgSchema, text: string) {
  const res = await call(echoServer({ v: schema }), 'GET', `${ECHO}?v=${encodeURIComponent(text)}`);
  return res;
}

/** Sends `value` for argument `v` in a JSON body and answers the result. */
async function viaBody(schema: ArgSchema, value: unknown) {
  return call(echoServer({ v: schema }), 'POST', ECHO, { body: { v: value } });
}

async function accepts(schema: ArgSchema, value: unknown, expected: unknown = value) {
  const res = await viaBody(schema, value);
  expect(res.status, `${JSON.stringify(value)} should be accepted: ${res.text}`).toBe(200);
  expect(res.json.params.v).toEqual(expected);
}

async function rejects(schema: ArgSchema, value: unknown, code: string) {
  const res = await viaBody(schema, value);
  expect(res.status, `${JSON.stringify(value)} should be rejected`).toBe(400);
  expect(res.json.code).toBe('rest_invalid_param');
  expect(res.json.data.details.v.code).toBe(code);
  expect(res.json.data.params.v).toBe(res.json.data.details.v.message);
  expect(res.json.data.params.v).toContain('v');
}

describe('type', () => {
  it('checks JSON body values strictly', async () => {
    await accepts({ type: 'string' }, 'x');
    await rejects({ type: 'string' }, 5, 'rest_invalid_type');
    await accepts({ type: 'integer' }, 5);
    await accepts({ type: 'integer' }, 5.0, 5);
    await rejects({ type: 'integer' }, 5.5, 'rest_invalid_type');
    await rejects({ type: 'integer' }, '5', 'rest_invalid_type');
    await rejects({ type: 'integer' }, 2 ** 53, 'rest_invalid_type');
    await accepts({ type: 'number' }, 5.5);
    await rejects({ type: 'number' }, '5.5', 'rest_invalid_type');
    await accepts({ type: 'boolean' }, false);
    await rejects({ type: 'boolean' }, 'true', 'rest_invalid_type');
    await rejects({ type: 'boolean' }, 0, 'rest_invalid_type');
    await accepts({ type: 'array' }, [1, 'a']);
    await rejects({ type: 'array' }, 'a,b', 'rest_invalid_type');
    await accepts({ type: 'object' }, { a: 1 });
    await rejects({ type: 'object' }, [1], 'rest_invalid_type');
    await accepts({ type: 'null' }, null);
    await rejects({ type: 'null' }, '', 'rest_invalid_type');
  });

  it('coerces query-string values', async () => {
    const cases: [ArgSchema, string, unknown][] = [
      [{ type: 'integer' }, '5', 5],
      [{ type: 'integer' }, '-12', -12],
      [{ type: 'number' }, '2.5', 2.5],
      [{ type: 'number' }, '1e3', 1000],
      [{ type: 'boolean' }, 'true', true],
      [{ type: 'boolean' }, 'false', false],
      [{ type: 'boolean' }, '1', true],
      [{ type: 'boolean' }, '0', false],
      [{ type: 'array' }, 'a,b,c', ['a', 'b', 'c']],
      [{ type: 'array' }, '', []],
      [{ type: 'array', items: { type: 'integer' } }, '1,2,3', [1, 2, 3]],
      [{ type: 'null' }, '', null],
      [{ type: 'string' }, '5', '5'],
      [{}, 'as is', 'as is'],
      [{ type: ['integer', 'string'] }, '5', 5],
      [{ type: ['string', 'integer'] }, '5', '5'],
      [{ type: ['boolean', 'integer'] }, '7', 7],
    ];
    for (const [schema, text, expected] of cases) {
      const res = await viaQuery(schema, text);
      expect(res.status, `${text} as ${JSON.stringify(schema)}`).toBe(200);
      expect(res.json.params.v).toEqual(expected);
    }
    for (const [schema, text] of [
      [{ type: 'integer' }, '5.5'],
      [{ type: 'integer' }, '5x'],
      [{ type: 'integer' }, ''],
      [{ type: 'integer' }, '99999999999999999999'],
      [{ type: 'number' }, 'NaN'],
      [{ type: 'number' }, '1e999'],
      [{ type: 'boolean' }, 'yes'],
      [{ type: 'object' }, '{}'],
      [{ type: 'array', items: { type: 'integer' } }, '1,x'],
    ] as [ArgSchema, string][]) {
      const res = await viaQuery(schema, text);
      expect(res.status, `${text} as ${JSON.stringify(schema)}`).toBe(400);
      expect(res.json.code).toBe('rest_invalid_param');
    }
  });

  it('accepts a union of types in order', async () => {
    await accepts({ type: ['integer', 'string'] }, 'x');
    await accepts({ type: ['integer', 'null'] }, null);
    await rejects({ type: ['integer', 'null'] }, 'x', 'rest_invalid_type');
    const res = await viaBody({ type: ['integer', 'null'] }, true);
    expect(res.json.data.params.v).toBe('v is not of type integer,null.');
  });

  it('joins repeated query keys for arrays; for scalars takes identical repeats once, refuses differing ones', async () => {
    const list = await call(echoServer({ v: { type: 'array' } }), 'GET', `${ECHO}?v=a,b&v=c`);
    expect(list.json.params.v).toEqual(['a', 'b', 'c']);
    const scalar = await call(echoServer({ v: { type: 'integer' } }), 'GET', `${ECHO}?v=1&v=2`);
    expect([scalar.status, scalar.json.data.params.v]).toEqual([
      400,
      'v was given more than once, with different values.',
    ]);
    const args: Record<string, ArgSchema> = { v: { type: 'integer', enum: [1, 2] }, s: { type: 'string' } };
    for (const generate of [true, false]) {
      const { run } = compileArgs(args, 'repeats', { generate });
      expect(run(null, undefined, 'v=2&s=x&v=2&s=x', null)).toEqual({ v: 2, s: 'x' });
      expect(run(null, undefined, { v: ['1', '1'] }, null)).toEqual({ v: 1 });
      expect(() => run(null, undefined, 'v=1&v=2', null)).toThrow(/Invalid parameter/);
      expect(() => run(null, undefined, 'v=3&v=3', null)).toThrow(/Invalid parameter/);
    }
  });
});

describe('required, default and sources', () => {
  it('reports every missing required argument', async () => {
    const server = echoServer({ a: { required: true }, b: { type: 'integer', required: true }, c: {} });
    const res = await call(server, 'GET', ECHO);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'rest_missing_callback_param',
      message: expect.stringContaining('a, b'),
      data: { status: 400, params: ['a', 'b'] },
    });
  });

  it('reports missing arguments before invalid ones', async () => {
    const server = echoServer({ a: { type: 'integer' }, b: { required: true } });
    expect((await call(server, 'GET', `${ECHO}?a=x`)).json.code).toBe('rest_missing_callback_param');
  });

  it('reports every invalid argument at once', async () => {
    const server = echoServer({ a: { type: 'integer' }, b: { type: 'boolean' }, c: { type: 'string' } });
    const res = await call(server, 'GET', `${ECHO}?a=x&b=maybe&c=fine`);
    expect(Object.keys(res.json.data.params)).toEqual(['a', 'b']);
    expect(Object.keys(res.json.data.details)).toEqual(['a', 'b']);
  });

  it('treats null as missing for a required argument unless the type allows null', async () => {
    expect((await viaBody({ required: true }, null)).json.code).toBe('rest_missing_callback_param');
    expect((await viaBody({ type: ['string', 'null'], required: true }, null)).json.params.v).toBeNull();
    expect((await viaBody({ type: 'string' }, null)).json.code).toBe('rest_invalid_param');
  });

  it('applies defaults to absent arguments, not validated per request', async () => {
    const server = echoServer({
      page: { type: 'integer', default: 1 },
      tags: { type: 'array', default: ['a'] },
      none: { type: 'string' },
    });
    const res = await call(server, 'GET', ECHO);
    expect(res.json.params).toEqual({ page: 1, tags: ['a'] });
    expect((await call(server, 'GET', `${ECHO}?page=3`)).json.params.page).toBe(3);
  });

  it('validates defaults at registration', () => {
    const bad: ArgSchema[] = [
      { type: 'integer', default: '1' },
      { type: 'integer', minimum: 1, default: 0 },
      { type: 'string', enum: ['a'], default: 'b' },
      { type: 'string', format: 'email', default: 'nope' },
    ];
    for (const schema of bad) {
      expect(() => echoServer({ v: schema })).toThrow(Framework_Plugin_Exception);
      expect(() => echoServer({ v: schema })).toThrow(/argument "v": invalid default/);
    }
  });

  it('takes values path > body > query and ignores unknown arguments', async () => {
    const server = tableServer([
      [
        'test/v1',
        '/p/{id}',
        {
          methods: ['GET', 'POST', 'DELETE'],
          permission: allowPublic(),
          args: { id: { type: 'integer' }, a: { type: 'integer' }, b: { type: 'integer' } },
          handler: (request) => request.params,
        },
      ],
    ]);
    const query = '/api/test/v1/p/1?id=2&a=2&b=3&unknown=4';
    const res = await call(server, 'DELETE', query, { body: { id: 3, a: 5, other: 1 } });
    expect(res.json).toEqual({ id: 1, a: 5, b: 3 });
    expect((await call(server, 'GET', query)).json).toEqual({ id: 1, a: 2, b: 3 });
  });

  it('takes no query arguments on a write that announces a form content type (no cross-site form writes)', async () => {
    const server = tableServer([
      [
        'test/v1',
        '/w',
        {
          methods: ['POST', 'PUT', 'PATCH'],
          permission: allowPublic(),
          args: { a: { type: 'integer' }, b: { type: 'integer', default: 0 } },
          handler: (request) => request.params,
        },
      ],
    ]);
    for (const method of ['POST', 'PUT', 'PATCH']) {
      // JSON writes keep the contract's precedence: path > body > query.
      expect((await call(server, method, '/api/test/v1/w?a=1&b=2', { body: { a: 5 } })).json).toEqual({
        a: 5,
        b: 2,
      });
      for (const type of [
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'text/plain',
      ]) {
        const answer = await call(server, method, '/api/test/v1/w?a=1&b=2', {
          rawBody: '',
          headers: { 'content-type': type },
        });
        expect(answer.json).toEqual({ b: 0 });
      }
    }
    const settings = makeServer();
    const form = await call(settings, 'POST', '/api/commerce/v3/acme/settings/retries?value=9', {
      token: ADMIN_TOKEN,
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.json.code]).toEqual([400, 'rest_missing_callback_param']);
  });
});

describe('numbers', () => {
  it('checks minimum and maximum, inclusive by default', async () => {
    const schema: ArgSchema = { type: 'number', minimum: 1, maximum: 10 };
    await accepts(schema, 1);
    await accepts(schema, 10);
    await rejects(schema, 0.5, 'rest_out_of_bounds');
    await rejects(schema, 10.5, 'rest_out_of_bounds');
    await rejects({ type: 'integer', minimum: 1 }, 0, 'rest_out_of_bounds');
    await rejects({ type: 'integer', maximum: 1 }, 2, 'rest_out_of_bounds');
    const message = (await viaBody({ type: 'integer', minimum: 1 }, 0)).json.data.params.v;
    expect(message).toBe('v must be greater than or equal to 1.');
  });

  it('checks exclusiveMinimum and exclusiveMaximum (draft-04 boolean form)', async () => {
    const schema: ArgSchema = {
      type: 'number',
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
    };
    await accepts(schema, 0.5);
    await rejects(schema, 0, 'rest_out_of_bounds');
    await rejects(schema, 1, 'rest_out_of_bounds');
    const message = (await viaBody({ type: 'number', minimum: 0, exclusiveMinimum: true }, 0)).json.data
      .params.v;
    expect(message).toBe('v must be greater than 0.');
  });

  it('coerces before checking bounds', async () => {
    expect((await viaQuery({ type: 'integer', maximum: 100 }, '101')).json.data.details.v.code).toBe(
      'rest_out_of_bounds',
    );
  });
});

describe('strings', () => {
  it('counts minLength and maxLength in code points', async () => {
    const schema: ArgSchema = { type: 'string', minLength: 2, maxLength: 3 };
    await accepts(schema, 'ab');
    await accepts(schema, '😀😀😀');
    await rejects(schema, 'a', 'rest_too_short');
    await rejects(schema, 'abcd', 'rest_too_long');
    await rejects(schema, '😀😀😀😀', 'rest_too_long');
    expect((await viaBody({ type: 'string', minLength: 1 }, '')).json.data.params.v).toBe(
      'v must be at least 1 character long.',
    );
  });

  it('checks pattern with the u flag, unanchored unless anchored', async () => {
    await accepts({ type: 'string', pattern: '^[A-Z]{3}$' }, 'EUR');
    await rejects({ type: 'string', pattern: '^[A-Z]{3}$' }, 'eur', 'rest_invalid_pattern');
    await accepts({ type: 'string', pattern: 'b' }, 'abc');
    await accepts({ type: 'string', pattern: '^\\p{Lu}+$' }, 'ÄÖ');
    await accepts({ type: 'string', pattern: '^.$' }, '😀');
  });

  it('refuses patterns that cannot compile or can backtrack exponentially', () => {
    const refused = [
      '(',
      '\\q',
      '(a+)+$',
      '^(\\w*)*$',
      '([a-z]+){2,}x',
      '(?:.+)*',
      '^(\\w+\\s?)*$',
      '(\\d+\\.?)+$',
      '(a|a)*$',
      '^(a|a?)+$',
      '(x+x+)+y',
      '(\\w|\\d)+$',
      '(\\d{1,3}\\.?)+$',
      '((a+)b?)*c',
      '(a+){3}',
      '(a|b|ab)*c',
      '^(a|aa)+$',
      '(\\s*,\\s*)*$',
      '(\\d+\\.\\d+)*$',
      '^(([a-z])+.)+[A-Z]([a-z])+$',
      '.*.*=.*',
      '^\\s*(.*?)\\s*$',
      // Runs separated only by what both match: the `.` can be any of the dots of `a@b.....`.
      '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
      '.+@.+\\..+',
    ];
    for (const pattern of refused) {
      expect(() => echoServer({ v: { type: 'string', pattern } }), pattern).toThrow(
        Framework_Plugin_Exception,
      );
    }
  });

  it('accepts patterns whose repetitions match one way only', () => {
    const accepted = [
      '^\\d+(,\\d+)*$',
      '^(ab)*$',
      '^[a-z]+(-[a-z]+)*$',
      '^([a-z]+\\.)*[a-z]+$',
      '^(get|post)+$',
      '^(ab|ac)*$',
      '^(https?|ftp)://',
      '^(?=.*\\d).{8,}$',
      '^\\uD83D\\uDE00+$',
      '^\\p{L}+$',
      '(a|b)*c',
      '^\\d{4}-\\d{2}-\\d{2}$',
      '^[^\\s@]+@(?:[^\\s@.]+\\.)+[^\\s@.]+$',
      '^#?([a-f0-9]{6}|[a-f0-9]{3})$',
      '^(\\d+,)*$',
    ];
    for (const pattern of accepted) {
      expect(() => echoServer({ v: { type: 'string', pattern } }), pattern).not.toThrow();
    }
  });

  it('does not run a pattern on over-long input', async () => {
    const res = await viaBody({ type: 'string', pattern: '^a*$' }, 'a'.repeat(1_001));
    expect(res.json.data.details.v.code).toBe('rest_invalid_pattern');
    await accepts({ type: 'string', pattern: '^a*$' }, 'a'.repeat(1_000));
  });

  const formats: [string, string[], string[]][] = [
    [
      'email',
      ['ops@example.com', "a.b+c!#$%&'*/=?^_`{|}~-@sub.example.co"],
      ['nope', 'a@b', 'a@@b.com', 'a b@c.com', 'x@-a.com'],
    ],
    [
      'uri',
      ['https://example.com/a?b#c', 'mailto:x@y.z', 'urn:isbn:123'],
      ['example.com', '/relative', 'http://exa mple.com', 'https://'],
    ],
    [
      'date-time',
      [
        '2024-05-01T12:30:00Z',
        '2024-05-01T12:30:00.123+02:00',
        '2024-02-29T00:00:00-05:30',
        '2024-05-01 12:30:00',
      ],
      ['2024-05-01', '2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-05-01T25:00:00Z', 'yesterday'],
    ],
    [
      'uuid',
      ['123e4567-e89b-12d3-a456-426614174000', 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE'],
      ['123e4567e89b12d3a456426614174000', 'g23e4567-e89b-12d3-a456-426614174000'],
    ],
    [
      'ip',
      [
        '127.0.0.1',
        '255.255.255.255',
        '::1',
        '::',
        '2001:db8::8a2e:370:7334',
        '::ffff:192.0.2.1',
        '1:2:3:4:5:6:7:8',
      ],
      [
        '256.1.1.1',
        '1.2.3',
        '01.2.3.4',
        '1:2:3:4:5:6:7:8:9',
        '1::2::3',
        ':1',
        'fe80::1%eth0',
        'example.com',
        '12345::',
      ],
    ],
    ['hex-color', ['#fff', '#A0b1C2'], ['fff', '#ffff', '#ggg', '#12345']],
  ];
  for (const [format, good, bad] of formats) {
    it(`checks format ${format}`, async () => {
      for (const value of good) await accepts({ type: 'string', format }, value);
      for (const value of bad) await rejects({ type: 'string', format }, value, 'rest_invalid_format');
    });
  }

  it('ignores format for non-strings and refuses unknown formats', async () => {
    await accepts({ type: ['string', 'integer'], format: 'email' }, 5);
    expect(() => echoServer({ v: { type: 'string', format: 'zip-code' } })).toThrow(/unknown format/);
  });
});

describe('enum', () => {
  it('accepts listed values only, with deep equality for structures', async () => {
    await accepts({ enum: ['a', 1, null] }, 1);
    await accepts({ enum: ['a', 1, null] }, null);
    await rejects({ enum: ['a', 1] }, '1', 'rest_not_in_enum');
    await accepts({ type: 'object', enum: [{ a: [1, 2] }] }, { a: [1, 2] });
    await rejects({ type: 'object', enum: [{ a: [1, 2] }] }, { a: [2, 1] }, 'rest_not_in_enum');
    const res = await viaBody({ type: 'string', enum: ['ASC', 'DESC'] }, 'up');
    expect(res.json.data.params.v).toBe('v is not one of ASC and DESC.');
  });

  it('checks enum after coercion', async () => {
    expect((await viaQuery({ type: 'integer', enum: [1, 2] }, '2')).json.params.v).toBe(2);
  });
});

describe('arrays and objects', () => {
  it('checks items, minItems, maxItems and uniqueItems', async () => {
    const schema: ArgSchema = {
      type: 'array',
      items: { type: 'integer', minimum: 0 },
      minItems: 1,
      maxItems: 3,
    };
    await accepts(schema, [0, 1, 2]);
    await rejects(schema, [], 'rest_too_few_items');
    await rejects(schema, [1, 2, 3, 4], 'rest_too_many_items');
    await rejects(schema, [1, -1], 'rest_out_of_bounds');
    await rejects(schema, [1, '2'], 'rest_invalid_type');
    expect((await viaBody(schema, [1, -1])).json.data.params.v).toBe(
      'v[1] must be greater than or equal to 0.',
    );
    await rejects({ type: 'array', uniqueItems: true }, [{ a: 1 }, { a: 1 }], 'rest_duplicate_items');
    await accepts({ type: 'array', uniqueItems: true }, [{ a: 1 }, { a: 2 }]);
  });

  it('uniqueItems compares items deeply: key order does not count, types do', async () => {
    const unique: ArgSchema = { type: 'array', uniqueItems: true };
    await rejects(
      unique,
      [
        { a: 1, b: [1, { c: 2 }] },
        { b: [1, { c: 2 }], a: 1 },
      ],
      'rest_duplicate_items',
    );
    await rejects(unique, ['x', 1, 'x'], 'rest_duplicate_items');
    await rejects(
      unique,
      [
        [1, 2],
        [1, 2],
      ],
      'rest_duplicate_items',
    );
    await rejects(unique, [null, null], 'rest_duplicate_items');
    await accepts(unique, [1, '1', true, 'true', null, 'null', [], {}, [1, 2], [2, 1], { a: '1' }, { a: 1 }]);
    expect(
      (await viaQuery({ type: 'array', items: { type: 'integer' }, uniqueItems: true }, '1,2,01')).json.data
        .details.v.code,
    ).toBe('rest_duplicate_items');
  });

  it('uniqueItems reads each item once (linear), not once per pair', () => {
    const validator = compileArgs({ v: { type: 'array', uniqueItems: true } }, 'test');
    let reads = 0;
    const items = Array.from({ length: 2_000 }, (_, index) => {
      const item = {};
      Object.defineProperty(item, 'n', {
        enumerable: true,
        get: () => {
          reads++;
          return index;
        },
      });
      return item;
    });
    expect(validator.run(null, { v: items }, '', null).v).toBe(items);
    // Pairwise comparison read about 2 000 × 2 000 properties; one pass reads each item once.
    expect(reads).toBeLessThanOrEqual(2 * items.length);
  });

  it('checks properties, the required list, required:true properties and additionalProperties', async () => {
    const schema: ArgSchema = {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string', required: true } },
      required: ['a'],
    };
    await accepts(schema, { a: 1, b: 'x', extra: true });
    await rejects(schema, { b: 'x' }, 'rest_property_required');
    await rejects(schema, { a: 1 }, 'rest_property_required');
    await rejects(schema, { a: 'x', b: 'x' }, 'rest_invalid_type');
    expect((await viaBody(schema, { a: 'x', b: 'y' })).json.data.params.v).toBe(
      'v.a is not of type integer.',
    );
    await rejects(
      { type: 'object', additionalProperties: false },
      { z: 1 },
      'rest_additional_properties_forbidden',
    );
    const typedExtra: ArgSchema = {
      type: 'object',
      properties: { a: {} },
      additionalProperties: { type: 'integer' },
    };
    await accepts(typedExtra, { a: 'any', z: 1 });
    await rejects(typedExtra, { a: 'any', z: 'x' }, 'rest_invalid_type');
  });

  it('never coerces values nested in a JSON body', async () => {
    await rejects({ type: 'array', items: { type: 'integer' } }, ['1'], 'rest_invalid_type');
    await rejects(
      { type: 'object', properties: { n: { type: 'boolean' } } },
      { n: 'true' },
      'rest_invalid_type',
    );
  });
});

describe('custom validate and sanitize', () => {
  it('runs type checks first, then validate, then sanitize', async () => {
    const calls: string[] = [];
    const schema: ArgSchema = {
      type: 'integer',
      validate: (value) => {
        calls.push(`validate ${JSON.stringify(value)}`);
        return (value as number) % 2 === 0 || 'v must be even.';
      },
      sanitize: (value) => {
        calls.push(`sanitize ${JSON.stringify(value)}`);
        return (value as number) * 10;
      },
    };
    expect((await viaQuery(schema, '4')).json.params.v).toBe(40);
    expect(calls).toEqual(['validate 4', 'sanitize 4']);
    calls.length = 0;
    const odd = await viaQuery(schema, '3');
    expect(odd.json.data.details.v).toEqual({
      code: 'rest_invalid_param',
      message: 'v must be even.',
      path: ['v'],
      params: { reason: 'custom', message: 'v must be even.' },
    });
    expect(calls).toEqual(['validate 3']);
    calls.length = 0;
    // The type check is never switched off by a custom step.
    expect((await viaQuery(schema, 'x')).json.data.details.v.code).toBe('rest_invalid_type');
    expect(calls).toEqual([]);
  });

  it('reads false as a generic rejection and a Framework_Plugin_Exception 4xx as its message', async () => {
    expect((await viaBody({ validate: () => false }, 1)).json.data.params.v).toBe('v is invalid.');
    const thrown = await viaBody(
      {
        validate: () => {
          throw new Framework_Plugin_Exception('v is reserved.', 400);
        },
      },
      1,
    );
    expect(thrown.json.data.params.v).toBe('v is reserved.');
    const crash = await viaBody(
      {
        sanitize: () => {
          throw new Error('boom');
        },
      },
      1,
    );
    expect(crash.status).toBe(500);
  });

  it('passes the request and the argument name, and does not run on absent optional arguments', async () => {
    const seen: unknown[] = [];
    const server = echoServer({
      v: {
        type: 'string',
        sanitize: (value, request, name) => {
          seen.push([name, request.method]);
          return String(value).trim();
        },
      },
    });
    expect((await call(server, 'GET', `${ECHO}?v=%20x%20`)).json.params.v).toBe('x');
    await call(server, 'GET', ECHO);
    expect(seen).toEqual([['v', 'GET']]);
  });

  it('runs custom steps on nested schemas too', async () => {
    const schema: ArgSchema = {
      type: 'array',
      items: { type: 'string', sanitize: (value) => String(value).toUpperCase() },
    };
    await accepts(schema, ['a', 'b'], ['A', 'B']);
  });
});

describe('malformed schemas are refused at registration', () => {
  const bad: [ArgSchema, RegExp][] = [
    [{ type: 'float' as never }, /unknown type "float"/],
    [{ type: [] }, /"type"/],
    [{ minimum: '1' as never }, /"minimum"/],
    [{ minLength: -1 }, /"minLength"/],
    [{ exclusiveMinimum: 3 as never }, /draft-04/],
    [{ enum: [] }, /"enum"/],
    [{ pattern: 5 as never }, /"pattern"/],
    [{ items: 'x' as never }, /"items"/],
    [{ additionalProperties: 'no' as never }, /"additionalProperties"/],
    [{ required: ['a', 1] as never, type: 'object' }, /"required"/],
    [{ validate: 'yes' as never }, /"validate"/],
  ];
  for (const [schema, message] of bad) {
    it(`refuses ${JSON.stringify(schema)}`, () => {
      expect(() => echoServer({ v: schema })).toThrow(message);
    });
  }

  it('refuses reserved argument names', () => {
    expect(() => echoServer({ constructor: {} } as never)).toThrow(/cannot be an argument name/);
  });
});
