import { describe, expect } from 'vitest';
import { PREFIX_KEY_SUFFIXES, PREFIX_PROBES } from './awkward-text';
import type { SuiteTools } from './suite-tools';

/**
 * The checks of the optional `listKeys` capability, declared inside the suite's `describe`;
 * each skips itself for a store without it.
 */
export function describeListKeysChecks({ key, open, test }: SuiteTools): void {
  describe('listKeys capability', () => {
    test('listKeys answers the keys that start with the prefix, as text: no LIKE or glob patterns', async ({
      skip,
    }) => {
      const store = await open();
      if (typeof store.listKeys !== 'function') return skip('the store has no listKeys');
      const base = key('lk-');
      const keys = PREFIX_KEY_SUFFIXES.map((suffix) => key(`lk-${suffix}`));
      for (const k of keys) await store.set(k, 'v');
      const listed = async (prefix: string) => new Set(await store.listKeys!(prefix));
      const startingWith = (prefix: string) => new Set(keys.filter((k) => k.startsWith(prefix)));
      for (const suffix of PREFIX_PROBES) {
        const prefix = base + suffix;
        expect(await listed(prefix), JSON.stringify(suffix)).toEqual(startingWith(prefix));
      }
      expect(await listed(base)).toEqual(new Set(keys));
      expect(await listed(keys[0]!)).toEqual(startingWith(keys[0]!));
      await store.delete(keys[1]!);
      expect(await listed(`${base}a%`)).toEqual(new Set([keys[2]]));
      const all = await store.listKeys('');
      for (const k of keys.slice(2)) expect(all).toContain(k);
    });
  });
}
