import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { escapeGlob, standaloneLayout } from '../../src/storage/redis/redis-key-layout';
import { withBenchSchema } from '../fixtures/bench-schema';
import type { Backend, Observation, PathSpec, ReaderSetup } from '../fixtures/propagation-protocol';
import { type Readers, startReaders } from '../fixtures/propagation-readers';
import { openPostgresWriters, openRedisWriters, type Writers } from '../fixtures/propagation-writers';
import { formatTime } from '../harness/format';
import { median } from '../harness/interleaved';
import { type Percentiles, percentiles } from '../harness/percentiles';
import type {
  DetailTable,
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
  Target,
} from '../harness/scenario';
import { meets } from '../harness/scenario';
import { postgresUrl, redisUrl, type ServiceUrl } from '../harness/services';
import { clockBase, sharedClock } from '../harness/shared-clock';
import { skippedRow } from '../harness/skipped-row';

const READER_COUNTS = [1, 4] as const;
const TARGET: Target = { kind: 'time', ratio: 1.25, text: 'p90 ≤ 1.25× floor p90' };
const SAMPLE_TIMEOUT_MS = 10_000;
const GAP_MS = 1;
/** Writes per side in one block: the per-round ratios are the p90 ratios of blocks. */
const BLOCK = 100;
/** The idle timeout of the reader pools in the idle-pool measurement (pg's default is 10 s). */
const IDLE_TIMEOUT_MS = 100;
/** Between two writes of the idle-pool measurement; five paths take turns, so a pool idles 5× as long. */
const IDLE_GAP_MS = 40;

/** What one sample measured: the write's start and request times in A, and what each reader saw. */
interface Sample {
  readonly startedAt: number;
  readonly wireAt: number;
  readonly observations: readonly Observation[];
}

/** The measured samples of one path. */
interface PathResult {
  readonly name: string;
  readonly samples: readonly Sample[];
}

interface BackendCase {
  readonly backend: Backend;
  readonly label: string;
  readonly url: () => ServiceUrl;
  readonly floorLabel: string;
  readonly libraryLabel: string;
}

const CASES: readonly BackendCase[] = [
  {
    backend: 'postgres',
    label: 'PostgreSQL LISTEN/NOTIFY',
    url: postgresUrl,
    libraryLabel: 'updateValue → getValue in B',
    floorLabel: 'bare upsert + history INSERT + NOTIFY → LISTEN → SELECT',
  },
  {
    backend: 'redis',
    label: 'Redis pub/sub',
    url: redisUrl,
    libraryLabel: 'updateValue → getValue in B',
    floorLabel: 'bare MULTI SET RPUSH LTRIM PUBLISH → SUBSCRIBE → GET',
  },
];

/** The paths of the main measurement: the library's and the floor's, on the same table or prefix. */
function mainPaths(backend: Backend, target: string): PathSpec[] {
  const floorKey = backend === 'postgres' ? 'bench_floor_main' : `${target}bench_floor_main`;
  return [
    { kind: 'library', name: 'library', target },
    {
      kind: 'floor',
      name: 'floor',
      target,
      channel: backend === 'postgres' ? 'bench_floor_main' : `${target}floor`,
      key: floorKey,
      readOn: 'pool',
    },
  ];
}

/** The paths of the idle-pool measurement (PostgreSQL only): each with a pool of its own. */
function idlePaths(schema: string): PathSpec[] {
  const idle = { idleTimeoutMillis: IDLE_TIMEOUT_MS };
  const main = `${schema}.prop_main`;
  return [
    { kind: 'library', name: 'library, warm pool', target: main },
    {
      kind: 'library',
      name: 'library, idle pool',
      target: `${schema}.prop_idle`,
      pool: { name: 'idle', ...idle },
    },
    {
      kind: 'library',
      name: 'library, idle pool with min: 1',
      target: `${schema}.prop_min1`,
      pool: { name: 'min1', ...idle, min: 1 },
    },
    {
      kind: 'floor',
      name: 'bare listener, read through an idle pool',
      target: main,
      channel: 'bench_floor_idle',
      key: 'bench_floor_idle',
      readOn: 'pool',
      pool: { name: 'floor-idle', ...idle },
    },
    {
      kind: 'floor',
      name: 'bare listener, read on its LISTEN connection',
      target: main,
      channel: 'bench_floor_listener',
      key: 'bench_floor_listener',
      readOn: 'listener',
    },
  ];
}

/**
 * Writes `perPath` values on each path, one write at a time, the paths taking turns in a
 * rotating order, and waits after each until every reader has read it back.
 */
async function collect(
  writers: Writers,
  readers: Readers,
  paths: readonly string[],
  perPath: number,
  gapMs: number,
  now: () => number,
): Promise<PathResult[]> {
  const samples = new Map(paths.map((path) => [path, [] as Sample[]]));
  for (let index = 0; index < perPath; index++) {
    for (let step = 0; step < paths.length; step++) {
      const path = paths[(index + step) % paths.length]!;
      const writer = writers.byPath.get(path)!;
      const value = `${path}#${index}`;
      const seen = readers.expect(path, value, SAMPLE_TIMEOUT_MS);
      const startedAt = now();
      await writer.write(value);
      const wireAt = writers.lastWireAt();
      samples.get(path)!.push({ startedAt, wireAt, observations: await seen });
      await sleep(gapMs);
    }
  }
  return paths.map((name) => ({ name, samples: samples.get(name)! }));
}

const latencies = (samples: readonly Sample[]) =>
  samples.flatMap((sample) => sample.observations.map((seen) => seen.doneAt - sample.startedAt));

/** Per block of {@link BLOCK} writes: the p90 of each side and their ratio. */
function blockRatios(library: readonly Sample[], floor: readonly Sample[]) {
  const blocks = Math.max(1, Math.floor(library.length / BLOCK));
  const size = Math.floor(library.length / blocks);
  const libraryP90: number[] = [];
  const floorP90: number[] = [];
  for (let block = 0; block < blocks; block++) {
    libraryP90.push(percentiles(latencies(library.slice(block * size, (block + 1) * size))).p90);
    floorP90.push(percentiles(latencies(floor.slice(block * size, (block + 1) * size))).p90);
  }
  return { libraryP90, floorP90, ratios: libraryP90.map((value, index) => value / floorP90[index]!) };
}

/** The medians of each phase of a path's samples. */
function phases(samples: readonly Sample[]) {
  const observations = samples.flatMap((sample) => sample.observations.map((seen) => ({ sample, seen })));
  const withRead = observations.flatMap(({ seen }) =>
    seen.queriedAt === null
      ? []
      : [{ notifiedAt: seen.notifiedAt, queriedAt: seen.queriedAt, doneAt: seen.doneAt }],
  );
  return {
    toWire: median(samples.map((sample) => sample.wireAt - sample.startedAt)),
    toNotification: median(observations.map(({ sample, seen }) => seen.notifiedAt - sample.startedAt)),
    toValue: median(observations.map(({ seen }) => seen.doneAt - seen.notifiedAt)),
    readShare: observations.length === 0 ? 0 : withRead.length / observations.length,
    reaction: withRead.length === 0 ? null : median(withRead.map((seen) => seen.queriedAt - seen.notifiedAt)),
    read: withRead.length === 0 ? null : median(withRead.map((seen) => seen.doneAt - seen.queriedAt)),
  };
}

const ms = (ns: number) => formatTime(ns);
const percentileCells = (p: Percentiles) => [String(p.count), ms(p.p50), ms(p.p90), ms(p.p99)];

/** The rows and detail lines of one backend at one reader count. */
interface Measured {
  readonly row: ScenarioResult;
  readonly percentileRows: string[][];
  readonly phaseRows: string[][];
}

function rowOf(
  backendCase: BackendCase,
  readerCount: number,
  library: PathResult,
  floor: PathResult,
): Measured {
  const ours = percentiles(latencies(library.samples));
  const theirs = percentiles(latencies(floor.samples));
  const blocks = blockRatios(library.samples, floor.samples);
  const ratio = ours.p90 / theirs.p90;
  const who = `${backendCase.label}, ${readerCount} reader${readerCount === 1 ? '' : 's'}`;
  const row: ScenarioResult = {
    id: `propagation-${backendCase.backend}-${readerCount}`,
    table: 'targets',
    title: `propagation, ${who}: write in A → value read in B (p90)`,
    metric: 'time',
    subject: { label: `${backendCase.libraryLabel}, p90`, value: ours.p90, rounds: blocks.libraryP90 },
    baseline: { label: `${backendCase.floorLabel}, p90`, value: theirs.p90, rounds: blocks.floorP90 },
    ratio,
    roundRatios: blocks.ratios,
    target: TARGET,
    met: meets(TARGET, ratio),
    checks: {
      samplesPerSide: library.samples.length,
      readers: readerCount,
      libraryP50Ns: Math.round(ours.p50),
      libraryP99Ns: Math.round(ours.p99),
      floorP50Ns: Math.round(theirs.p50),
      floorP99Ns: Math.round(theirs.p99),
    },
  };
  const phaseCells = (result: PathResult) => {
    const phase = phases(result.samples);
    const orNone = (ns: number | null) => (ns === null ? '—' : ms(ns));
    return [
      ms(phase.toWire),
      ms(phase.toNotification),
      ms(phase.toValue),
      `${Math.round(phase.readShare * 100)}%`,
      orNone(phase.reaction),
      orNone(phase.read),
    ];
  };
  return {
    row,
    percentileRows: [
      [who, 'library', ...percentileCells(ours), `${ratio.toFixed(2)}×`],
      [who, 'floor', ...percentileCells(theirs), ''],
    ],
    phaseRows: [
      [who, 'library', ...phaseCells(library)],
      [who, 'floor', ...phaseCells(floor)],
    ],
  };
}

/** Runs one backend: the main measurement at each reader count, then (PostgreSQL) the idle pool. */
async function measureBackend(
  backendCase: BackendCase,
  url: string,
  target: string,
  settings: RunSettings,
  schema: string | null,
): Promise<{ measured: Measured[]; idle: { row: ScenarioResult; lines: string[][] } | null }> {
  const base = clockBase();
  const now = sharedClock(base);
  const open = backendCase.backend === 'postgres' ? openPostgresWriters : openRedisWriters;
  const measured: Measured[] = [];
  const paths = mainPaths(backendCase.backend, target);
  const writers = await open(url, paths, now);
  try {
    for (const count of READER_COUNTS) {
      const setup: ReaderSetup = { backend: backendCase.backend, url, clockBase: base, paths };
      const readers = await startReaders(count, setup, `propagation-${backendCase.backend}-${count}`);
      try {
        // A few unmeasured writes first: connections opened, code paths compiled.
        await collect(writers, readers, ['library', 'floor'], 20, GAP_MS, now);
        // Every write gives one sample per reader.
        const writes = Math.ceil(settings.propagationSamples / count);
        const [library, floor] = await collect(writers, readers, ['library', 'floor'], writes, GAP_MS, now);
        measured.push(rowOf(backendCase, count, library!, floor!));
      } finally {
        await readers.stop();
      }
    }
  } finally {
    await writers.close();
  }
  if (schema === null) return { measured, idle: null };
  return { measured, idle: await measureIdlePool(url, schema, settings, base) };
}

/**
 * The idle-pool trap: a reader whose pool closed its idle connections (the idle timeout, made
 * short here) opens a new connection for the first re-read after a quiet spell.
 */
async function measureIdlePool(
  url: string,
  schema: string,
  settings: RunSettings,
  base: string,
): Promise<{ row: ScenarioResult; lines: string[][] }> {
  const now = sharedClock(base);
  const paths = idlePaths(schema);
  const writers = await openPostgresWriters(url, paths, now);
  const readers = await startReaders(
    1,
    { backend: 'postgres', url, clockBase: base, paths },
    'propagation-idle',
  );
  try {
    const names = paths.map((path) => path.name);
    await collect(writers, readers, names, 3, IDLE_GAP_MS, now);
    const perPath = Math.max(5, Math.round(settings.propagationSamples / 25));
    const results = await collect(writers, readers, names, perPath, IDLE_GAP_MS, now);
    const byName = new Map(results.map((result) => [result.name, percentiles(latencies(result.samples))]));
    const warm = byName.get('library, warm pool')!;
    const idle = byName.get('library, idle pool')!;
    const lines = results.map((result) => {
      const p = byName.get(result.name)!;
      return [result.name, ...percentileCells(p), `${(p.p50 / warm.p50).toFixed(2)}×`];
    });
    const ratio = idle.p50 / warm.p50;
    return {
      row: {
        id: 'propagation-postgres-idle-pool',
        table: 'diagnostics',
        title: `propagation, PostgreSQL, first change after the reader pool's idle timeout (${IDLE_TIMEOUT_MS} ms here), p50`,
        metric: 'time',
        subject: { label: 'library, idle pool', value: idle.p50, rounds: [idle.p50] },
        baseline: { label: 'library, warm pool', value: warm.p50, rounds: [warm.p50] },
        ratio,
        roundRatios: [ratio],
        checks: { samplesPerPath: perPath, idleTimeoutMillis: IDLE_TIMEOUT_MS },
      },
      lines,
    };
  } finally {
    await readers.stop();
    await writers.close();
  }
}

/** Deletes the keys a Redis run wrote: its options, change logs, their meta keys and its version counter, all under its own prefix. */
async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url);
  const layout = standaloneLayout(prefix);
  try {
    for (const root of [
      layout.optionKey(''),
      layout.logKey(''),
      layout.logMetaKey(''),
      layout.versionKey(''),
    ]) {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${escapeGlob(root)}*`, 'COUNT', 1000);
        if (keys.length > 0) await client.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    client.disconnect();
  }
}

function skippedRows(backendCase: BackendCase, reason: string): ScenarioResult[] {
  return READER_COUNTS.map((count) =>
    skippedRow(
      {
        id: `propagation-${backendCase.backend}-${count}`,
        table: 'targets',
        title: `propagation, ${backendCase.label}, ${count} reader${count === 1 ? '' : 's'}: write in A → value read in B (p90)`,
        metric: 'time',
        subjectLabel: backendCase.libraryLabel,
        baselineLabel: backendCase.floorLabel,
        target: TARGET,
      },
      reason,
    ),
  );
}

const ANCHORS: DetailTable = {
  caption:
    'For scale, what the feature-flag services publish about how soon a change reaches a running instance (their figures, not measured here):',
  header: ['system', 'how a change reaches an instance', 'published figure'],
  rows: [
    ['LaunchDarkly', 'streaming (server-sent events) to the SDK', '“typically within 200 ms”'],
    ['Unleash', 'the SDK polls the API', 'every 15 s by default'],
    ['Flipt', 'client-side SDKs poll for a snapshot', 'every 120 s by default'],
  ],
};

const INTRO: readonly string[] = [
  'Process A (the scenario process) writes a new value of one string setting with `settings.updateValue`; ' +
    'each reader process B holds a loaded settings instance on the same store and reads the value back with ' +
    '`getValue`. The time is from the moment A starts the write to the moment `getValue` in B resolves with the ' +
    'new value, on one monotonic clock shared by the processes (`process.hrtime`, `CLOCK_MONOTONIC`). Writes go ' +
    'one at a time; the next starts when every reader has read the previous one back.',
  '**How B learns of the change without distorting it.** B does not poll: a `setImmediate` loop polling ' +
    '`getValue` would keep a core busy per reader on a 2-core machine that also runs A, the database and the ' +
    'other readers, and would measure the scheduler. B subscribes to the store’s `watch` after the settings ' +
    'instance did (a store calls its subscribers in the order they came, so the settings have handled the ' +
    'message when B’s callback runs) and calls `getValue` there. With versioned change messages (0.3) the settings ' +
    'have taken the new text from the message, and `getValue` answers from memory; where they could not (a read or ' +
    'write of B holding the key, a text of unknown version), they marked the value stale and that call starts the ' +
    'one re-read, which their own scheduled refresh shares. This is the path every `getValue` after a change takes.',
  '**Floor, in the same processes and the same run.** A writes a key of the same table (the same Redis server) ' +
    'with one bare statement doing the I/O the library’s write does — the upsert, one history row of the same ' +
    'form in the log table, the NOTIFY (Redis: `MULTI SET RPUSH LTRIM PUBLISH EXEC`, one round trip) — without ' +
    'the commit’s conditions, log head and trim, and a change message of the same form, on a channel of its own (A’s PostgreSQL sessions commit with ' +
    '`synchronous_commit = off` on both sides: the WAL flush on this VM’s shared disk takes 1–5 ms and is the ' +
    'database’s, not the library’s); B listens with a bare pg `Client` (an ioredis ' +
    'subscriber) and reads the key once through the same pool (client) the library reads through. Library and ' +
    'floor writes alternate, in alternating order, so both see the same moments of the machine. The per-round ' +
    `ratios are the p90 ratios of blocks of ${BLOCK} writes. p99 is reported, not judged: on 2 shared cores it ` +
    'is scheduler noise.',
  '**Phases** (medians): A’s time from `updateValue` to its request leaving (the pool’s `query` called), the time ' +
    'until the notification reaches B (before any handler: B’s connections are a pg `Client` subclass that notes ' +
    'the time first; the Redis subscriber gets a first listener), B’s time from there to the value in hand, the ' +
    'share of changes B read from the store (the floor reads every one), and, over those, B’s time to its read ' +
    'leaving and the read until the value is in hand.',
];

/**
 * Propagation of a change from one app instance to the others, on PostgreSQL (LISTEN/NOTIFY)
 * and Redis (pub/sub): write in process A → value read back in reader processes B, 1 and 4
 * readers, against the bare driver doing the same in the same processes. PostgreSQL also
 * measures the idle-pool trap. Skipped (with the reason) without `DATABASE_URL` / `REDIS_URL`.
 */
export const propagationScenario: Scenario = {
  id: 'propagation',
  title: 'propagation of a change between processes (PostgreSQL, Redis)',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const rows: ScenarioResult[] = [];
    const percentileRows: string[][] = [];
    const phaseRows: string[][] = [];
    let idleLines: string[][] | null = null;
    for (const backendCase of CASES) {
      const service = backendCase.url();
      if ('skip' in service) {
        rows.push(...skippedRows(backendCase, service.skip));
        continue;
      }
      const result =
        backendCase.backend === 'postgres'
          ? await withBenchSchema(service.url, (schema) =>
              measureBackend(backendCase, service.url, `${schema}.prop_main`, settings, schema),
            )
          : await (async () => {
              const prefix = `cpf-bench:${process.pid}:${Math.random().toString(36).slice(2, 8)}:`;
              try {
                return await measureBackend(backendCase, service.url, prefix, settings, null);
              } finally {
                await deleteRedisKeys(service.url, prefix);
              }
            })();
      for (const item of result.measured) {
        rows.push(item.row);
        percentileRows.push(...item.percentileRows);
        phaseRows.push(...item.phaseRows);
      }
      if (result.idle !== null) {
        rows.push(result.idle.row);
        idleLines = result.idle.lines;
      }
    }
    const tables: DetailTable[] = [];
    if (percentileRows.length > 0) {
      tables.push(
        {
          caption: 'Write in A → value in hand in B, over every reader’s samples:',
          header: ['store, readers', 'path', 'samples', 'p50', 'p90', 'p99', 'p90 ratio'],
          rows: percentileRows,
        },
        {
          caption: 'Where the time goes (medians):',
          header: [
            'store, readers',
            'path',
            'A: start → request sent',
            'A start → notification in B',
            'B: notification → value',
            'B: changes read',
            'B: notification → read sent (read)',
            'B: read sent → value (read)',
          ],
          rows: phaseRows,
        },
      );
    }
    if (idleLines !== null) {
      tables.push({
        caption:
          `The idle-pool trap (PostgreSQL, 1 reader). The reader pools close idle connections after ${IDLE_TIMEOUT_MS} ms ` +
          '(pg’s default is 10 s); five paths take turns, so each pool has been idle for longer than that when its ' +
          'change arrives. The library re-reads through the caller’s pool, so the first change after a quiet spell ' +
          'opens a new connection. Warm pool: the same, with the default idle timeout. `min: 1` (pg-pool ≥ 3.7) keeps ' +
          'one connection past the timeout. The bare listener reading on its own LISTEN connection is the proposed fix.',
        header: ['path', 'samples', 'p50', 'p90', 'p99', 'p50 vs warm'],
        rows: idleLines,
      });
    }
    tables.push(ANCHORS);
    const section: ReportSection = {
      id: 'propagation',
      title: 'Propagation between processes',
      intro: INTRO,
      tables,
    };
    return { rows, sections: [section] };
  },
};
