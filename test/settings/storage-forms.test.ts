import { MemoryOptionStore, type SettingArgs } from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneSetting } from './support/adhoc-settings';

describe('storage forms (written)', () => {
  const cases: [string, SettingArgs, unknown, string][] = [
    ['string', {}, 'héllo 😀', 'héllo 😀'],
    ['string', {}, '', ''],
    ['string', {}, ' spaced\n', ' spaced\n'],
    ['url', {}, 'HTTPS://Example.COM/A?b=1', 'HTTPS://Example.COM/A?b=1'],
    ['email', {}, 'John.Doe@Example.com', 'John.Doe@Example.com'],
    ['integer', {}, 42, '42'],
    ['integer', {}, -7, '-7'],
    ['integer', {}, -0, '0'],
    ['integer', {}, Number.MAX_SAFE_INTEGER, '9007199254740991'],
    ['float', {}, 1.5, '1.5'],
    ['float', {}, 0.1, '0.1'],
    ['float', {}, 3, '3'],
    ['float', {}, -0, '0'],
    ['float', {}, 1e21, '1e+21'],
    ['float', {}, 1e-7, '1e-7'],
    ['float', {}, -2.5e-300, '-2.5e-300'],
    ['boolean', {}, true, 'yes'],
    ['boolean', {}, false, 'no'],
    ['object', {}, { b: 1, a: { d: [2, 1], c: null } }, '{"a":{"c":null,"d":[2,1]},"b":1}'],
    ['object', {}, 'text', '"text"'],
    ['object', {}, 5, '5'],
    ['object', {}, [], '[]'],
    ['object', {}, { n: -0, s: 'é\n"' }, '{"n":0,"s":"é\\n\\""}'],
    ['string', { is_multi: true }, ['b', 'a'], '["b","a"]'],
    ['string', { is_multi: true }, [], '[]'],
    ['url', { is_multi: true }, ['http://a.example'], '["http://a.example"]'],
    ['integer', { is_multi: true }, [3, -1, -0], '[3,-1,0]'],
    ['float', { is_multi: true }, [0.5, 1e21], '[0.5,1e+21]'],
    ['boolean', { is_multi: true }, [true, false], '[true,false]'],
    ['object', { is_multi: true }, [{ b: 1, a: 2 }, 'x'], '[{"a":2,"b":1},"x"]'],
  ];

  it.each(cases)('%s %j: %j is stored as %j', async (type, args, value, text) => {
    const { settings, store, key } = oneSetting(type, args);
    await settings.updateValue('v', value);
    expect(await store.get(key)).toBe(text);
  });

  it('stores equal object values as equal text, whatever the key order', async () => {
    const { settings, store, key } = oneSetting('object');
    await settings.updateValue('v', { a: 1, b: { c: 2, d: 3 } });
    const first = await store.get(key);
    await settings.updateValue('v', { b: { d: 3, c: 2 }, a: 1 });
    expect(await store.get(key)).toBe(first);
  });

  it('stores under <optionPrefix>_<pluginId>_<settingId>, one key per setting', async () => {
    const store = new MemoryOptionStore();
    const { settings } = oneSetting('string', {}, store, { optionPrefix: 'shop' });
    settings.registerSetting('w', 'integer');
    await settings.updateValue('v', 'x');
    await settings.updateValue('w', 1);
    expect(await store.getMany(['shop_acme_v', 'shop_acme_w'])).toEqual(
      new Map([
        ['shop_acme_v', 'x'],
        ['shop_acme_w', '1'],
      ]),
    );
  });
});

/** Reads `text` stored for a fresh setting of `type` (with `args`); `undefined` text: nothing stored. */
async function readStored(type: string, args: SettingArgs, text: string | undefined, withDefault = true) {
  const store = new MemoryOptionStore(text === undefined ? {} : { framework_acme_v: text });
  const { settings } = oneSetting(type, args, store);
  return settings.getValue('v', withDefault);
}

describe('storage forms (read)', () => {
  const table: [string, SettingArgs, [string | undefined, unknown][]][] = [
    [
      'boolean',
      { default: true },
      [
        ['yes', true],
        ['YES', true],
        ['Yes', true],
        ['true', true],
        ['TRUE', true],
        ['1', true],
        ['no', false],
        ['false', false],
        ['0', false],
        ['off', false],
        [' yes', false],
        ['yes ', false],
        ['2', false],
        ['', true],
        [undefined, true],
      ],
    ],
    [
      'integer',
      { default: 99 },
      [
        ['7', 7],
        ['-7', -7],
        ['7.9', 7],
        ['-7.9', -7],
        ['1e3', 1000],
        ['1E3', 1000],
        ['1.5e1', 15],
        ['25e-1', 2],
        ['-0', 0],
        ['-0.5', 0],
        ['007', 7],
        ['9007199254740991', Number.MAX_SAFE_INTEGER],
        ['-9007199254740991', Number.MIN_SAFE_INTEGER],
        ['9007199254740992', 99],
        ['1e16', 99],
        ['1e400', 99],
        ['', 99],
        ['abc', 99],
        [' 7', 99],
        ['7 ', 99],
        ['+7', 99],
        ['0x10', 99],
        ['.5', 99],
        ['5.', 99],
        ['1,5', 99],
        ['Infinity', 99],
        ['NaN', 99],
        ['yes', 99],
        [undefined, 99],
      ],
    ],
    [
      'float',
      { default: 0.5 },
      [
        ['1.25', 1.25],
        ['-3', -3],
        ['1e-7', 1e-7],
        ['1e+21', 1e21],
        ['-0', 0],
        ['0.1', 0.1],
        ['', 0.5],
        ['abc', 0.5],
        ['1e400', 0.5],
        ['-1e400', 0.5],
        ['NaN', 0.5],
        ['Infinity', 0.5],
        ['.5', 0.5],
        [undefined, 0.5],
      ],
    ],
    [
      'string',
      { default: 'd' },
      [
        ['', ''],
        ['x', 'x'],
        ['  spaced ', '  spaced '],
        ['a\0b', 'd'],
        ['\uD800', 'd'],
        [undefined, 'd'],
      ],
    ],
    [
      'url',
      { default: 'https://d.example' },
      [
        ['HTTP://X.EXAMPLE/A', 'HTTP://X.EXAMPLE/A'],
        ['', 'https://d.example'],
        ['not a url', 'https://d.example'],
        ['ftp://x.example', 'https://d.example'],
      ],
    ],
    [
      'email',
      { default: 'd@d.example' },
      [
        ['a@b.example', 'a@b.example'],
        ['', 'd@d.example'],
        ['nobody', 'd@d.example'],
      ],
    ],
    [
      'object',
      { default: { d: 1 } },
      [
        ['{"a":1}', { a: 1 }],
        ['[1,2]', [1, 2]],
        ['"text"', 'text'],
        ['5', 5],
        ['false', false],
        ['-0', 0],
        ['', { d: 1 }],
        ['null', { d: 1 }],
        ['{', { d: 1 }],
        ['undefined', { d: 1 }],
        ['{"__proto__":{"x":1}}', { d: 1 }],
        ['{"s":"\\u0000"}', { d: 1 }],
        [`${'['.repeat(65)}${']'.repeat(65)}`, { d: 1 }],
        [`${'['.repeat(64)}${']'.repeat(64)}`, JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`)],
      ],
    ],
    [
      'string',
      { is_multi: true, default: ['d'] },
      [
        ['["a","b"]', ['a', 'b']],
        ['[]', []],
        ['', ['d']],
        ['"a"', ['d']],
        ['[1]', ['d']],
        ['{"0":"a"}', ['d']],
        ['[', ['d']],
        ['a,b', ['d']],
      ],
    ],
    [
      'boolean',
      { is_multi: true, default: [] },
      [
        ['[true,false]', [true, false]],
        ['["yes"]', []],
        ['[1]', []],
      ],
    ],
    [
      'integer',
      { is_multi: true, default: [] },
      [
        ['[1,-2]', [1, -2]],
        ['[1.5]', []],
        ['["1"]', []],
      ],
    ],
    [
      'string',
      { options: ['live', 'test'], default: 'test' },
      [
        ['live', 'live'],
        ['old', 'test'],
        ['', 'test'],
      ],
    ],
    [
      'integer',
      { options: [1, 2], default: 1 },
      [
        ['2', 2],
        ['2.7', 2],
        ['3', 1],
      ],
    ],
    [
      'string',
      { is_multi: true, options: ['a', 'b'], default: ['a'] },
      [
        ['["b"]', ['b']],
        ['["a","retired"]', ['a']],
      ],
    ],
    [
      'object',
      { options: [{ plan: 'basic' }], default: { plan: 'basic' } },
      [
        ['{"plan":"gold"}', { plan: 'basic' }],
        ['{"plan":"basic"}', { plan: 'basic' }],
      ],
    ],
  ];

  for (const [type, args, rows] of table) {
    it.each(rows)(`${type} ${JSON.stringify(args)}: stored %j reads as %j`, async (text, expected) => {
      const value = await readStored(type, args, text);
      expect(value).toEqual(expected);
      if (typeof expected === 'number') expect(Object.is(value, expected)).toBe(true);
    });
  }

  it('reads unreadable text as nothing stored: null without the default', async () => {
    expect(await readStored('integer', { default: 5 }, 'abc', false)).toBeNull();
    expect(await readStored('boolean', { default: true }, '', false)).toBeNull();
    expect(await readStored('string', { default: 'd' }, '', false)).toBe('');
    expect(await readStored('integer', {}, 'abc')).toBeNull();
  });

  it('reads the empty string as a value only for string settings', async () => {
    for (const type of ['url', 'email', 'integer', 'float', 'boolean', 'object']) {
      expect(await readStored(type, {}, '')).toBeNull();
    }
    expect(await readStored('string', {}, '')).toBe('');
    expect(await readStored('string', { is_multi: true }, '')).toBeNull();
  });

  it('never throws on any stored text, for any type', async () => {
    const types = ['string', 'url', 'email', 'integer', 'float', 'boolean', 'object'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...types),
        fc.boolean(),
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.json(),
          fc.constantFrom('', 'yes', '1e3', '-0', '[]', '{}'),
        ),
        async (type, isMulti, text) => {
          const value = await readStored(type, { is_multi: isMulti }, text);
          const { setting } = oneSetting(type, { is_multi: isMulti });
          // Whatever was stored, what is read is a valid value or nothing.
          if (value !== null) expect(setting.validateValue(value)).toBe(true);
        },
      ),
      { seed: 20240602, numRuns: 300 },
    );
  });
});
