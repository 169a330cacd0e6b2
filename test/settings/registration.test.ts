import {
  CONTROL_TYPES,
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  SETTING_TYPES,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { AdhocSettings } from './support/adhoc-settings';

function fresh(): AdhocSettings {
  return new AdhocSettings('acme', new MemoryOptionStore());
}

/** Runs `register` and returns what it threw (failing the test when it did not throw). */
function thrownBy(register: () => unknown): Framework_Plugin_Exception {
  try {
    register();
  } catch (error) {
    expect(error).toBeInstanceOf(Framework_Plugin_Exception);
    return error as Framework_Plugin_Exception;
  }
  throw new Error('expected a Framework_Plugin_Exception');
}

describe('registerSetting', () => {
  it('registers a setting with its definition, in registration order', () => {
    const settings = fresh();
    const setting = settings.registerSetting('mode', 'string', {
      name: 'Mode',
      description: 'Live or test',
      options: ['live', 'test'],
      default: 'test',
    });
    settings.registerSetting('debug', 'boolean');
    expect(setting.getId()).toBe('mode');
    expect(setting.getType()).toBe('string');
    expect(setting.getName()).toBe('Mode');
    expect(setting.getDescription()).toBe('Live or test');
    expect(setting.isMulti()).toBe(false);
    expect(setting.getOptions()).toEqual(['live', 'test']);
    expect(setting.getDefault()).toBe('test');
    expect(setting.getControl()).toBeNull();
    expect(settings.getSetting('mode')).toBe(setting);
    expect([...settings.getSettings().keys()]).toEqual(['mode', 'debug']);
    const debug = settings.getSetting('debug')!;
    expect([debug.getName(), debug.getDescription(), debug.getOptions(), debug.getDefault()]).toEqual([
      '',
      '',
      [],
      null,
    ]);
  });

  it('accepts every one of the seven types', () => {
    const settings = fresh();
    expect(settings.getSettingTypes()).toEqual([
      'string',
      'url',
      'email',
      'integer',
      'float',
      'boolean',
      'object',
    ]);
    expect([...SETTING_TYPES]).toEqual(settings.getSettingTypes());
    for (const type of SETTING_TYPES)
      expect(settings.registerSetting(`s_${type}`, type).getType()).toBe(type);
  });

  it.each([
    ['an empty id', ''],
    ['a space', 'a b'],
    ['a dot', 'a.b'],
    ['a slash', 'a/b'],
    ['a colon', 'a:b'],
    ['a non-ASCII letter', 'café'],
    ['a NUL', 'a\0'],
    ['a newline', 'a\n'],
  ])('rejects an id with %s', (_, id) => {
    const settings = fresh();
    const error = thrownBy(() => settings.registerSetting(id, 'string'));
    expect(error.code).toBe(400);
    expect(error.message).toContain('A-Z, a-z, 0-9');
    expect(settings.getSettings().size).toBe(0);
  });

  it('accepts ids of letters, digits, "_" and "-"', () => {
    const settings = fresh();
    for (const id of ['a', 'Z9', 'api_key', 'api-key', '_', '-', '0', 'aB_c-9'])
      settings.registerSetting(id, 'string');
    expect(settings.getSettings().size).toBe(8);
  });

  it('rejects a non-string id', () => {
    const settings = fresh();
    expect(thrownBy(() => settings.registerSetting(5 as unknown as string, 'string')).code).toBe(400);
  });

  it('rejects a duplicate id and keeps the first setting', () => {
    const settings = fresh();
    const first = settings.registerSetting('mode', 'string', { default: 'a' });
    const error = thrownBy(() => settings.registerSetting('mode', 'integer'));
    expect(error.code).toBe(400);
    expect(error.message).toContain('"mode"');
    expect(error.message).toContain('already registered');
    expect(settings.getSetting('mode')).toBe(first);
  });

  it.each(['text', 'String', 'int', 'number', 'bool', 'array', '', 'toString', '__proto__'])(
    'rejects the unknown type %j',
    (type) => {
      const settings = fresh();
      const error = thrownBy(() => settings.registerSetting('x', type));
      expect(error.code).toBe(400);
      expect(error.message).toContain('"x"');
      expect(error.message).toContain('unknown type');
      expect(settings.getSetting('x')).toBeUndefined();
    },
  );

  it.each([
    ['string', 5],
    ['string', 'a\0b'],
    ['url', 'example.com'],
    ['email', 'nobody'],
    ['integer', 1.5],
    ['integer', '5'],
    ['float', Number.NaN],
    ['boolean', 'yes'],
    ['object', new Date(0)],
  ])('rejects a %s setting whose default is %j', (type, value) => {
    const settings = fresh();
    const error = thrownBy(() => settings.registerSetting('x', type, { default: value }));
    expect(error.code).toBe(400);
    expect(error.message).toContain('"x"');
    expect(error.message).toContain('default');
    expect(settings.getSetting('x')).toBeUndefined();
  });

  it('rejects a default outside the options', () => {
    const settings = fresh();
    const error = thrownBy(() =>
      settings.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'demo' }),
    );
    expect(error.code).toBe(400);
    expect(error.message).toContain('"mode"');
    expect(error.message).toContain('live');
    expect(settings.getSetting('mode')).toBeUndefined();
  });

  it('rejects a multi default that is not an array, or has an element outside the options', () => {
    const settings = fresh();
    expect(
      thrownBy(() => settings.registerSetting('tags', 'string', { is_multi: true, default: 'a' })).code,
    ).toBe(400);
    expect(
      thrownBy(() =>
        settings.registerSetting('tags', 'string', {
          is_multi: true,
          options: ['a', 'b'],
          default: ['a', 'c'],
        }),
      ).code,
    ).toBe(400);
    expect(settings.getSettings().size).toBe(0);
    const ok = settings.registerSetting('tags', 'string', {
      is_multi: true,
      options: ['a', 'b'],
      default: ['b'],
    });
    expect(ok.getDefault()).toEqual(['b']);
  });

  it.each([
    ['integer', [1, 2.5]],
    ['integer', [1, '2']],
    ['string', ['a', null]],
    ['boolean', [true, 'no']],
    ['email', ['a@example.com', 'nope']],
    ['object', [{ a: 1 }, null]],
  ])('rejects %s options with an invalid member %j, not silently dropping it', (type, options) => {
    const settings = fresh();
    const error = thrownBy(() => settings.registerSetting('x', type, { options }));
    expect(error.code).toBe(400);
    expect(error.message).toContain('"x"');
    expect(error.message).toContain('option 1');
    expect(settings.getSetting('x')).toBeUndefined();
  });

  it('treats default: null and a missing default as no default', () => {
    const settings = fresh();
    expect(settings.registerSetting('a', 'integer', { default: null }).getDefault()).toBeNull();
    expect(settings.registerSetting('b', 'integer').getDefault()).toBeNull();
    expect(settings.registerSetting('c', 'integer', { default: undefined }).getDefault()).toBeNull();
    expect(settings.getSetting('a')!.toJSON().default).toBeNull();
  });

  it('keeps its own frozen copy of options and default', () => {
    const settings = fresh();
    const options = [{ plan: 'a' }, { plan: 'b' }];
    const fallback = { plan: 'a' };
    const setting = settings.registerSetting('plan', 'object', { options, default: fallback });
    options[0]!.plan = 'changed';
    fallback.plan = 'changed';
    expect(setting.getOptions()).toEqual([{ plan: 'a' }, { plan: 'b' }]);
    expect(setting.getDefault()).toEqual({ plan: 'a' });
    expect(Object.isFrozen(setting.getDefault())).toBe(true);
    expect(() => {
      (setting.getOptions()[0] as { plan: string }).plan = 'x';
    }).toThrow(TypeError);
  });

  it('registers nothing when any check fails, and later registrations still work', () => {
    const settings = fresh();
    settings.registerSetting('a', 'string');
    for (const register of [
      () => settings.registerSetting('b', 'nope'),
      () => settings.registerSetting('b', 'integer', { default: 'x' }),
      () => settings.registerSetting('b', 'integer', { options: [1], default: 2 }),
      () => settings.registerSetting('b', 'integer', { options: ['1'] }),
      () => settings.registerSetting('b c', 'integer'),
    ]) {
      expect(thrownBy(register).code).toBe(400);
    }
    expect([...settings.getSettings().keys()]).toEqual(['a']);
    settings.registerSetting('b', 'integer');
    expect([...settings.getSettings().keys()]).toEqual(['a', 'b']);
  });

  it('rejects a non-boolean is_multi and non-array options', () => {
    const settings = fresh();
    expect(
      thrownBy(() => settings.registerSetting('x', 'string', { is_multi: 'yes' as unknown as boolean })).code,
    ).toBe(400);
    expect(
      thrownBy(() => settings.registerSetting('x', 'string', { options: 'a' as unknown as string[] })).code,
    ).toBe(400);
    expect(settings.getSetting('x')).toBeUndefined();
  });
});

describe('the registry', () => {
  it('getSettings filters by ids in registration order, ignoring unknown ids', () => {
    const settings = fresh();
    for (const id of ['a', 'b', 'c']) settings.registerSetting(id, 'string');
    expect([...settings.getSettings(['c', 'a', 'zzz']).keys()]).toEqual(['a', 'c']);
    expect(settings.getSettings([]).size).toBe(0);
    expect([...settings.getSettings().keys()]).toEqual(['a', 'b', 'c']);
  });

  it('getSettings returns a copy of the registry', () => {
    const settings = fresh();
    settings.registerSetting('a', 'string');
    settings.getSettings().delete('a');
    expect(settings.getSetting('a')).toBeDefined();
  });

  it('unregisterSetting answers whether a setting was removed', () => {
    const settings = fresh();
    settings.registerSetting('a', 'string');
    expect(settings.unregisterSetting('a')).toBe(true);
    expect(settings.unregisterSetting('a')).toBe(false);
    expect(settings.getSetting('a')).toBeUndefined();
    settings.registerSetting('a', 'integer');
    expect(settings.getSetting('a')!.getType()).toBe('integer');
  });

  it('names storage keys <optionPrefix>_<pluginId>_<settingId>', () => {
    expect(fresh().getOptionName('api_key')).toBe('framework_acme_api_key');
    const custom = new AdhocSettings('shop-7', new MemoryOptionStore(), { optionPrefix: 'wc' });
    expect(custom.getOptionName('mode')).toBe('wc_shop-7_mode');
    expect(custom.getId()).toBe('shop-7');
  });

  it('lists the twelve control types', () => {
    expect(fresh().getControlTypes()).toEqual([
      'text',
      'textarea',
      'number',
      'email',
      'password',
      'date',
      'checkbox',
      'radio',
      'select',
      'file',
      'color',
      'range',
    ]);
    expect([...CONTROL_TYPES]).toEqual(fresh().getControlTypes());
  });
});

describe('registerSettings (lazy)', () => {
  class Counted extends Framework_Abstract_Settings {
    runs = 0;
    protected registerSettings(): void {
      this.runs++;
      this.registerSetting('mode', 'string', { default: 'test' });
      this.registerControl('mode', 'select');
    }
  }

  const methods: Record<string, (s: Counted) => unknown> = {
    getId: (s) => s.getId(),
    registerSetting: (s) => s.registerSetting('other', 'string'),
    registerControl: (s) => s.registerControl('mode', 'text'),
    unregisterSetting: (s) => s.unregisterSetting('mode'),
    getSetting: (s) => s.getSetting('mode'),
    getSettings: (s) => s.getSettings(),
    getOptionName: (s) => s.getOptionName('mode'),
    getSettingTypes: (s) => s.getSettingTypes(),
    getControlTypes: (s) => s.getControlTypes(),
    load: (s) => s.load(),
    getValue: (s) => s.getValue('mode'),
    updateValue: (s) => s.updateValue('mode', 'live'),
    deleteValue: (s) => s.deleteValue('mode'),
  };

  it.each(Object.keys(methods))('runs once, before %s', async (name) => {
    const settings = new Counted('acme', new MemoryOptionStore());
    expect(settings.runs).toBe(0);
    await methods[name]!(settings);
    expect(settings.runs).toBe(1);
    settings.getSettings();
    await settings.getValue('mode').catch(() => undefined);
    await settings.updateValue('mode', 'test').catch(() => undefined);
    expect(settings.runs).toBe(1);
  });

  it('has run before a setting registered from outside, so a clash is a duplicate', () => {
    const settings = new Counted('acme', new MemoryOptionStore());
    expect(() => settings.registerSetting('mode', 'string')).toThrow(/already registered/);
  });

  it('reports a broken declaration at the first use, as a 400, and registers nothing', async () => {
    class Broken extends Framework_Abstract_Settings {
      protected registerSettings(): void {
        this.registerSetting('ok', 'string');
        this.registerSetting('bad', 'integer', { default: 'x' });
      }
    }
    const settings = new Broken('acme', new MemoryOptionStore());
    expect(() => settings.getSettings()).toThrow(Framework_Plugin_Exception);
    let pending: Promise<void> | undefined;
    expect(() => {
      pending = settings.load();
    }).not.toThrow();
    await expect(pending).rejects.toMatchObject({ code: 400 });
    await expect(settings.getValue('ok')).rejects.toMatchObject({ code: 400 });
  });
});

describe('registerControl', () => {
  function withMode() {
    const settings = fresh();
    const setting = settings.registerSetting('mode', 'string', {
      name: 'Mode',
      description: 'Which API to call',
      options: ['live', 'test'],
    });
    return { settings, setting };
  }

  it('attaches a control whose name, description and options default to the setting’s and {}', () => {
    const { settings, setting } = withMode();
    const control = settings.registerControl('mode', 'radio');
    expect(setting.getControl()).toBe(control);
    expect(control.getSettingId()).toBe('mode');
    expect(control.getType()).toBe('radio');
    expect(control.getName()).toBe('Mode');
    expect(control.getDescription()).toBe('Which API to call');
    expect(control.getOptions()).toEqual({});
    expect(setting.toJSON().control).toEqual({
      type: 'radio',
      name: 'Mode',
      description: 'Which API to call',
      options: {},
    });
  });

  it('takes its own name, description and option labels', () => {
    const { settings } = withMode();
    const control = settings.registerControl('mode', 'select', {
      name: 'API mode',
      description: 'Pick one',
      options: { live: 'Live', test: 'Test' },
    });
    expect([control.getName(), control.getDescription(), control.getOptions()]).toEqual([
      'API mode',
      'Pick one',
      { live: 'Live', test: 'Test' },
    ]);
  });

  it('accepts all twelve control types', () => {
    const settings = fresh();
    for (const type of CONTROL_TYPES) {
      settings.registerSetting(type, 'string');
      expect(settings.registerControl(type, type).getType()).toBe(type);
    }
  });

  it('rejects an unknown setting', () => {
    const settings = fresh();
    const error = thrownBy(() => settings.registerControl('nope', 'text'));
    expect(error.code).toBe(400);
    expect(error.message).toContain('"nope"');
  });

  it.each(['dropdown', 'Text', '', 'toString'])(
    'rejects the unknown control type %j, keeping the control',
    (type) => {
      const { settings, setting } = withMode();
      const before = settings.registerControl('mode', 'select');
      const error = thrownBy(() => settings.registerControl('mode', type));
      expect(error.code).toBe(400);
      expect(error.message).toContain('"mode"');
      expect(error.message).toContain('control type');
      expect(setting.getControl()).toBe(before);
    },
  );

  it('rejects an option key that is not one of the setting’s options, keeping the control', () => {
    const { settings, setting } = withMode();
    const error = thrownBy(() =>
      settings.registerControl('mode', 'select', { options: { live: 'Live', demo: 'Demo' } }),
    );
    expect(error.code).toBe(400);
    expect(error.message).toContain('"demo"');
    expect(setting.getControl()).toBeNull();
  });

  it.each([
    ['integer', [1, 2, 3], { '1': 'One', '3': 'Three' }, { '1.0': 'One' }],
    ['float', [0.5, 2], { '0.5': 'Half', '2': 'Two' }, { '.5': 'Half' }],
    ['boolean', [true, false], { true: 'On', false: 'Off' }, { yes: 'On' }],
    ['object', [{ b: 1, a: 2 }, [1, 2]], { '{"a":2,"b":1}': 'A', '[1,2]': 'B' }, { '{"b":1,"a":2}': 'A' }],
  ])('matches %s options by their text', (type, options, good, bad) => {
    const settings = fresh();
    const setting = settings.registerSetting('x', type, { options });
    expect(settings.registerControl('x', 'select', { options: good }).getOptions()).toEqual(good);
    const kept = setting.getControl();
    expect(thrownBy(() => settings.registerControl('x', 'select', { options: bad })).code).toBe(400);
    expect(setting.getControl()).toBe(kept);
  });

  it('accepts any option keys when the setting has no options', () => {
    const settings = fresh();
    settings.registerSetting('color', 'string');
    expect(settings.registerControl('color', 'select', { options: { red: 'Red' } }).getOptions()).toEqual({
      red: 'Red',
    });
  });

  it('replaces an earlier control', () => {
    const { settings, setting } = withMode();
    settings.registerControl('mode', 'select');
    const second = settings.registerControl('mode', 'radio');
    expect(setting.getControl()).toBe(second);
  });

  it('control options are a copy', () => {
    const { settings } = withMode();
    const labels = { live: 'Live' };
    const control = settings.registerControl('mode', 'select', { options: labels });
    labels.live = 'changed';
    control.getOptions().live = 'changed too';
    expect(control.getOptions()).toEqual({ live: 'Live' });
  });
});
