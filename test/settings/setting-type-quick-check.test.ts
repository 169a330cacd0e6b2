import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SETTING_TYPE_DEFINITIONS, SETTING_TYPES } from '../../src/settings/setting-types';

/** Values near every type's edges: wrong types, boxed values, unstorable text, bounds. */
const EDGES: readonly unknown[] = [
  '',
  'a',
  'a\u0000b',
  '\uD800',
  'ok \uD83D\uDED2',
  'https://example.com/a?b=c',
  'HTTPS://EXAMPLE.COM',
  'http://',
  'https://exa mple.com',
  'https://example.com/\u0007',
  'ftp://example.com',
  'me@example.com',
  'a@b.c',
  'me@@example.com',
  'me@-example.com',
  `${'x'.repeat(250)}@example.com`,
  0,
  -0,
  1,
  1.5,
  -7,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  -(2 ** 53 - 1),
  true,
  false,
  null,
  undefined,
  {},
  [],
  new String('x'),
  Object(1),
  Object(true),
  10n,
  Symbol('s'),
  () => 1,
  new Date(0),
];

describe('the setting types’ quick checks', () => {
  it('accept only what the type’s schema accepts (the schema decides, with its message, everything else)', () => {
    for (const type of SETTING_TYPES) {
      const definition = SETTING_TYPE_DEFINITIONS.get(type)!;
      const accepts = definition.accepts;
      if (accepts === undefined) continue;
      const check = (value: unknown) => {
        if (accepts(value))
          expect(definition.schema.safeParse(value).success, `${type}: ${String(value)}`).toBe(true);
      };
      for (const value of EDGES) check(value);
      fc.assert(fc.property(fc.anything({ withBoxedValues: true }), (value) => check(value)));
      fc.assert(fc.property(fc.string({ unit: 'binary' }), (value) => check(value)));
      fc.assert(fc.property(fc.webUrl(), (value) => check(value)));
      fc.assert(fc.property(fc.emailAddress(), (value) => check(value)));
      fc.assert(fc.property(fc.double(), (value) => check(value)));
    }
  });

  it('accept the everyday values of their type, which then need no schema run', () => {
    const accepts = (type: string, value: unknown) => SETTING_TYPE_DEFINITIONS.get(type)!.accepts?.(value);
    expect(accepts('string', 'Value number 3')).toBe(true);
    expect(accepts('url', 'https://shop.example.com/hooks')).toBe(true);
    expect(accepts('email', 'owner@example.com')).toBe(true);
    expect(accepts('integer', 42)).toBe(true);
    expect(accepts('float', 0.25)).toBe(true);
    expect(accepts('boolean', false)).toBe(true);
  });
});
