import type { ScanPage, ScanQuery } from '../../storage/store-scan';
import type { LevelServices } from './level-services';

/** How many keys one page of a scan asks for. */
export const KEY_PAGE_SIZE = 1000;

/**
 * The stored keys (or, with `logs`, the change logs' names) that start with `prefix`, a page at a
 * time: through the store's `scan` (memory bounded by the page, however many scopes there are),
 * else — keys only — its `listKeys` (one page), else none (a store that cannot list them). An item
 * may come twice (`scan` may repeat one).
 */
export async function* storedKeyPages(
  services: LevelServices,
  prefix: string,
  pageSize = KEY_PAGE_SIZE,
  logs = false,
): AsyncGenerator<string[]> {
  const store = services.store;
  if (typeof store.scan === 'function') {
    for await (const page of scanPages(services, {
      prefix,
      count: pageSize,
      ...(logs ? { logs: true } : {}),
    })) {
      if (page.items.length > 0) yield page.items;
    }
    return;
  }
  if (!logs && typeof store.listKeys === 'function') {
    const keys = await services.call('listKeys', () => store.listKeys!(prefix));
    for (let start = 0; start < keys.length; start += pageSize) yield keys.slice(start, start + pageSize);
  }
}

/**
 * The stored keys that start with `prefix` with their texts, a page at a time: from the store's
 * `scan` with `values` where it gives them, else the keys of {@link storedKeyPages} read with
 * `getMany` (a key removed meanwhile is left out).
 */
export async function* storedTextPages(
  services: LevelServices,
  prefix: string,
  pageSize = KEY_PAGE_SIZE,
): AsyncGenerator<ReadonlyMap<string, string>> {
  const store = services.store;
  if (typeof store.scan === 'function') {
    for await (const { items, values } of scanPages(services, { prefix, count: pageSize, values: true })) {
      if (items.length === 0) continue;
      if (values !== undefined && values.length === items.length) {
        yield new Map(items.map((key, index) => [key, values[index]!]));
      } else {
        yield await services.call('getMany', () => store.getMany(items));
      }
    }
    return;
  }
  for await (const keys of storedKeyPages(services, prefix, pageSize)) {
    yield await services.call('getMany', () => store.getMany(keys));
  }
}

/** Every page of the store's `scan` for `query`, the first to the last (the store has `scan`). */
async function* scanPages(
  services: LevelServices,
  query: Omit<ScanQuery, 'cursor'>,
): AsyncGenerator<ScanPage> {
  const store = services.store;
  let cursor: string | null = null;
  do {
    const from: string | null = cursor;
    const page: ScanPage = await services.call('scan', () => store.scan!({ ...query, cursor: from }));
    yield page;
    cursor = page.cursor;
  } while (cursor !== null);
}

/** Whether the store can list its keys (`scan` or `listKeys`): what visiting every scope needs. */
export function canListKeys(services: LevelServices): boolean {
  return typeof services.store.scan === 'function' || typeof services.store.listKeys === 'function';
}
