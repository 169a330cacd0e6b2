/**
 * Property: any sequence of `updateValue` / `deleteValue` / `load` on any settings definition
 * (every type, multi, options, defaults) leaves memory and store agreeing — a fresh instance
 * on the same store reads the same values — and every accepted value reads back equal.
 *
 * A model (what the store should hold, per setting) is run beside the real instance. The
 * second property fires the operations concurrently over a store that fails and delays calls
 * by a seeded schedule: acknowledged operations, applied in the order they were made, must
 * give the final state; failed ones must leave no trace.
 */
import {
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  type Framework_Setting,
  MemoryOptionStore,
  type OptionStore,
  OptionStoreError,
  SETTING_TYPES,
  type SettingArgs,
  type SettingType,
} from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FaultInjectingStore, noFaults, seededSchedule } from '../support/fault-injecting-store';

const SEED = 0x8eed;
console.log(`[reliability] settings-sequences fast-check seed ${SEED}`);

/** Settings registered from outside, as the property generates them. */
class GeneratedSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {}
}

/** Values mostly valid for `type`. */
function valuesOf(type: SettingType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.constantFrom('', 'yes', '1', '{}'),
      );
    case 'url':
      return fc.oneof(
        fc.webUrl({ validSchemes: ['http', 'https'] }),
        fc.constantFrom('HTTPS://EXAMPLE.COM/A B', 'http://x', 'ftp://x.y'),
      );
    case 'email':
      return fc.oneof(fc.emailAddress(), fc.constantFrom('a@b.co', 'ops@example.com', 'no-at.example'));
    case 'integer':
      return fc.oneof(
        fc.integer({ min: -5, max: 5 }),
        fc.maxSafeInteger(),
        fc.constantFrom(-0, 2 ** 53, 1.5),
      );
    case 'float':
      return fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(0.1, -0, 1e308, Number.NaN),
      );
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(JSON.parse('{"__proto__":{"x":1}}')));
  }
}

/** Anything, mostly invalid. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    '',
    'a\u0000b',
    '\ud800',
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 53,
    new Date(0),
  ),
  fc.jsonValue({ maxDepth: 1 }),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean()), { maxLength: 3 }),
);

interface Definition {
  readonly type: SettingType;
  readonly args: SettingArgs;
  /** Values to try writing. */
  readonly candidates: fc.Arbitrary<unknown>;
}

const definition: fc.Arbitrary<Definition> = fc
  .record({ type: fc.constantFrom(...SETTING_TYPES), isMulti: fc.boolean(), withOptions: fc.boolean() })
  .chain(({ type, isMulti, withOptions }) =>
    fc
      .record({
        options: withOptions
          ? fc.array(valuesOf(type), { minLength: 1, maxLength: 3 })
          : fc.constant(undefined),
        defaultPick: fc.option(fc.nat(), { nil: undefined }),
      })
      .map(({ options, defaultPick }) => {
        const element = options ? fc.oneof(fc.constantFrom(...options), valuesOf(type)) : valuesOf(type);
        const value = isMulti
          ? fc.oneof({ weight: 4, arbitrary: fc.array(element, { maxLength: 3 }) }, element)
          : element;
        const fallback =
          options && defaultPick !== undefined ? options[defaultPick % options.length] : undefined;
        const args: SettingArgs = {
          is_multi: isMulti,
          ...(options ? { options } : {}),
          ...(fallback === undefined ? {} : { default: isMulti ? [fallback] : fallback }),
        };
        return {
          type,
          args,
          candidates: fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: anything }),
        };
      }),
  );

type Operation =
  | { readonly kind: 'update'; readonly target: number; readonly value: unknown }
  | { readonly kind: 'delete'; readonly target: number }
  | { readonly kind: 'load' };

/** Settings definitions and a list of operations on them. */
const scenario = fc.array(definition, { minLength: 1, maxLength: 4 }).chain((definitions) =>
  fc.record({
    definitions: fc.constant(definitions),
    operations: fc.array(
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc
            .nat({ max: definitions.length - 1 })
            .chain((target) =>
              definitions[target]!.candidates.map((value): Operation => ({ kind: 'update', target, value })),
            ),
        },
        {
          weight: 2,
          arbitrary: fc
            .nat({ max: definitions.length - 1 })
            .map((target): Operation => ({ kind: 'delete', target })),
        },
        { weight: 1, arbitrary: fc.constant<Operation>({ kind: 'load' }) },
      ),
      { maxLength: 16 },
    ),
  }),
);

/** `value` as it reads back from a store (JSON and decimal text have no negative zero). */
function readBack(value: unknown): unknown {
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (Array.isArray(value)) return value.map(readBack);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, readBack(child)]));
  }
  return value;
}

/** Registers the definitions that are valid; returns the ids registered, by definition index. */
function register(settings: GeneratedSettings, definitions: readonly Definition[]): Array<string | null> {
  return definitions.map((def, index) => {
    try {
      settings.registerSetting(`s${index}`, def.type, def.args);
      return `s${index}`;
    } catch (error) {
      // Generated options may be invalid for the type: registration refuses them with a 400.
      expect(error).toBeInstanceOf(Framework_Plugin_Exception);
      expect((error as Framework_Plugin_Exception).code).toBe(400);
      return null;
    }
  });
}

/** True when the parsed JSON text has a `__proto__` key anywhere. */
function hasProtoKey(text: string): boolean {
  let found = false;
  try {
    JSON.parse(text, function reviver(this: unknown, key: string, value: unknown) {
      if (key === '__proto__') found = true;
      return value;
    });
  } catch {
    return false;
  }
  return found;
}

/** Asserts that `settings` (memory) and a fresh instance over `store` both read `model`. */
async function expectAgreement(
  settings: GeneratedSettings,
  store: OptionStore,
  definitions: readonly Definition[],
  ids: ReadonlyArray<string | null>,
  model: ReadonlyMap<string, unknown>,
  withFreshInstance = true,
): Promise<void> {
  const fresh = withFreshInstance ? new GeneratedSettings('gen', store) : null;
  if (fresh) {
    register(fresh, definitions);
    await fresh.load();
  }
  for (const id of ids) {
    if (id === null) continue;
    const expected = model.has(id) ? model.get(id) : null;
    const setting = settings.getSetting(id) as Framework_Setting;
    expect(await settings.getValue(id, false)).toEqual(expected);
    expect(await settings.getValue(id)).toEqual(expected ?? setting.getDefault());
    if (fresh) expect(await fresh.getValue(id, false)).toEqual(expected);
    expect(setting.toJSON().value).toEqual(expected ?? setting.getDefault());
  }
  for (const [key, text] of await store.getMany(
    ids.filter((id) => id !== null).map((id) => `framework_gen_${id}`),
  )) {
    expect(hasProtoKey(text), key).toBe(false);
  }
}

describe('sequences of operations on generated settings', () => {
  it('one at a time: memory, store and a fresh instance agree with the model after every step', async () => {
    let accepted = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ definitions, operations }) => {
        const data = new MemoryOptionStore();
        const settings = new GeneratedSettings('gen', data);
        const ids = register(settings, definitions);
        const model = new Map<string, unknown>();
        for (const operation of operations) {
          if (operation.kind === 'load') {
            await settings.load();
          } else {
            const id = ids[operation.target];
            if (id === null || id === undefined) continue;
            if (operation.kind === 'delete') {
              expect(await settings.deleteValue(id)).toBe(model.has(id));
              model.delete(id);
            } else {
              const valid = settings.getSetting(id)!.validateValue(operation.value);
              const outcome = await settings.updateValue(id, operation.value).then(
                () => 'ok' as const,
                (error: unknown) => error,
              );
              if (valid) {
                expect(outcome).toBe('ok');
                model.set(id, readBack(operation.value));
                accepted++;
              } else {
                expect(outcome).toBeInstanceOf(Framework_Plugin_Exception);
                expect((outcome as Framework_Plugin_Exception).code).toBe(400);
                rejected++;
              }
            }
          }
          // Memory after every step; a fresh instance after loads and at the end.
          await expectAgreement(settings, data, definitions, ids, model, operation.kind === 'load');
        }
        await expectAgreement(settings, data, definitions, ids, model);
      }),
      { seed: SEED, numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(1000);
    expect(rejected).toBeGreaterThan(300);
  });

  it('all at once, over a store that fails and delays calls: acknowledged operations in call order give the final state', async () => {
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(
        scenario,
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        async ({ definitions, operations }, faultSeed) => {
          const data = new MemoryOptionStore();
          const store = new FaultInjectingStore(
            data,
            seededSchedule(faultSeed, {
              failRate: 0.25,
              delayRate: 0.5,
              maxDelayMs: 1,
              operations: ['set', 'delete', 'getMany'],
            }),
          );
          const settings = new GeneratedSettings('gen', store);
          const ids = register(settings, definitions);
          // Every operation starts before any settles.
          const outcomes = await Promise.all(
            operations.map((operation) => {
              if (operation.kind === 'load')
                return settings.load().then(
                  () => undefined,
                  (error: unknown) => error,
                );
              const id = ids[operation.target];
              if (id === null || id === undefined) return Promise.resolve(undefined);
              const run =
                operation.kind === 'delete'
                  ? settings.deleteValue(id)
                  : settings.updateValue(id, operation.value);
              return run.then(
                (result) => ({ ok: result }),
                (error: unknown) => error,
              );
            }),
          );
          store.setSchedule(noFaults);
          // Replay what was acknowledged, in the order the calls were made.
          const model = new Map<string, unknown>();
          operations.forEach((operation, index) => {
            const outcome = outcomes[index];
            if (operation.kind === 'load') {
              if (outcome !== undefined) expect(outcome).toBeInstanceOf(OptionStoreError);
              return;
            }
            const id = ids[operation.target];
            if (id === null || id === undefined) return;
            if (outcome instanceof OptionStoreError) {
              failures++;
              return;
            }
            if (operation.kind === 'update') {
              const valid = settings.getSetting(id)!.validateValue(operation.value);
              if (!valid) {
                expect(outcome).toBeInstanceOf(Framework_Plugin_Exception);
                return;
              }
              expect(outcome).toEqual({ ok: undefined });
              model.set(id, readBack(operation.value));
            } else {
              expect(outcome).toEqual({ ok: model.has(id) });
              model.delete(id);
            }
          });
          await expectAgreement(settings, data, definitions, ids, model);
        },
      ),
      { seed: SEED + 1, numRuns: 500 },
    );
    expect(failures).toBeGreaterThan(100);
  });
});
