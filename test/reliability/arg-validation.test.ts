/**
 * Property: for any argument schema and any JSON input, argument validation either accepts a
 * value that satisfies the schema, or rejects with `rest_invalid_param` /
 * `rest_missing_callback_param`; it never throws anything else and never hangs.
 *
 * The oracle is Ajv (independent code) on the equivalent JSON Schema — draft-04's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` and per-property `required: true` rewritten to the
 * forms Ajv 8 reads — with the string formats implemented here from the contract's words
 * (and `node:net` for IP addresses). Both directions are checked, except where the package
 * documents a stricter rule than JSON Schema: integers must be safe integers, `null` for a
 * required argument counts as missing, and a string longer than 1 000 code units is not run
 * against a `pattern`.
 */
import { isIP } from 'node:net';
import { Ajv, type AnySchema } from 'ajv';
import {
  type ArgSchema,
  allowPublic,
  createRestServer,
  Framework_Plugin_Exception,
  type RestServer,
} from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExtraRoutesPlugin } from './support/extra-routes-plugin';

const SEED = 0xa59;
console.log(`[reliability] arg-validation fast-check seed ${SEED}`);

/** Patterns the property uses: ordinary ones, and the catastrophic shapes the guard refuses. */
const SAFE_PATTERNS = ['^a', 'b$', '^[a-c]*$', '\\d', '^(ab)*$', '^\\p{L}+$', '', '^.{2,4}$', '^[^@]+@'];
const CATASTROPHIC_PATTERNS = [
  '(a+)+$',
  '(a*)*b',
  '(\\w+)*$',
  '([a-z]+)+$',
  '(.*)*x',
  '(\\d+){2,}$',
  '(?:a+)+$',
  '([^,]+)*,',
];
const FORMATS = ['email', 'uri', 'date-time', 'uuid', 'ip', 'hex-color'] as const;

/** Strings that the formats and patterns care about. */
const interestingString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', '@', '.', '-', '#', ':', 'é', '😀'), maxLength: 8 }),
  fc.emailAddress(),
  fc.uuid(),
  fc.ipV4(),
  fc.ipV6(),
  fc.webUrl(),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom(
    '#abc',
    '#a1b2c3',
    '#abcd',
    '2024-02-30T00:00:00Z',
    '2024-02-29T23:59:60+01:00',
    '2024-05-01 12:30:00',
    '01.2.3.4',
    '::ffff:1.2.3.4',
    'a..b@example.com',
    'x@y.z',
    'mailto:x@y.z',
    'http://[::1]:80/',
    'a'.repeat(1_001),
    `${'a'.repeat(40)}!`,
  ),
);

const jsonInput: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    interestingString,
    fc.integer({ min: -6, max: 6 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
    fc.constantFrom(0, -0, 2 ** 53, 2 ** 53 - 1, 1e300, 0.5),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
})).value;

const ARG_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object', 'null'] as const;

/** The keywords of a schema that do not nest. */
const flatKeywords = {
  type: fc.oneof(
    fc.constantFrom(...ARG_TYPES),
    fc.uniqueArray(fc.constantFrom(...ARG_TYPES), { minLength: 1, maxLength: 3 }),
  ),
  enum: fc.uniqueArray(jsonInput, { minLength: 1, maxLength: 3, selector: (value) => JSON.stringify(value) }),
  minimum: fc.integer({ min: -5, max: 5 }),
  maximum: fc.integer({ min: -5, max: 5 }),
  exclusiveMinimum: fc.boolean(),
  exclusiveMaximum: fc.boolean(),
  minLength: fc.nat({ max: 4 }),
  maxLength: fc.nat({ max: 6 }),
  pattern: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...SAFE_PATTERNS) },
    fc.constantFrom(...CATASTROPHIC_PATTERNS),
  ),
  format: fc.constantFrom(...FORMATS),
  minItems: fc.nat({ max: 2 }),
  maxItems: fc.nat({ max: 3 }),
  uniqueItems: fc.boolean(),
};

/** A record whose keys are each present with probability about 1 in `oneIn`. */
function sparseRecord<T extends Record<string, unknown>>(
  keywords: { [K in keyof T]: fc.Arbitrary<T[K]> },
  oneIn: number,
): fc.Arbitrary<Partial<T>> {
  const entries = Object.entries(keywords) as Array<[string, fc.Arbitrary<unknown>]>;
  return fc
    .tuple(
      ...entries.map(([key, arbitrary]) =>
        fc.oneof(
          { weight: oneIn - 1, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: arbitrary.map((value) => [key, value] as const) },
        ),
      ),
    )
    .map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== undefined)) as Partial<T>);
}

/** Argument schemas: every keyword the package reads, nested at most three levels. */
const argSchema: fc.Arbitrary<ArgSchema> = fc.letrec<{ schema: ArgSchema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    sparseRecord(flatKeywords, 5).map((schema) => schema as ArgSchema),
    fc
      .tuple(
        sparseRecord(flatKeywords, 6),
        sparseRecord(
          {
            items: tie('schema'),
            properties: fc.dictionary(
              fc.constantFrom('a', 'b', 'c'),
              fc
                .tuple(tie('schema'), fc.boolean())
                .map(([schema, required]) => ({ ...schema, ...(required ? { required: true } : {}) })),
              { maxKeys: 2, noNullPrototype: true },
            ),
            additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
          },
          2,
        ),
      )
      .map(([flat, nested]) => ({ ...flat, ...nested }) as ArgSchema),
  ),
})).schema;

/** An input for `schema`: often one of its enum values, else any JSON value. */
function inputFor(schema: ArgSchema): fc.Arbitrary<unknown> {
  return schema.enum ? fc.oneof(fc.constantFrom(...schema.enum), jsonInput) : jsonInput;
}

// ---------------------------------------------------------------- the oracle

/** The contract's email rule (CONTRACT §3 and the `email` format). */
function isContractEmail(text: string): boolean {
  if (text.length < 6 || text.length > 254) return false;
  const parts = text.split('@');
  if (parts.length !== 2) return false;
  const [local, domain] = parts as [string, string];
  if (
    local === '' ||
    [...local].some(
      (char) =>
        !"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+/=?^_`{|}~.-".includes(char),
    )
  ) {
    return false;
  }
  const labels = domain.split('.');
  const labelChars = /^[A-Za-z0-9-]+$/;
  return (
    labels.length >= 2 &&
    labels.every(
      (label) =>
        label.length <= 63 && labelChars.test(label) && !label.startsWith('-') && !label.endsWith('-'),
    )
  );
}

/** An absolute URI: scheme, no white space or control characters, and the WHATWG parser takes it. */
function isAbsoluteUri(text: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) return false;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(char)) return false;
  }
  return URL.canParse(text);
}

/** RFC 3339 date-time, offset optional, calendar-checked through `Date.UTC`. */
function isDateTime(text: string): boolean {
  const match = /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(\.\d{1,9})?([Zz]|[+-]\d\d:?\d\d)?$/.exec(
    text,
  );
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  const offset = match[8];
  if (offset && offset.length > 1) {
    const digits = offset.replace(':', '').slice(1);
    if (Number(digits.slice(0, 2)) > 23 || Number(digits.slice(2)) > 59) return false;
  }
  // Year 0000-0099 is a valid RFC 3339 year that Date.UTC maps to 1900-1999: compare by parts above.
  return year >= 0;
}

const oracleFormats: Record<string, (text: string) => boolean> = {
  'cpf-email': isContractEmail,
  'cpf-uri': isAbsoluteUri,
  'cpf-date-time': isDateTime,
  'cpf-uuid': (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text),
  'cpf-ip': (text) => !text.includes('%') && isIP(text) !== 0,
  'cpf-hex-color': (text) => /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(text),
};

const ajv = new Ajv({ strict: false, allErrors: false, unicodeRegExp: true, validateFormats: true });
for (const [name, check] of Object.entries(oracleFormats))
  ajv.addFormat(name, { type: 'string', validate: check });

/** The JSON Schema (Ajv 8 dialect) equivalent to an argument schema. */
function toJsonSchema(schema: ArgSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema.type !== undefined) out.type = schema.type;
  if (schema.enum !== undefined) out.enum = schema.enum;
  if (schema.minimum !== undefined) {
    if (schema.exclusiveMinimum === true) out.exclusiveMinimum = schema.minimum;
    else out.minimum = schema.minimum;
  }
  if (schema.maximum !== undefined) {
    if (schema.exclusiveMaximum === true) out.exclusiveMaximum = schema.maximum;
    else out.maximum = schema.maximum;
  }
  for (const keyword of [
    'minLength',
    'maxLength',
    'pattern',
    'minItems',
    'maxItems',
    'uniqueItems',
  ] as const) {
    if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
  }
  if (schema.format !== undefined) out.format = `cpf-${schema.format}`;
  if (schema.items !== undefined) out.items = toJsonSchema(schema.items);
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, property]) => {
        if (property.required === true) required.add(key);
        return [key, toJsonSchema(property)];
      }),
    );
  }
  if (required.size > 0) out.required = [...required];
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties =
      typeof schema.additionalProperties === 'boolean'
        ? schema.additionalProperties
        : toJsonSchema(schema.additionalProperties);
  }
  return out;
}

/** Whether the package documents a stricter rule than JSON Schema for this input. */
function hasDocumentedStricterRule(value: unknown, schema: ArgSchema, topRequired: boolean): boolean {
  const walk = (input: unknown, inner: ArgSchema | undefined): boolean => {
    if (typeof input === 'number' && Number.isInteger(input) && !Number.isSafeInteger(input)) return true;
    if (typeof input === 'string' && input.length > 1_000 && inner?.pattern !== undefined) return true;
    if (Array.isArray(input)) return input.some((element) => walk(element, inner?.items ?? inner));
    if (typeof input === 'object' && input !== null) {
      return Object.entries(input).some(([key, child]) => {
        const property = inner?.properties?.[key];
        const additional =
          typeof inner?.additionalProperties === 'object' ? inner.additionalProperties : undefined;
        return walk(child, property ?? additional ?? inner);
      });
    }
    return false;
  };
  return (value === null && topRequired) || walk(value, schema);
}

// ---------------------------------------------------------------- the properties

type Verdict = { accepted: true; value: unknown } | { accepted: false; code: string };

/** A plugin with one public route, POST /api/prop/v1/check, whose only argument `x` has the given schema. */
class ArgPlugin extends ExtraRoutesPlugin {
  constructor(readonly schema: ArgSchema) {
    super({ id: 'prop', name: 'Property', version: '1.0.0' }, (routes) =>
      routes.register('prop/v1', '/check', {
        methods: 'POST',
        permission: allowPublic(),
        args: { x: schema },
        handler: (request) => ({ has: Object.hasOwn(request.params, 'x'), x: request.get('x') }),
      }),
    );
  }
}

/** A server validating `x` with `schema`, or 'refused-schema' when registration refuses the schema. */
function serverFor(schema: ArgSchema): RestServer | 'refused-schema' {
  try {
    return createRestServer({ plugins: [new ArgPlugin(schema)] });
  } catch (error) {
    // A malformed schema, an invalid pattern or a catastrophic one: refused at registration.
    expect(error).toBeInstanceOf(Framework_Plugin_Exception);
    expect((error as Framework_Plugin_Exception).code).toBe(400);
    return 'refused-schema';
  }
}

/** Sends `{x: input}` (or `{}` for undefined) and reads the verdict; anything but 200 or a 400 fails. */
async function validate(server: RestServer, input: unknown): Promise<Verdict> {
  const response = await server.fetch(
    new Request('http://localhost/api/prop/v1/check', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input === undefined ? {} : { x: input }),
    }),
  );
  const body = (await response.json()) as { code?: string; has?: boolean; x?: unknown };
  if (response.status === 200) return { accepted: true, value: body.has ? body.x : undefined };
  expect(response.status).toBe(400);
  expect(['rest_invalid_param', 'rest_missing_callback_param']).toContain(body.code);
  return { accepted: false, code: body.code! };
}

async function runValidation(schema: ArgSchema, input: unknown): Promise<Verdict | 'refused-schema'> {
  const server = serverFor(schema);
  return server === 'refused-schema' ? server : validate(server, input);
}

describe('argument validation against an independent oracle', () => {
  it('accepts exactly what the schema allows (within the documented stricter rules), and only rejects with 400s', async () => {
    const tally = { accepted: 0, rejected: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        argSchema.chain((schema) => fc.tuple(fc.constant(schema), fc.boolean(), inputFor(schema))),
        async ([schema, required, rawInput]) => {
          const full: ArgSchema = { ...schema, ...(required ? { required: true } : {}) };
          // What the server receives: the input after a JSON round trip (-0 becomes 0).
          const input: unknown = JSON.parse(JSON.stringify(rawInput));
          const verdict = await runValidation(full, input);
          if (verdict === 'refused-schema') {
            tally.refused++;
            return;
          }
          const oracle = ajv.compile({
            type: 'object',
            properties: { x: toJsonSchema(full) },
            required: required ? ['x'] : [],
          } as AnySchema);
          const valid = oracle({ x: input }) === true;
          if (verdict.accepted) {
            tally.accepted++;
            expect(valid, `accepted but the oracle says invalid: ${JSON.stringify(ajv.errors)}`).toBe(true);
            expect(verdict.value).toEqual(input);
          } else {
            tally.rejected++;
            if (valid)
              expect(
                hasDocumentedStricterRule(input, full, required),
                `rejected (${verdict.code}) a valid input`,
              ).toBe(true);
          }
        },
      ),
      { seed: Number(process.env.ARG_SEED ?? SEED), numRuns: Number(process.env.ARG_RUNS ?? 1500) },
    );
    console.log(`[reliability] arg-validation tally ${JSON.stringify(tally)}`);
    // The generators reach every outcome.
    const runs = tally.accepted + tally.rejected + tally.refused;
    expect(tally.accepted).toBeGreaterThan(runs * 0.3);
    expect(tally.rejected).toBeGreaterThan(runs * 0.2);
    expect(tally.refused).toBeGreaterThan(runs * 0.01);
  });

  it('a missing required argument is rest_missing_callback_param, an absent optional one is not validated', async () => {
    await fc.assert(
      fc.asyncProperty(argSchema, fc.boolean(), async (schema, required) => {
        const verdict = await runValidation(
          { ...schema, ...(required ? { required: true } : {}) },
          undefined,
        );
        if (verdict === 'refused-schema') return;
        if (required) expect(verdict).toEqual({ accepted: false, code: 'rest_missing_callback_param' });
        else expect(verdict).toEqual({ accepted: true, value: undefined });
      }),
      { seed: SEED + 1, numRuns: 1000 },
    );
  });
});

describe('pattern guard', () => {
  it.each(CATASTROPHIC_PATTERNS)('refuses the nested-quantifier pattern %s at registration', (pattern) => {
    expect(serverFor({ type: 'string', pattern })).toBe('refused-schema');
  });

  // Each of these takes exponential time in V8 on a short hostile input (measured: about 2^n
  // steps for `n` repeated characters followed by one that fails the match; 32 characters take
  // tens of seconds to minutes, blocking the event loop). The length cap (1 000) does not help.
  // They are refused without ever being run, so this test fails fast while they are accepted.
  it.each([
    ['^(\\w+\\s?)*$', 'a word list'],
    ['(\\d+\\.?)+$', 'dotted digits'],
    ['^([a-z0-9]+-?)*$', 'a slug'],
    ['^(\\w+\\.?)+@', 'the local part of an email'],
    ['(a|a)*$', 'overlapping alternatives'],
    ['^(a|a?)+$', 'an optional alternative'],
    ['(x+x+)+y', 'two quantifiers in one group'],
    // Measured on Node 20 against the current guard: each passes registration and then takes
    // over 10 s on the input given: `ab`×28+`` (56 characters), ` , `×18+`x`, `a`×40+`b`,
    // `a`×40+`!`; the last is polynomial (about n³), and 3 000 characters already take >10 s.
    ['(a|b|ab)*c', 'an alternative that is the concatenation of two others'],
    ['(\\s*,\\s*)*$', 'a separator with optional space on both sides'],
    ['^(a|aa)+$', 'an alternative that is a repetition of another'],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', 'the OWASP example'],
    ['.*.*=.*', 'two adjacent unbounded wildcards (polynomial, under the length cap)'],
    // Cubic on `@`×n: any `@` can be the one between the first two runs (2 000 took 2.4 s).
    ['.+@.+\\..+', 'runs separated only by what both can match'],
  ])('refuses the catastrophic pattern %s (%s) at registration', (pattern) => {
    expect(serverFor({ type: 'string', pattern })).toBe('refused-schema');
  });

  it('refuses a pattern that does not compile with the u flag', () => {
    for (const pattern of ['(', '[a-', '\\', 'a{2,1}', '\\-']) {
      expect(() => createRestServer({ plugins: [new ArgPlugin({ type: 'string', pattern })] })).toThrow(
        /pattern/,
      );
    }
  });

  it('does not run a pattern on strings over 1 000 code units (rest_invalid_param, rest_invalid_pattern)', async () => {
    const server = serverFor({ type: 'string', pattern: '^a*$' }) as RestServer;
    expect(await validate(server, 'a'.repeat(1_000))).toEqual({ accepted: true, value: 'a'.repeat(1_000) });
    const response = await server.fetch(
      new Request('http://localhost/api/prop/v1/check', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 'a'.repeat(1_001) }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'rest_invalid_param',
      data: { details: { x: { code: 'rest_invalid_pattern' } } },
    });
  });

  it('a long hostile string against every safe pattern and format answers (no catastrophic backtracking)', async () => {
    const hostile = [
      `${'a'.repeat(999)}!`,
      `${'ab'.repeat(499)}c`,
      `${'1.'.repeat(499)}x`,
      'a@'.repeat(499),
      '#'.repeat(999),
      '@'.repeat(1_000),
    ];
    for (const pattern of SAFE_PATTERNS) {
      for (const format of FORMATS) {
        const server = serverFor({ type: 'string', pattern, format }) as RestServer;
        for (const text of hostile) expect(await validate(server, text)).toMatchObject({ accepted: false });
      }
    }
  });
});
