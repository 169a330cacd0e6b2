import { Framework_Plugin_Exception, MAX_JSON_DEPTH, MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { AdhocSettings, oneSetting, readBack } from './support/adhoc-settings';

/** `depth` nested arrays around `inner`: depth 1 is `[inner]`. */
function nestedArrays(depth: number, inner: unknown = 0): unknown {
  let value = inner;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

/** `depth` nested objects: depth 1 is `{ k: inner }`. */
function nestedObjects(depth: number, inner: unknown = 0): unknown {
  let value = inner;
  for (let level = 0; level < depth; level++) value = { k: value };
  return value;
}

class Thing {
  a = 1;
}

const cycle: Record<string, unknown> = { a: 1 };
cycle.self = cycle;
const cycleInArray: unknown[] = [1];
cycleInArray.push({ back: cycleInArray });
const shared = { x: 1 };
const holey: unknown[] = [1];
holey[2] = 3;
const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });

interface TypeTable {
  accepted: [string, unknown][];
  rejected: [string, unknown, RegExp?][];
}

const LOCAL_64 = 'a'.repeat(64);

const tables: Record<string, TypeTable> = {
  string: {
    accepted: [
      ['the empty string', ''],
      ['ASCII', 'hello'],
      ['accents', 'héllo wörld'],
      ['an astral character (a surrogate pair)', 'pay 😀 now'],
      ['new lines and tabs', 'a\nb\tc\r'],
      ['control characters other than NUL', '\u0001\u001f'],
      ['a long text', 'x'.repeat(100_000)],
    ],
    rejected: [
      ['a NUL character', 'a\0b', /NUL character at index 1/],
      ['a lone high surrogate', 'a\uD800', /lone surrogate at index 1/],
      ['a lone low surrogate', '\uDC00b', /lone surrogate at index 0/],
      ['reversed surrogates', '\uDE00\uD83D', /lone surrogate/],
      ['a number', 5, /expected a string, received number 5/],
      ['null', null, /received null/],
      ['undefined', undefined, /received undefined/],
      ['a boolean', true],
      ['an array', ['a']],
      ['an object', {}],
      ['a String object', new String('a')],
    ],
  },
  url: {
    accepted: [
      ['http', 'http://example.com'],
      ['https with path, query and fragment', 'https://example.com/a/b?q=1&r=2#top'],
      ['an upper-case scheme and host', 'HTTPS://Example.COM/Path'],
      ['a mixed-case scheme', 'hTtP://example.com'],
      ['a port', 'http://localhost:8080/'],
      ['an IPv6 host', 'http://[::1]/'],
      ['an IPv4 host', 'http://127.0.0.1'],
      ['a non-ASCII host and path', 'https://例え.jp/パス'],
      ['percent-encoding', 'https://example.com/a%20b'],
      ['user info', 'https://user:pass@example.com'],
    ],
    rejected: [
      ['another scheme', 'ftp://example.com', /http:\/\/ or https:\/\//],
      ['no scheme', 'example.com', /http:\/\/ or https:\/\//],
      ['a scheme-relative URL', '//example.com'],
      ['a scheme without slashes', 'http:example.com'],
      ['mailto', 'mailto:a@example.com'],
      ['an inner space', 'http://exa mple.com', /white space/],
      ['a leading space', ' http://example.com', /white space/],
      ['a trailing new line', 'http://example.com\n', /white space/],
      ['a tab', 'http://example.com/\ta', /white space/],
      ['a no-break space', 'http://example.com/\u00a0', /white space/],
      ['a control character', 'http://exa\u0007mple.com', /control/],
      ['DEL', 'http://example.com/\u007f', /control/],
      ['no host', 'http://', /not a valid URL|host/],
      ['no host, with a path', 'https:///', /not a valid URL|host/],
      ['no host, with a query', 'http://?q', /not a valid URL|host/],
      ['a port without a host', 'http://:80'],
      ['a port out of range', 'http://example.com:99999'],
      ['a broken host', 'http://exa%mple.com'],
      ['a NUL', 'http://example.com/\0'],
      ['an empty string', ''],
      ['a URL object', new URL('http://example.com'), /received URL/],
      ['a number', 5],
    ],
  },
  email: {
    accepted: [
      ['six characters', 'a@b.co'],
      ['dots and plus', 'first.last+tag@example.com'],
      ['an apostrophe', "o'brien@example.ie"],
      ['every special character allowed', "x!#$%&'*+/=?^_`{|}~-@ex-ample.org"],
      ['sub-domains', 'user@mail.sub.example.co.uk'],
      ['upper case', 'John.DOE@Example.COM'],
      ['digits in labels', 'a1@123.example.com'],
      ['254 characters', `${LOCAL_64}@${'b'.repeat(185)}.com`],
    ],
    rejected: [
      ['five characters', 'a@b.c', /6 to 254/],
      ['255 characters', `${LOCAL_64}@${'b'.repeat(186)}.com`, /6 to 254/],
      ['no @', 'abcdef.com', /one @/],
      ['two @', 'a@b@example.com', /one @/],
      ['a space', 'a b@example.com', /before the @/],
      ['parentheses', 'a(b)@example.com', /before the @/],
      ['a non-ASCII local part', 'ü@example.com', /before the @/],
      ['an empty local part', '@example.com', /before the @/],
      ['a domain without a dot', 'someone@localhost', /domain/],
      ['a label starting with a hyphen', 'a@-example.com', /domain/],
      ['a label ending with a hyphen', 'a@example-.com', /domain/],
      ['an empty label', 'a@example..com', /domain/],
      ['a leading dot', 'a@.example.com', /domain/],
      ['a trailing dot', 'a@example.com.', /domain/],
      ['an underscore in the domain', 'a@ex_ample.com', /domain/],
      ['an IP literal', 'a@[127.0.0.1]', /domain/],
      ['a number', 123456],
      ['null', null],
    ],
  },
  integer: {
    accepted: [
      ['zero', 0],
      ['a negative integer', -12],
      ['the largest safe integer', Number.MAX_SAFE_INTEGER],
      ['the smallest safe integer', Number.MIN_SAFE_INTEGER],
      ['an integer written as a float', 5.0],
      ['negative zero', -0],
    ],
    rejected: [
      ['a fraction', 1.5, /safe integer, received number 1.5/],
      ['numeric text', '5', /expected an integer, received string "5"/],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
      ['an unsafe integer', Number.MAX_SAFE_INTEGER + 1, /safe integer/],
      ['2^53', 2 ** 53],
      ['a huge number', 1e300],
      ['a BigInt', 5n],
      ['a Number object', new Number(5)],
      ['a boolean', true],
      ['null', null],
      ['an array', [5]],
    ],
  },
  float: {
    accepted: [
      ['zero', 0],
      ['an integer', 42],
      ['a fraction', -2.5],
      ['a tiny number', 5e-324],
      ['a huge number', Number.MAX_VALUE],
      ['0.1', 0.1],
      ['negative zero', -0],
    ],
    rejected: [
      ['NaN', Number.NaN, /finite number/],
      ['Infinity', Number.POSITIVE_INFINITY, /finite number/],
      ['-Infinity', Number.NEGATIVE_INFINITY],
      ['numeric text', '1.5', /received string "1.5"/],
      ['a BigInt', 1n],
      ['a boolean', false],
      ['null', null],
    ],
  },
  boolean: {
    accepted: [
      ['true', true],
      ['false', false],
    ],
    rejected: [
      ['"yes"', 'yes', /expected a boolean, received string "yes"/],
      ['"true"', 'true'],
      ['1', 1],
      ['0', 0],
      ['null', null],
      ['a Boolean object', new Boolean(true)],
    ],
  },
  object: {
    accepted: [
      ['an empty object', {}],
      ['an empty array', []],
      ['a flat object', { a: 1, b: 'x', c: true, d: null }],
      ['nested objects and arrays', { list: [{ id: 1 }, { id: 2, tags: ['a'] }], meta: { ok: false } }],
      ['a top-level string', 'text'],
      ['a top-level number', 5.5],
      ['a top-level boolean', false],
      ['a top-level array of mixed values', [1, 'x', true, null, [], {}]],
      ['null inside', { a: null, b: [null] }],
      ['a null-prototype object', nullProto],
      ['an empty key and odd keys', { '': 1, 'a/b': 2, '~': 3, ключ: 4, '😀': 5 }],
      [`${MAX_JSON_DEPTH} levels of arrays`, nestedArrays(MAX_JSON_DEPTH)],
      [`${MAX_JSON_DEPTH} levels of objects`, nestedObjects(MAX_JSON_DEPTH)],
      ['the same object twice (not a cycle)', { a: shared, b: shared, c: [shared] }],
      ['negative zero inside', { n: -0, list: [-0] }],
      ['astral characters inside', { s: '😀' }],
    ],
    rejected: [
      ['null', null, /other than null/],
      ['undefined', undefined],
      [`${MAX_JSON_DEPTH + 1} levels of arrays`, nestedArrays(MAX_JSON_DEPTH + 1), /deeper than 64/],
      [`${MAX_JSON_DEPTH + 1} levels of objects`, nestedObjects(MAX_JSON_DEPTH + 1), /deeper than 64/],
      ['a __proto__ key', JSON.parse('{"__proto__": {"admin": true}}'), /__proto__/],
      ['a nested __proto__ key', JSON.parse('{"a": [{"__proto__": 1}]}'), /__proto__/],
      ['a cycle', cycle, /cycle at \/self/],
      ['a cycle through an array', cycleInArray, /cycle/],
      ['a Date', new Date(0), /Date is not a plain object/],
      ['a nested Date', { when: new Date(0) }, /Date at \/when/],
      ['a Map', new Map([['a', 1]]), /Map/],
      ['a Set', new Set([1])],
      ['a class instance', new Thing(), /Thing/],
      ['a function', () => 1],
      ['a nested function', { f: () => 1 }],
      ['NaN inside', { n: Number.NaN }, /not finite/],
      ['Infinity inside', [Number.POSITIVE_INFINITY], /not finite/],
      ['undefined inside', { u: undefined }, /undefined at \/u/],
      ['a hole in an array', holey, /hole/],
      ['a BigInt inside', { n: 1n }],
      ['a symbol inside', { s: Symbol('x') }],
      ['a NUL in a nested string', { s: 'a\0' }, /NUL/],
      ['a lone surrogate in a nested string', ['\uD800'], /lone surrogate/],
      ['a lone surrogate in a key', { 'k\uD800': 1 }, /key/],
      ['a typed array', new Uint8Array(2)],
      ['an array subclass', new (class Extra extends Array {})()],
    ],
  },
};

describe.each(Object.entries(tables))('the %s type', (type, table) => {
  it.each(table.accepted)('accepts %s and reads it back from the store', async (_, value) => {
    const store = new MemoryOptionStore();
    const { settings, setting } = oneSetting(type, {}, store);
    expect(setting.validateValue(value)).toBe(true);
    expect(setting.describeInvalidValue(value)).toBeUndefined();
    await settings.updateValue('v', value);
    expect(await settings.getValue('v')).toEqual(readBack(value));
    const other = new AdhocSettings('acme', store);
    other.registerSetting('v', type);
    expect(await other.getValue('v')).toEqual(readBack(value));
  });

  it.each(table.rejected)('rejects %s with a 400 naming the setting', async (_, value, message) => {
    const store = new MemoryOptionStore({ framework_acme_v: 'kept' });
    const { settings, setting } = oneSetting(type, {}, store);
    const before = await settings.getValue('v', false);
    expect(setting.validateValue(value)).toBe(false);
    const error = await settings.updateValue('v', value).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Framework_Plugin_Exception);
    expect((error as Framework_Plugin_Exception).code).toBe(400);
    expect((error as Error).message).toContain('setting "v"');
    if (message) expect((error as Error).message).toMatch(message);
    expect(await store.get('framework_acme_v')).toBe('kept');
    expect(await settings.getValue('v', false)).toBe(before);
  });
});

describe('url values', () => {
  it('are stored exactly as given, never normalised', async () => {
    const { settings, store, key } = oneSetting('url');
    for (const url of ['HTTPS://Example.COM', 'http://example.com:80/./a/../b', 'https://例え.jp/パス']) {
      await settings.updateValue('v', url);
      expect(await store.get(key)).toBe(url);
      expect(await settings.getValue('v')).toBe(url);
    }
  });
});

describe('object values', () => {
  it('are frozen snapshots, independent of the value passed in', async () => {
    const { settings } = oneSetting('object');
    const input = { list: [1, 2], nested: { a: 'x' } };
    await settings.updateValue('v', input);
    input.list.push(3);
    input.nested.a = 'changed';
    const read = (await settings.getValue('v')) as typeof input;
    expect(read).toEqual({ list: [1, 2], nested: { a: 'x' } });
    expect(Object.isFrozen(read)).toBe(true);
    expect(Object.isFrozen(read.list)).toBe(true);
    expect(Object.isFrozen(read.nested)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
    expect(() => read.list.push(4)).toThrow(TypeError);
  });

  it('are rejected without throwing when they cannot be stringified, also with options', async () => {
    const { settings, setting } = oneSetting('object', { options: [{ a: 1 }] });
    for (const value of [cycle, { n: 1n }, nestedArrays(10_000)]) {
      expect(setting.validateValue(value)).toBe(false);
      await expect(settings.updateValue('v', value)).rejects.toMatchObject({ code: 400 });
    }
  });
});
