import pg from 'pg';
import { withBenchSchema } from '../fixtures/bench-schema';
import { BenchSettings, settingId, storageKey, storedText } from '../fixtures/bench-settings';
import { loadWhenListening } from '../fixtures/feed-ready';
import { ScopeStoreFixture, scopedText, scopePath } from '../fixtures/scope-store';
import { type CountingClient, countingClient } from '../fixtures/tap-queries';
import { formatBytes, formatTime } from '../harness/format';
import { heapUsedAfterGc } from '../harness/heap';
import { compareInterleaved, measureRounds, median } from '../harness/interleaved';
import { distinctSample, seededRandom } from '../harness/random';
import type {
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
  Target,
} from '../harness/scenario';
import { postgresUrl } from '../harness/services';
import { skippedRow } from '../harness/skipped-row';
import { timeRow } from '../harness/time-row';

const SETTINGS = 20;
const WORKING_SET = 1_000;
/** Warm reads per call. */
const OPS = 1_000;
/** Cold reads whose queries are counted before timing. */
const PROBES = 20;
const COLD_TARGET: Target = { kind: 'time', ratio: 1.5, text: 'one round trip; ≤ 1.5× the bare SELECT' };
const WARM_TARGET: Target = { kind: 'time', ratio: 3, text: '≤ 3× async Map.get time' };

/** What one size measured, for the growth table and the target rows. */
interface SizeResult {
  readonly scopes: number;
  readonly cold: ScenarioResult;
  readonly warm: ScenarioResult;
  readonly heldViewNs: number;
  readonly queriesPerColdRead: number;
  readonly bytesPerScope: number;
}

/** The keys a cold read of scope `index` needs: every setting at the scope and at the global level. */
function chainKeys(index: number): string[] {
  const keys: string[] = [];
  for (let setting = 0; setting < SETTINGS; setting++) {
    keys.push(`${storageKey(setting)}@${scopePath(index)}`, storageKey(setting));
  }
  return keys;
}

async function measureSize(
  fixture: ScopeStoreFixture,
  pool: pg.Pool,
  queries: CountingClient,
  scopes: number,
  settings: RunSettings,
  largest: boolean,
): Promise<SizeResult> {
  await fixture.growTo(scopes);
  const random = seededRandom(scopes);
  // The growth sizes take fewer rounds than the size that carries the targets.
  const rounds = largest ? settings.rounds : Math.min(settings.rounds, 3);
  const options = { rounds, timeMs: settings.timeMs, warmupMs: settings.warmupMs };
  const counter = queries;

  // Cold: an instance that caches one scope, reading a different scope every time.
  const coldStore = fixture.openStore();
  const cold = new BenchSettings(SETTINGS, coldStore, { maxCachedScopes: 1 });
  await loadWhenListening(cold, coldStore);
  const coldOrder = distinctSample(random, scopes, Math.min(scopes, 5_000));
  let coldNext = 0;
  const firstId = settingId(0);
  const probeIndex = coldOrder[0]!;
  const probed = await cold.scope(scopePath(probeIndex)).getValue(firstId);
  const expected = scopedText(0, probeIndex, storedText(0));
  if (probed !== expected)
    throw new Error(`scopes: read ${String(probed)} at ${scopePath(probeIndex)}, expected ${expected}`);
  const before = counter.count();
  for (let n = 1; n <= PROBES; n++) await cold.scope(scopePath(coldOrder[n]!)).getValue(firstId);
  const queriesPerColdRead = (counter.count() - before) / PROBES;
  const bareOrder = [...coldOrder].reverse();
  let bareNext = 0;
  let found = 0;
  const coldComparison = await compareInterleaved(
    {
      label: 'settings.scope(path).getValue(id), scope not cached',
      run: async () => {
        const index = coldOrder[coldNext++ % coldOrder.length]!;
        await cold.scope(scopePath(index)).getValue(firstId);
      },
    },
    {
      label: 'one SELECT … = ANY($1) of the same 40 keys',
      run: async () => {
        const index = bareOrder[bareNext++ % bareOrder.length]!;
        const { rows } = await pool.query<{ key: string; value: string }>(fixture.getManySql, [
          chainKeys(index),
        ]);
        const texts = new Map<string, string>();
        for (const row of rows) texts.set(row.key, row.value);
        found += texts.size;
      },
    },
    { opsPerCall: 1, ...options },
  );
  cold.dispose();
  if (found === 0) throw new Error('scopes: the bare SELECT found nothing');

  // Warm: a working set of scopes, all cached; reads in random order over them and the settings.
  const warmStore = fixture.openStore();
  const warm = new BenchSettings(SETTINGS, warmStore, { maxCachedScopes: WORKING_SET });
  await loadWhenListening(warm, warmStore);
  const working = distinctSample(random, scopes, WORKING_SET).map(scopePath);
  const heapBefore = heapUsedAfterGc();
  for (const path of working) await warm.scope(path).getValue(firstId);
  const bytesPerScope = (heapUsedAfterGc() - heapBefore) / WORKING_SET;
  if (warm.getCachedScopeCount() !== WORKING_SET) {
    throw new Error(`scopes: ${warm.getCachedScopeCount()} scopes cached, expected ${WORKING_SET}`);
  }
  const cache = new Map<string, Map<string, unknown>>();
  const views = new Map(working.map((path) => [path, warm.scope(path)]));
  for (const path of working) {
    const values = new Map<string, unknown>();
    for (let setting = 0; setting < SETTINGS; setting++) {
      values.set(settingId(setting), await warm.scope(path).getValue(settingId(setting)));
    }
    cache.set(path, values);
  }
  const reads = Array.from({ length: OPS }, () => ({
    path: working[Math.floor(random() * working.length)]!,
    id: settingId(Math.floor(random() * SETTINGS)),
  }));
  const mapGet = async (path: string, id: string): Promise<unknown> => cache.get(path)?.get(id) ?? null;
  let sink: unknown;
  const warmQueries = counter.count();
  const { roundsNs } = await measureRounds(
    [
      {
        label: 'settings.scope(path).getValue(id)',
        run: async () => {
          for (const read of reads) sink = await warm.scope(read.path).getValue(read.id);
        },
      },
      {
        label: 'async (path, id) => map.get(path)?.get(id), awaited',
        run: async () => {
          for (const read of reads) sink = await mapGet(read.path, read.id);
        },
      },
      {
        label: 'a held scope view: view.getValue(id)',
        run: async () => {
          for (const read of reads) sink = await views.get(read.path)!.getValue(read.id);
        },
      },
    ],
    { opsPerCall: OPS, ...options },
  );
  if (counter.count() !== warmQueries) throw new Error('scopes: a warm read went to the store');
  if (sink === undefined) throw new Error('scopes: nothing read');
  const [oursNs, mapNs, heldNs] = roundsNs as [number[], number[], number[]];
  const ratios = oursNs.map((ns, round) => ns / mapNs[round]!);
  warm.dispose();

  const suffix = largest ? '' : `-${scopes}`;
  const where = `${scopes.toLocaleString('en-US')} scopes × ${SETTINGS} settings, PostgreSQL`;
  const coldRow = timeRow(
    {
      id: `scopes-cold-read${suffix}`,
      table: largest ? 'targets' : 'diagnostics',
      title: `scope read, not cached, ${where}`,
      ...(largest ? { target: COLD_TARGET } : {}),
      checks: { queriesPerColdRead, keysPerRead: SETTINGS * 2 },
    },
    coldComparison,
  );
  const cold1 = largest ? { ...coldRow, met: coldRow.met === true && queriesPerColdRead === 1 } : coldRow;
  const warmRow: ScenarioResult = {
    id: `scopes-warm-read${suffix}`,
    table: largest ? 'targets' : 'diagnostics',
    title: `scope read, cached, random over ${WORKING_SET.toLocaleString('en-US')} scopes, ${where}`,
    metric: 'time',
    subject: { label: 'settings.scope(path).getValue(id)', value: median(oursNs), rounds: oursNs },
    baseline: { label: 'async nested Map.get, awaited', value: median(mapNs), rounds: mapNs },
    ratio: median(ratios),
    roundRatios: ratios,
    ...(largest ? { target: WARM_TARGET, met: median(ratios) <= WARM_TARGET.ratio } : {}),
    checks: {
      cachedScopes: WORKING_SET,
      bytesPerScope: Math.round(bytesPerScope),
      heldViewNs: median(heldNs),
    },
  };
  return {
    scopes,
    cold: cold1,
    warm: warmRow,
    heldViewNs: median(heldNs),
    queriesPerColdRead,
    bytesPerScope,
  };
}

function skipped(reason: string): ScenarioOutput {
  const common = { table: 'targets' as const, metric: 'time' as const };
  return {
    rows: [
      skippedRow(
        {
          ...common,
          id: 'scopes-cold-read',
          title: 'scope read, not cached, 100,000 scopes × 20 settings, PostgreSQL',
          subjectLabel: 'settings.scope(path).getValue(id)',
          baselineLabel: 'one SELECT of the same keys',
          target: COLD_TARGET,
        },
        reason,
      ),
      skippedRow(
        {
          ...common,
          id: 'scopes-warm-read',
          title: 'scope read, cached, 100,000 scopes × 20 settings, PostgreSQL',
          subjectLabel: 'settings.scope(path).getValue(id)',
          baselineLabel: 'async nested Map.get',
          target: WARM_TARGET,
        },
        reason,
      ),
    ],
  };
}

const INTRO: readonly string[] = [
  'A PostgreSQL table of the bench’s own (in a schema it drops afterwards) holds 20 settings at the global level ' +
    'and at every scope (`shop0`, `shop1`, …): 1,000, then 10,000, then 100,000 scopes (2,000,000 rows), made in ' +
    'the server with one `INSERT … SELECT` over `unnest` × `generate_series` (only the 20 texts cross the wire), ' +
    'then `ANALYZE`. Scope and read choices come from a seeded generator, the same in every run.',
  '**Cold read**: an instance with `maxCachedScopes: 1` reads a different scope every time, so every ' +
    '`settings.scope(path).getValue(id)` reads the scope level whole. Round trips are counted at the connections: ' +
    'every query of the pool’s connections and of the LISTEN connection the store opens beside the pool (it reads ' +
    'there when that connection is free): exactly one per cold read is the target. The ' +
    'baseline is the one `SELECT key, value … WHERE key = ANY($1)` of the same 40 keys (20 settings at the ' +
    'scope and at the global level) into a `Map`; the library also decodes and validates the 40 texts.',
  '**Warm read**: an instance with `maxCachedScopes: 1000` has read a working set of 1,000 scopes drawn from the ' +
    'table; 1,000 reads per call over random (scope, setting) pairs of that set. `getValue` returns a Promise, so ' +
    'the baseline is an `async` function doing a nested `Map.get` (scope, then setting) of the already-decoded ' +
    'value, awaited like the library’s: the comparison is between two awaited reads of memory (an awaited plain ' +
    '`Map.get` would mostly measure the cost of `await`), as in the warm `getValue` row. The library’s side ' +
    'includes `settings.scope(path)` — the path check and a new view per call — as an app that reads the scope of ' +
    'each request would; the third column holds the view instead. No warm read may reach the store (checked).',
  '**Heap per cached scope**: the heap after a full GC before and after the working set was read, divided by 1,000: ' +
    'the level, its 20 entries, the stored texts of both levels (as the driver returned them) and the decoded values.',
];

/**
 * Scopes at scale on PostgreSQL: cold scope reads (one round trip), warm reads over a working
 * set of 1,000 cached scopes against an awaited nested `Map.get`, and the heap per cached scope,
 * at 1,000, 10,000 and 100,000 scopes × 20 settings. Skipped without `DATABASE_URL`.
 */
export const scopesScenario: Scenario = {
  id: 'scopes',
  title: 'scopes at scale on PostgreSQL (cold and warm reads, heap)',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const service = postgresUrl();
    if ('skip' in service) return skipped(service.skip);
    const sizes = settings.scopeCounts;
    return withBenchSchema(service.url, async (schema) => {
      const queries = countingClient();
      const pool = new pg.Pool({ connectionString: service.url, max: 4, Client: queries.Client });
      pool.on('error', () => {});
      try {
        const fixture = new ScopeStoreFixture(pool, `${schema}.scope_options`, SETTINGS);
        await fixture.create();
        const results: SizeResult[] = [];
        for (const size of sizes) {
          const started = Date.now();
          results.push(await measureSize(fixture, pool, queries, size, settings, size === sizes.at(-1)));
          console.log(`  ${size} scopes: ${((Date.now() - started) / 1000).toFixed(1)} s`);
        }
        await fixture.close();
        const section: ReportSection = {
          id: 'scopes',
          title: 'Scopes at scale (PostgreSQL)',
          intro: INTRO,
          tables: [
            {
              caption: 'How cost grows with the number of scopes in the store:',
              header: [
                'scopes (rows)',
                'cold read',
                'bare SELECT',
                'ratio',
                'queries per cold read',
                'warm read',
                'async Map.get',
                'ratio',
                'held view',
                'heap per cached scope',
              ],
              rows: results.map((result) => [
                `${result.scopes.toLocaleString('en-US')} (${(result.scopes * SETTINGS + SETTINGS).toLocaleString('en-US')})`,
                formatTime(result.cold.subject.value),
                formatTime(result.cold.baseline.value),
                `${result.cold.ratio.toFixed(2)}×`,
                String(result.queriesPerColdRead),
                formatTime(result.warm.subject.value),
                formatTime(result.warm.baseline.value),
                `${result.warm.ratio.toFixed(2)}×`,
                formatTime(result.heldViewNs),
                formatBytes(result.bytesPerScope),
              ]),
            },
          ],
        };
        return { rows: results.flatMap((result) => [result.cold, result.warm]), sections: [section] };
      } finally {
        await pool.end();
      }
    });
  },
};
