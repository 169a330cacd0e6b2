import {
  Framework_Plugin_Exception,
  MemoryOptionStore,
  OptionStoreError,
  SETTING_TYPES,
  type SettingArgs,
  type SettingType,
} from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdhocSettings, readBack } from './support/adhoc-settings';
import { RecordingStore, snapshot } from './support/stores';

const RUNS = { seed: 0x5e771, numRuns: 300 } as const;
const KEY = 'framework_acme_v';

/** Values that are (mostly) valid for `type`. */
function valuesOf(type: SettingType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return fc.string({ unit: 'grapheme', maxLength: 20 });
    case 'url':
      return fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true });
    case 'email':
      return fc.emailAddress();
    case 'integer':
      return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.constant(-0));
    case 'float':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.jsonValue({ maxDepth: 3 }).filter((value) => value !== null);
  }
}

/** Anything at all, most of it invalid for most types. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom(
    '',
    'yes',
    '1',
    'a\0b',
    '\uD800',
    'http://',
    'a@b.c',
    'HTTP://EXAMPLE.COM',
    '{"__proto__":1}',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constantFrom(null, undefined, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 1.5),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxLength: 3 }),
  fc.constant(new Date(0)),
  fc.constant(JSON.parse('{"__proto__": {"x": 1}}')),
);

interface Case {
  type: SettingType;
  args: SettingArgs;
  value: unknown;
}

/** A setting definition (type, is_multi, options, default) and a candidate value for it. */
const cases: fc.Arbitrary<Case> = fc
  .record({
    type: fc.constantFrom(...SETTING_TYPES),
    isMulti: fc.boolean(),
    withOptions: fc.boolean(),
  })
  .chain(({ type, isMulti, withOptions }) =>
    fc
      .record({
        options: withOptions
          ? fc.array(fc.oneof({ weight: 9, arbitrary: valuesOf(type) }, { weight: 1, arbitrary: anything }), {
              minLength: 1,
              maxLength: 4,
            })
          : fc.constant(undefined),
        defaultIndex: fc.option(fc.nat(), { nil: undefined }),
      })
      .chain(({ options, defaultIndex }) => {
        const element = options
          ? fc.oneof(fc.constantFrom(...options), valuesOf(type), anything)
          : fc.oneof({ weight: 3, arbitrary: valuesOf(type) }, { weight: 1, arbitrary: anything });
        const value = isMulti
          ? fc.oneof(
              { weight: 4, arbitrary: fc.array(element, { maxLength: 4 }) },
              { weight: 1, arbitrary: anything },
            )
          : element;
        const fallback =
          options && defaultIndex !== undefined ? options[defaultIndex % options.length] : undefined;
        const args: SettingArgs = {
          is_multi: isMulti,
          ...(options ? { options } : {}),
          ...(fallback !== undefined ? { default: isMulti ? [fallback] : fallback } : {}),
        };
        return value.map((candidate) => ({ type, args, value: candidate }));
      }),
  );

/** A container over `store` with the setting `v`, or the registration error. */
function register(store: RecordingStore | MemoryOptionStore, { type, args }: Case) {
  const settings = new AdhocSettings('acme', store);
  try {
    return { settings, setting: settings.registerSetting('v', type, args) };
  } catch (error) {
    expect(error).toBeInstanceOf(Framework_Plugin_Exception);
    expect((error as Framework_Plugin_Exception).code).toBe(400);
    return undefined;
  }
}

describe('properties of the settings layer', () => {
  it('a value it accepts reads back equal from a fresh instance; one it rejects leaves the store byte for byte', async () => {
    let accepted = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(
        cases,
        fc.option(fc.constantFrom('old', '42', 'yes', '["x"]', '{"a":1}', '')),
        async (c, old) => {
          const data = new MemoryOptionStore(
            old === null ? {} : { [KEY]: old, framework_acme_other: 'keep' },
          );
          const store = new RecordingStore(data);
          const mine = register(store, c);
          if (!mine) return;
          await mine.settings.load();
          const before = await snapshot(data, [KEY, 'framework_acme_other']);
          const memoryBefore = mine.setting.getValue();
          if (mine.setting.validateValue(c.value)) {
            accepted++;
            await mine.settings.updateValue('v', c.value);
            const expected = readBack(c.value);
            expect(await mine.settings.getValue('v', false)).toEqual(expected);
            const fresh = register(data, c)!;
            await fresh.settings.load();
            expect(await fresh.settings.getValue('v', false)).toEqual(expected);
            expect(fresh.setting.getValue()).toEqual(mine.setting.getValue());
          } else {
            rejected++;
            const error = await mine.settings.updateValue('v', c.value).then(
              () => undefined,
              (caught: unknown) => caught,
            );
            expect(error).toBeInstanceOf(Framework_Plugin_Exception);
            expect((error as Framework_Plugin_Exception).code).toBe(400);
            expect((error as Error).message).toContain('"v"');
            expect(store.count('set')).toBe(0);
            expect(await snapshot(data, [KEY, 'framework_acme_other'])).toEqual(before);
            expect(mine.setting.getValue()).toBe(memoryBefore);
          }
        },
      ),
      RUNS,
    );
    // The generators reach both sides of the property.
    expect(accepted).toBeGreaterThan(50);
    expect(rejected).toBeGreaterThan(50);
  });

  it('a store that fails on set leaves memory and store as they were', async () => {
    await fc.assert(
      fc.asyncProperty(cases, cases, async (first, second) => {
        const c = { ...second, type: first.type, args: first.args };
        const data = new MemoryOptionStore();
        const writer = register(data, first);
        if (!writer?.setting.validateValue(first.value)) return;
        await writer.settings.updateValue('v', first.value);
        const failure = new Error('store unavailable');
        const store = new RecordingStore(data, { set: () => Promise.reject(failure) });
        const mine = register(store, c)!;
        await mine.settings.load();
        const memoryBefore = mine.setting.getValue();
        const before = await snapshot(data, [KEY]);
        const error = await mine.settings.updateValue('v', c.value).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        if (mine.setting.validateValue(c.value)) {
          expect(error).toBeInstanceOf(OptionStoreError);
          expect((error as OptionStoreError).cause).toBe(failure);
        } else {
          expect(error).toBeInstanceOf(Framework_Plugin_Exception);
        }
        expect(mine.setting.getValue()).toBe(memoryBefore);
        expect(await snapshot(data, [KEY])).toEqual(before);
        expect(await mine.settings.getValue('v', false)).toEqual(readBack(first.value));
      }),
      RUNS,
    );
  });

  it('validateValue answers exactly what updateValue does', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const mine = register(new MemoryOptionStore(), c);
        if (!mine) return;
        const verdict = mine.setting.validateValue(c.value);
        const outcome = await mine.settings.updateValue('v', c.value).then(
          () => true,
          () => false,
        );
        expect(outcome).toBe(verdict);
      }),
      RUNS,
    );
  });
});
