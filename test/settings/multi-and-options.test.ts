import { Framework_Plugin_Exception, MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { AdhocSettings, oneSetting } from './support/adhoc-settings';

async function rejection(promise: Promise<unknown>): Promise<Framework_Plugin_Exception> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Framework_Plugin_Exception);
  return error as Framework_Plugin_Exception;
}

describe('is_multi', () => {
  it('takes arrays only', async () => {
    const { settings, setting } = oneSetting('string', { is_multi: true });
    for (const value of ['a', null, { 0: 'a', length: 1 }, new Set(['a'])]) {
      expect(setting.validateValue(value)).toBe(false);
      const error = await rejection(settings.updateValue('v', value));
      expect(error.code).toBe(400);
      expect(error.message).toContain('expected an array');
    }
    for (const value of [[], ['a'], ['a', 'a', '']]) expect(setting.validateValue(value)).toBe(true);
  });

  it('checks each element and names the failing index', async () => {
    const { settings } = oneSetting('integer', { is_multi: true });
    const error = await rejection(settings.updateValue('v', [1, 2, 2.5]));
    expect(error.code).toBe(400);
    expect(error.message).toContain('setting "v"');
    expect(error.message).toContain('element 2');
    expect(error.message).toContain('2.5');
  });

  it.each([
    ['string', ['a', 'b\0']],
    ['url', ['https://example.com', 'example.com']],
    ['email', ['a@example.com', 'a@b']],
    ['float', [1, Number.NaN]],
    ['boolean', [true, 'no']],
    ['object', [{ a: 1 }, null]],
  ])('applies the %s rule to every element', (type, value) => {
    const { setting } = oneSetting(type, { is_multi: true });
    expect(setting.validateValue(value)).toBe(false);
    expect(setting.describeInvalidValue(value)).toContain('element 1');
    expect(setting.validateValue(value.slice(0, 1))).toBe(true);
  });

  it('keeps order and duplicates', async () => {
    const { settings } = oneSetting('string', { is_multi: true });
    await settings.updateValue('v', ['b', 'a', 'b']);
    expect(await settings.getValue('v')).toEqual(['b', 'a', 'b']);
  });

  it('a non-multi object setting takes an array as one JSON value', async () => {
    const { settings, setting } = oneSetting('object');
    expect(setting.validateValue([1, 'a'])).toBe(true);
    await settings.updateValue('v', [1, 'a']);
    expect(await settings.getValue('v')).toEqual([1, 'a']);
  });

  it('a multi object setting takes an array of JSON values, null elements excepted', () => {
    const { setting } = oneSetting('object', { is_multi: true });
    expect(setting.validateValue([{ a: 1 }, [1], 'x', 2])).toBe(true);
    expect(setting.validateValue([null])).toBe(false);
    expect(setting.validateValue({ a: 1 })).toBe(false);
  });
});

describe('options', () => {
  it('scalars must be === one of them', async () => {
    const { settings, setting } = oneSetting('string', { options: ['live', 'test'] });
    expect(setting.validateValue('live')).toBe(true);
    expect(setting.validateValue('Live')).toBe(false);
    expect(setting.validateValue('live ')).toBe(false);
    const error = await rejection(settings.updateValue('v', 'demo'));
    expect(error.code).toBe(400);
    expect(error.message).toContain('setting "v"');
    expect(error.message).toContain('must be one of: "live", "test"');
  });

  it('numbers and booleans compare by value, with no coercion', () => {
    const integers = oneSetting('integer', { options: [1, 2] }).setting;
    expect(integers.validateValue(1)).toBe(true);
    expect(integers.validateValue(3)).toBe(false);
    expect(integers.validateValue('1')).toBe(false);
    const floats = oneSetting('float', { options: [0, 0.5] }).setting;
    expect(floats.validateValue(0.5)).toBe(true);
    expect(floats.validateValue(-0)).toBe(true);
    expect(floats.validateValue(0.25)).toBe(false);
    const booleans = oneSetting('boolean', { options: [true] }).setting;
    expect(booleans.validateValue(true)).toBe(true);
    expect(booleans.validateValue(false)).toBe(false);
  });

  it('objects compare by deep equality, whatever the key order', () => {
    const { setting } = oneSetting('object', {
      options: [{ plan: 'basic', limits: { a: 1, b: 2 } }, [1, 2]],
    });
    expect(setting.validateValue({ limits: { b: 2, a: 1 }, plan: 'basic' })).toBe(true);
    expect(setting.validateValue([1, 2])).toBe(true);
    expect(setting.validateValue([2, 1])).toBe(false);
    expect(setting.validateValue({ plan: 'basic', limits: { a: 1 } })).toBe(false);
    expect(setting.validateValue({ plan: 'basic', limits: { a: 1, b: 2 }, extra: null })).toBe(false);
    expect(setting.validateValue({ plan: 'basic', limits: { a: '1', b: 2 } })).toBe(false);
  });

  it('apply to every element of a multi value', async () => {
    const { settings, setting } = oneSetting('string', { is_multi: true, options: ['a', 'b', 'c'] });
    expect(setting.validateValue(['c', 'a'])).toBe(true);
    expect(setting.validateValue([])).toBe(true);
    expect(setting.validateValue(['a', 'x'])).toBe(false);
    const error = await rejection(settings.updateValue('v', ['a', 'x']));
    expect(error.message).toContain('element 1');
    expect(error.message).toContain('must be one of');
    const objects = oneSetting('object', { is_multi: true, options: [{ a: 1, b: 2 }] }).setting;
    expect(
      objects.validateValue([
        { b: 2, a: 1 },
        { a: 1, b: 2 },
      ]),
    ).toBe(true);
    expect(objects.validateValue([{ a: 1 }])).toBe(false);
  });

  it('empty options allow any value of the type', () => {
    const { setting } = oneSetting('string', { options: [] });
    expect(setting.validateValue('anything')).toBe(true);
  });

  it('validateValue takes the whole value, the way updateValue does', () => {
    const { setting } = oneSetting('integer', { is_multi: true, options: [1, 2] });
    expect(setting.validateValue([1, 2, 1])).toBe(true);
    expect(setting.validateValue(1)).toBe(false);
    expect(setting.validateValue([3])).toBe(false);
  });
});

describe('unknown ids', () => {
  it.each([
    ['getValue', (s: AdhocSettings) => s.getValue('nope')],
    ['updateValue', (s: AdhocSettings) => s.updateValue('nope', 'x')],
    ['deleteValue', (s: AdhocSettings) => s.deleteValue('nope')],
  ])('%s rejects with 404 naming the setting', async (_, call) => {
    const settings = new AdhocSettings('acme', new MemoryOptionStore());
    const error = await rejection(call(settings));
    expect(error.code).toBe(404);
    expect(error.message).toContain('"nope"');
  });
});

describe('methods returning a Promise', () => {
  const bad: [string, (s: AdhocSettings) => Promise<unknown>][] = [
    ['getValue of an unknown id', (s) => s.getValue('nope')],
    ['updateValue of an unknown id', (s) => s.updateValue('nope', 1)],
    ['updateValue with a bad value', (s) => s.updateValue('v', 'not a number')],
    ['updateValue with a non-string id', (s) => s.updateValue(undefined as unknown as string, 1)],
    ['deleteValue of an unknown id', (s) => s.deleteValue('nope')],
  ];

  it.each(bad)('never throw synchronously: %s rejects', async (_, call) => {
    const { settings } = oneSetting('integer');
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = call(settings);
    }).not.toThrow();
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toBeInstanceOf(Framework_Plugin_Exception);
  });

  it('never throw synchronously when the store throws instead of rejecting', async () => {
    const throwing = {
      get: () => {
        throw new Error('down');
      },
      getMany: () => {
        throw new Error('down');
      },
      set: () => {
        throw new Error('down');
      },
      delete: () => {
        throw new Error('down');
      },
    };
    const { settings } = oneSetting('integer', {}, throwing);
    for (const call of [
      () => settings.load(),
      () => settings.updateValue('v', 1),
      () => settings.deleteValue('v'),
    ]) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = call();
      }).not.toThrow();
      await expect(pending).rejects.toMatchObject({ name: 'OptionStoreError' });
    }
  });
});
