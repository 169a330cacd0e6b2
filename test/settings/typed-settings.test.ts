import { defineSettings, Framework_Abstract_Settings, MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, expectTypeOf, it } from 'vitest';

const GatewaySettings = defineSettings({
  enabled: { type: 'boolean', name: 'Enabled', default: false },
  mode: { type: 'string', options: ['live', 'test'], default: 'test', control: { type: 'select' } },
  retries: { type: 'integer' },
  ratio: { type: 'float', default: 0.5 },
  tags: { type: 'string', is_multi: true, default: [] },
  endpoint: { type: 'url' },
  contact: { type: 'email' },
  extra: { type: 'object' },
  levels: { type: 'integer', options: [1, 2, 3], is_multi: true },
});

describe('defineSettings', () => {
  it('types every value by its declaration', async () => {
    const settings = new GatewaySettings('acme', new MemoryOptionStore());
    expectTypeOf(settings.getValue('enabled')).toEqualTypeOf<Promise<boolean>>();
    expectTypeOf(settings.getValue('mode')).toEqualTypeOf<Promise<'live' | 'test'>>();
    expectTypeOf(settings.getValue('retries')).toEqualTypeOf<Promise<number | null>>();
    expectTypeOf(settings.getValue('ratio')).toEqualTypeOf<Promise<number>>();
    expectTypeOf(settings.getValue('tags')).toEqualTypeOf<Promise<string[]>>();
    expectTypeOf(settings.getValue('endpoint')).toEqualTypeOf<Promise<string | null>>();
    expectTypeOf(settings.getValue('levels')).toEqualTypeOf<Promise<(1 | 2 | 3)[] | null>>();
    expectTypeOf(settings.getValue('enabled', false)).toEqualTypeOf<Promise<boolean | null>>();
    expectTypeOf(settings.updateValue<'mode'>)
      .parameter(1)
      .toEqualTypeOf<'live' | 'test'>();
    expectTypeOf(settings).toExtend<Framework_Abstract_Settings>();

    // @ts-expect-error: a boolean setting takes a boolean
    await expect(settings.updateValue('enabled', 'x')).rejects.toMatchObject({ code: 400 });
    // @ts-expect-error: unknown ids do not compile
    await expect(settings.getValue('nope')).rejects.toMatchObject({ code: 404 });
    // @ts-expect-error: not one of the options
    await expect(settings.updateValue('mode', 'other')).rejects.toMatchObject({ code: 400 });
  });

  it('registers the declared settings and controls in declaration order', async () => {
    const settings = new GatewaySettings('acme', new MemoryOptionStore());
    expect([...settings.getSettings().keys()]).toEqual(Object.keys(GatewaySettings.declaration));
    expect(settings.getSetting('mode')?.getControl()?.getType()).toBe('select');
    await settings.updateValue('levels', [3, 1]);
    expect(await settings.getValue('levels')).toEqual([3, 1]);
    expect(await settings.getValue('mode')).toBe('test');
    expect(settings).toBeInstanceOf(Framework_Abstract_Settings);
  });

  it('can be extended with checks of its own', async () => {
    class Checked extends defineSettings({ retries: { type: 'integer', default: 3 } }) {
      override async updateValue(id: 'retries', value: number): Promise<void> {
        if (value > 10)
          throw new (await import('commerce-plugin-framework')).Framework_Plugin_Exception('too many', 400);
        return super.updateValue(id, value);
      }
    }
    const settings = new Checked('acme', new MemoryOptionStore());
    await expect(settings.updateValue('retries', 11)).rejects.toMatchObject({
      code: 400,
      message: 'too many',
    });
    await settings.updateValue('retries', 5);
    expect(await settings.getValue('retries')).toBe(5);
  });
});
