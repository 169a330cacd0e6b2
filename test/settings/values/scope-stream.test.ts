import { MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import type { SettingsSchema } from '../../../src/settings/schema/settings-schema';
import type { LevelServices } from '../../../src/settings/values/level-services';
import { type FoundScope, streamScopes } from '../../../src/settings/values/scope-stream';
import type { ScanPage, ScanQuery, SuffixScanPage, SuffixScanQuery } from '../../../src/storage/store-scan';

/**
 * The merged scope stream of ordered stores (what migrations and exports walk): every scope once,
 * in order, with its ids, texts and marker; pages of two batches, each cursor's next page read
 * while the current one is merged; a failed read met by the stream, never left unhandled.
 */

const IDS = ['fee', 'mode', 'title'];
/** The two key layouts the stream reads (the container's own are longer; only the shape matters). */
const schema = {
  scopedKeyPrefix: (id: string) => `base_${id}@`,
  levelMarkerKey: (scope: string) => `base:level@${scope}`,
} as unknown as SettingsSchema;

/** A store of `scopes` scopes, where scope n holds the ids whose index divides n + 1, and every third a marker. */
function seeded(scopes: number): { store: MemoryOptionStore; expected: Map<string, Map<string, string>> } {
  const data: Record<string, string> = {};
  const expected = new Map<string, Map<string, string>>();
  for (let n = 0; n < scopes; n++) {
    const scope = `shop${String(n).padStart(5, '0')}`;
    const texts = new Map<string, string>();
    IDS.forEach((id, index) => {
      if ((n + 1) % (index + 1) !== 0) return;
      data[`base_${id}@${scope}`] = `${id} of ${scope}`;
      texts.set(id, `${id} of ${scope}`);
    });
    if (n % 3 === 0) data[`base:level@${scope}`] = '2';
    expected.set(scope, texts);
  }
  return { store: new MemoryOptionStore(data), expected };
}

/**
 * The services the stream uses, over `store`, its scans and suffix scans recorded (and failing
 * when `fail` or `failSuffixes` says so); without `failSuffixes` it has no `scanSuffixes`.
 */
function services(
  store: MemoryOptionStore,
  fail: (query: ScanQuery, call: number) => boolean = () => false,
  failSuffixes?: (call: number) => boolean,
): { services: LevelServices; scans: ScanQuery[]; suffixScans: SuffixScanQuery[] } {
  const scans: ScanQuery[] = [];
  const suffixScans: SuffixScanQuery[] = [];
  const recording = Object.create(store) as MemoryOptionStore;
  recording.scan = (query: ScanQuery): Promise<ScanPage> => {
    scans.push(query);
    if (fail(query, scans.length)) return Promise.reject(new Error('scan failed'));
    return store.scan(query);
  };
  // Without `failSuffixes`, a store that only scans (the merged cursors are what is tested).
  (recording as { scanSuffixes?: unknown }).scanSuffixes =
    failSuffixes === undefined
      ? undefined
      : (query: SuffixScanQuery): Promise<SuffixScanPage> => {
          suffixScans.push(query);
          if (failSuffixes(suffixScans.length)) return Promise.reject(new Error('suffix scan failed'));
          return store.scanSuffixes(query);
        };
  const levelServices = {
    store: recording,
    call: <T>(_operation: string, work: () => Promise<T>) => work(),
  } as unknown as LevelServices;
  return { services: levelServices, scans, suffixScans };
}

/**
 * Checks that `stream` yields batches of at most 100 with every scope of `expected` once, in
 * order, with the ids it holds (the first as `via`), the texts of `wanted` (all: every text) and
 * its marker.
 */
async function expectEveryScope(
  stream: AsyncIterable<FoundScope[]>,
  expected: ReadonlyMap<string, ReadonlyMap<string, string>>,
  wanted?: ReadonlySet<string>,
): Promise<void> {
  const seen: FoundScope[] = [];
  for await (const batch of stream) {
    expect(batch.length).toBeLessThanOrEqual(100);
    seen.push(...batch);
  }
  expect(seen.map((found) => found.scope)).toEqual([...expected.keys()]);
  for (const found of seen) {
    const texts = expected.get(found.scope)!;
    expect(found.present).toEqual(new Set(texts.keys()));
    expect(found.via).toBe([...texts.keys()][0]);
    expect(found.read?.texts).toEqual(
      new Map([...texts].filter(([id]) => wanted === undefined || wanted.has(id))),
    );
    expect(found.read?.marker).toBe(Number(found.scope.slice(4)) % 3 === 0 ? '2' : undefined);
  }
}

describe('streamScopes on an ordered store without scanSuffixes', () => {
  it('yields every scope once, in order, with the ids it holds, their texts and its marker', async () => {
    const { store, expected } = seeded(2_345);
    const { services: levelServices, scans } = services(store);
    await expectEveryScope(streamScopes(levelServices, schema, IDS, 100), expected);
    // Pages of two batches (the first scan of each prefix is the one-item probe of the order).
    expect(Math.max(...scans.slice(1).map((query) => query.count))).toBe(200);
  });

  it('reads the next page of every cursor while the current one is merged', async () => {
    const { store } = seeded(1_000);
    const { services: levelServices, scans } = services(store);
    const stream = streamScopes(levelServices, schema, IDS, 100);
    await stream.next();
    // The probe, then per cursor (three ids and the markers) its first page and, already, its second.
    const afterProbe = scans.slice(1);
    expect(afterProbe).toHaveLength(8);
    for (const prefix of [...IDS.map((id) => `base_${id}@`), 'base:level@']) {
      const pages = afterProbe.filter((query) => query.prefix === prefix);
      expect(pages.map((query) => query.cursor ?? null)).toEqual([null, expect.any(String)]);
    }
    await stream.return(undefined);
  });

  it('a failed read of a next page rejects the stream where it is needed, and is never left unhandled', async () => {
    const { store } = seeded(1_000);
    // The second page of the `mode` cursor fails.
    let modePages = 0;
    const failing = (query: ScanQuery) => query.prefix === 'base_mode@' && ++modePages === 2;
    const consumed = services(store, failing);
    const scopes: string[] = [];
    await expect(
      (async () => {
        for await (const batch of streamScopes(consumed.services, schema, IDS, 100)) {
          scopes.push(...batch.map((found) => found.scope));
        }
      })(),
    ).rejects.toThrow('scan failed');
    // The scopes the first `mode` page reaches came through (it holds every second scope: 200
    // keys, 400 scopes); the batch after them needed the failed page.
    expect(scopes).toHaveLength(400);
    // A stream left after its first batch: its failed read ahead rejects nothing unhandled
    // (vitest fails the run on an unhandled rejection).
    modePages = 0;
    const abandoned = services(store, failing);
    const stream = streamScopes(abandoned.services, schema, IDS, 100);
    await stream.next();
    await stream.return(undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});

describe('streamScopes on a store with scanSuffixes', () => {
  /** Only `title`'s texts, as a migration whose steps touch `title` alone. */
  const wanted = new Set(['title']);
  const never = () => false;

  it('every text wanted (an export): each scope with all its texts', async () => {
    const { store, expected } = seeded(777);
    const { services: levelServices, scans, suffixScans } = services(store, undefined, never);
    await expectEveryScope(streamScopes(levelServices, schema, IDS, 100), expected);
    expect(scans).toEqual([]);
    for (const query of suffixScans) expect(query.values).toEqual([true, true, true]);
  });

  it('yields every scope once, in order, with the ids it holds, the wanted texts and its marker, a page of two batches per read', async () => {
    const { store, expected } = seeded(2_345);
    const { services: levelServices, scans, suffixScans } = services(store, undefined, never);
    await expectEveryScope(streamScopes(levelServices, schema, IDS, 100, wanted), expected, wanted);
    expect(scans, 'no scan of its own').toEqual([]);
    expect(suffixScans).toHaveLength(Math.ceil(2_345 / 200));
    for (const query of suffixScans) {
      expect(query.count).toBe(200);
      expect(query.prefixes).toEqual(IDS.map((id) => `base_${id}@`));
      expect(query.values).toEqual(IDS.map((id) => wanted.has(id)));
      expect(query.joined).toEqual(['base:level@']);
    }
  });

  it('reads the next page while the current one is consumed', async () => {
    const { store } = seeded(1_000);
    const { services: levelServices, suffixScans } = services(store, undefined, never);
    const stream = streamScopes(levelServices, schema, IDS, 100, wanted);
    await stream.next();
    expect(suffixScans.map((query) => query.cursor)).toEqual([null, expect.any(String)]);
    await stream.return(undefined);
  });

  it('a failed read of the next page rejects the stream where it is needed, and is never left unhandled', async () => {
    const { store } = seeded(1_000);
    const consumed = services(store, undefined, (call) => call === 2);
    const scopes: string[] = [];
    await expect(
      (async () => {
        for await (const batch of streamScopes(consumed.services, schema, IDS, 100, wanted)) {
          scopes.push(...batch.map((found) => found.scope));
        }
      })(),
    ).rejects.toThrow('suffix scan failed');
    expect(scopes).toHaveLength(200);
    const abandoned = services(store, undefined, (call) => call === 2);
    const stream = streamScopes(abandoned.services, schema, IDS, 100, wanted);
    await stream.next();
    await stream.return(undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
