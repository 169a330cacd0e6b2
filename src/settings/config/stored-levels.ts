import type { SettingsCore } from '../settings-core';
import { storeName } from '../store-calls';
import { canListKeys, storedKeyPages } from '../values/stored-keys';
import { UnsupportedByStoreError } from '../writes/unsupported-by-store';
import { compareText } from './json-order';

/** How many levels one read takes. */
export const LEVELS_PER_READ = 500;

/**
 * Every scope holding a stored value under one of `ids`, in code-unit order: the keys are
 * visited a page at a time (`scan`), only the scope names are kept.
 *
 * @throws `UnsupportedByStoreError` (501) for a store that cannot list its keys
 */
export async function storedScopes(core: SettingsCore, ids: readonly string[]): Promise<string[]> {
  if (!canListKeys(core.services)) throw new UnsupportedByStoreError('listing scopes', storeName(core.store));
  const scopes = new Set<string>();
  for (const id of ids) {
    const prefix = core.schema.scopedKeyPrefix(id);
    for await (const page of storedKeyPages(core.services, prefix)) {
      for (const key of page) scopes.add(key.slice(prefix.length));
    }
  }
  return [...scopes].sort(compareText);
}

/** The stored texts of `ids` at each of `levels` (`''`: global), read in one `getMany`: level → id → text. */
export async function readLevels(
  core: SettingsCore,
  levels: readonly string[],
  ids: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  const keys: string[] = [];
  for (const level of levels) for (const id of ids) keys.push(core.schema.keyOf(id, level));
  const found =
    keys.length === 0
      ? new Map<string, string>()
      : await core.services.call('getMany', () => core.store.getMany(keys));
  const byLevel = new Map<string, Map<string, string>>();
  let at = 0;
  for (const level of levels) {
    const texts = new Map<string, string>();
    for (const id of ids) {
      const text = found.get(keys[at++]!);
      if (text !== undefined) texts.set(id, text);
    }
    byLevel.set(level, texts);
  }
  return byLevel;
}
