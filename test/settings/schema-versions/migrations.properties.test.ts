import {
  convertSetting,
  defineMigration,
  Framework_Abstract_Settings,
  MemoryOptionStore,
  type MigrationChange,
  remapOptions,
  removeSetting,
  renameSetting,
  type SettingsMigration,
} from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const REGISTERED = ['a', 'b', 'c'] as const;
const READ = ['x', 'y'] as const;
const IDS = [...REGISTERED, ...READ];
const LEVELS = ['', 'eu', 'eu/de', 'us'];

class Props extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    for (const id of REGISTERED) this.registerSetting(id, 'string');
  }
}

/** A level's texts by id. */
type Texts = Map<string, string>;

/** One helper change, as data: what the test builds and what the reference model applies. */
type Change =
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'remap'; id: string; map: Record<string, string> }
  | { kind: 'convert'; id: string }
  | { kind: 'remove'; id: string };

const TEXTS = ['p', 'q', 'r', 'P', ''];

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({
    kind: fc.constant('rename' as const),
    from: fc.constantFrom(...IDS),
    to: fc.constantFrom(...IDS),
  }),
  fc.record({
    kind: fc.constant('remap' as const),
    id: fc.constantFrom(...REGISTERED),
    map: fc.dictionary(fc.constantFrom(...TEXTS), fc.constantFrom(...TEXTS), { maxKeys: 3 }),
  }),
  fc.record({ kind: fc.constant('convert' as const), id: fc.constantFrom(...REGISTERED) }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.constantFrom(...IDS) }),
);

/** `convert`: upper case, and the empty text removed. */
const convert = (text: string) => (text === '' ? undefined : text.toUpperCase());

function helper(item: Change): MigrationChange {
  switch (item.kind) {
    case 'rename':
      return renameSetting(item.from, item.to);
    case 'remap':
      return remapOptions(item.id, item.map);
    case 'convert':
      return convertSetting(item.id, convert);
    case 'remove':
      return removeSetting(item.id);
  }
}

/** The reference model of one change on one level. */
function apply(texts: Texts, item: Change): void {
  switch (item.kind) {
    case 'rename': {
      if (item.from === item.to || !texts.has(item.from)) return;
      if (!texts.has(item.to)) texts.set(item.to, texts.get(item.from)!);
      texts.delete(item.from);
      return;
    }
    case 'remap': {
      const text = texts.get(item.id);
      if (text !== undefined && Object.hasOwn(item.map, text)) texts.set(item.id, item.map[text]!);
      return;
    }
    case 'convert': {
      const text = texts.get(item.id);
      if (text === undefined) return;
      const value = convert(text);
      if (value === undefined) texts.delete(item.id);
      else texts.set(item.id, value);
      return;
    }
    case 'remove':
      texts.delete(item.id);
  }
}

const key = (id: string, level: string) =>
  level === '' ? `framework_acme_${id}` : `framework_acme_${id}@${level}`;

describe('migrations with the helpers, against a reference model', () => {
  it('random stored states and random steps: every level ends as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(...LEVELS),
          fc.dictionary(fc.constantFrom(...IDS), fc.constantFrom(...TEXTS), { maxKeys: 5 }),
          { maxKeys: 4 },
        ),
        fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        async (stored, steps) => {
          const initial: Record<string, string> = { 'framework_acme:schema': '1' };
          for (const [level, texts] of Object.entries(stored)) {
            for (const [id, text] of Object.entries(texts)) initial[key(id, level)] = text;
          }
          const store = new MemoryOptionStore(initial);
          const migrations: SettingsMigration[] = steps.map((items, index) =>
            defineMigration(index + 2, `step ${index + 2}`, ...items.map(helper)),
          );
          const settings = new Props('acme', store, {
            schemaVersion: steps.length + 1,
            migrations,
            migrateOnLoad: false,
          });
          await settings.migrate();
          for (const level of LEVELS) {
            const model: Texts = new Map(Object.entries(stored[level] ?? {}));
            for (const items of steps) for (const item of items) apply(model, item);
            const found = await store.getMany(IDS.map((id) => key(id, level)));
            const actual = new Map(
              IDS.flatMap((id) => (found.has(key(id, level)) ? [[id, found.get(key(id, level))!]] : [])),
            );
            expect(actual, `level "${level}"`).toEqual(model);
          }
          expect(await settings.getSchemaVersion()).toBe(steps.length + 1);
        },
      ),
      { numRuns: 150 },
    );
  });
});
