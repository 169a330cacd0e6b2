import { Framework_Abstract_Settings, MemoryOptionStore } from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'default' });
    this.registerSetting('retries', 'integer');
  }
}

const IDS = ['title', 'retries'] as const;
/** A small tree of scopes: every path and its parents. */
const PATHS = ['', 'eu', 'eu/de', 'eu/de/berlin', 'eu/fr', 'us', 'us/ca'] as const;

type Step =
  | { kind: 'update'; path: (typeof PATHS)[number]; id: (typeof IDS)[number]; value: string | number }
  | { kind: 'delete'; path: (typeof PATHS)[number]; id: (typeof IDS)[number] };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('update' as const),
    path: fc.constantFrom(...PATHS),
    id: fc.constant('title' as const),
    value: fc.constantFrom('', 'a', 'b', 'default'),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    path: fc.constantFrom(...PATHS),
    id: fc.constant('retries' as const),
    value: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    path: fc.constantFrom(...PATHS),
    id: fc.constantFrom(...IDS),
  }),
);

/** The reference resolver: the nearest stored text along the chain, decoded; then the default. */
async function reference(store: MemoryOptionStore, path: string, id: string): Promise<unknown> {
  const chain: string[] = [];
  for (
    let current = path;
    current !== '';
    current = current.includes('/') ? current.slice(0, current.lastIndexOf('/')) : ''
  ) {
    chain.push(current);
  }
  chain.push('');
  for (const level of chain) {
    const text = await store.get(`framework_acme_${id}${level === '' ? '' : `@${level}`}`);
    if (text === undefined) continue;
    if (id === 'title') return text;
    if (text !== '') return Number(text);
  }
  return id === 'title' ? 'default' : null;
}

const level = (settings: ShopSettings, path: string) => settings.level(path);

describe('scoped values (properties)', () => {
  it('for any tree and any sequence of scoped writes and deletes, getValue equals the reference resolver, in this instance and in another after the feed settles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.array(fc.constantFrom(...PATHS), { maxLength: 4 }),
        async (steps, warm) => {
          const data = new MemoryOptionStore();
          const mine = new ShopSettings('acme', data, { maxCachedScopes: 3 });
          const theirs = new ShopSettings('acme', data.share(), { maxCachedScopes: 3 });
          // Some scopes are cached in the other instance before the writes.
          for (const path of warm) await level(theirs, path).getValue('title');
          for (const item of steps) {
            if (item.kind === 'update') await level(mine, item.path).updateValue(item.id, item.value);
            else await level(mine, item.path).deleteValue(item.id);
          }
          for (const path of PATHS) {
            for (const id of IDS) {
              const expected = await reference(data, path, id);
              expect(await level(mine, path).getValue(id)).toEqual(expected);
              await vi.waitFor(async () => expect(await level(theirs, path).getValue(id)).toEqual(expected));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
