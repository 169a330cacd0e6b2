import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { optionTableSql } from '../../src/storage/postgres/option-table-sql';
import { optionTableName } from '../../src/storage/postgres/table-name';
import { SET_AND_PUBLISH } from '../../src/storage/redis/redis-scripts';
import { encodeChangeMessage, newInstanceId } from '../../src/storage/remote/change-message';
import { BenchSettings, settingId } from '../fixtures/bench-settings';
import { FakePgConnection, FakePgPool, FakeRedisClient, FakeRedisSubscriber } from '../fixtures/fake-drivers';
import { PROPAGATION_SETTINGS } from '../fixtures/propagation-postgres';
import { PROPAGATED_SETTING } from '../fixtures/propagation-protocol';
import { watchAfterSettings } from '../fixtures/propagation-watch';
import { formatTime } from '../harness/format';
import { compareInterleaved, type Side } from '../harness/interleaved';
import { percentiles } from '../harness/percentiles';
import type {
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
} from '../harness/scenario';

const OPS = 100;
/** The pause after each change of the paced measurement. */
const PACE_MS = 2;
const ID = settingId(PROPAGATED_SETTING);
const FLOOR_KEY = 'bench_floor';
const FLOOR_CHANNEL = 'bench_floor';

/** One path a change takes: `once(n)` makes the `n`-th change and resolves when it is through. */
interface ChangePath {
  readonly label: string;
  readonly once: (n: number) => Promise<void>;
}

/** The four paths of one store: the reader's and the writer's, library and floor. */
interface StorePaths {
  readonly name: string;
  readonly readLibrary: ChangePath;
  readonly readFloor: ChangePath;
  readonly writeLibrary: ChangePath;
  readonly writeFloor: ChangePath;
}

/** A path as a benchmark side: `OPS` changes per call, back to back. */
function hot(path: ChangePath, counter: { n: number }): Side {
  return {
    label: path.label,
    run: async () => {
      for (let n = 0; n < OPS; n++) await path.once(counter.n++);
    },
  };
}

/**
 * Both paths one change at a time with a pause of {@link PACE_MS} after each, taking turns, as
 * changes come in a running app: the time of each change (ns).
 */
async function paced(
  library: ChangePath,
  floor: ChangePath,
  samples: number,
  counter: { n: number },
): Promise<{ library: number[]; floor: number[] }> {
  const times = { library: [] as number[], floor: [] as number[] };
  for (let index = 0; index < samples; index++) {
    const order = index % 2 === 0 ? (['library', 'floor'] as const) : (['floor', 'library'] as const);
    for (const which of order) {
      const path = which === 'library' ? library : floor;
      const started = process.hrtime.bigint();
      await path.once(counter.n++);
      times[which].push(Number(process.hrtime.bigint() - started));
      await sleep(PACE_MS);
    }
  }
  return times;
}

/**
 * The reader's library path on a loaded settings instance: after a notification, the value the
 * `getValue` made in a watch subscriber (as in the propagation scenario) resolves with.
 */
async function libraryReader(
  settings: BenchSettings,
  store: PostgresOptionStore | RedisOptionStore,
): Promise<{ next: () => Promise<unknown> }> {
  let resolve: (value: unknown) => void = () => {};
  await watchAfterSettings(settings, store, () => {
    void settings.getValue(ID).then((value) => resolve(value));
  });
  return {
    next: () =>
      new Promise((done) => {
        resolve = done;
      }),
  };
}

const path = (label: string, once: (n: number) => Promise<void>): ChangePath => ({ label, once });

function expectValue(seen: unknown, value: string): void {
  if (seen !== value) throw new Error(`change-path: read ${String(seen)}, expected ${value}`);
}

async function postgresPaths(): Promise<StorePaths> {
  const pool = new FakePgPool();
  const store = new PostgresOptionStore({ client: pool, table: 'options' });
  const reader = new BenchSettings(PROPAGATION_SETTINGS, store);
  const seen = await libraryReader(reader, store);
  const listening = pool.connections.at(-1)!;
  const key = reader.getOptionName(ID);
  const payload = encodeChangeMessage(newInstanceId(), [key]);
  const sql = optionTableSql(optionTableName('options'));

  const floorListener = new FakePgConnection(pool.table);
  let floorSeen: (value: unknown) => void = () => {};
  floorListener.on('notification', () => {
    void pool
      .query(sql.getMany, [[FLOOR_KEY]])
      .then(({ rows }) => floorSeen((rows[0] as { value: string }).value));
  });

  const writerStore = new PostgresOptionStore({ client: pool, table: 'options' });
  const writer = new BenchSettings(PROPAGATION_SETTINGS, writerStore);
  await writer.load();
  const floorMessage = encodeChangeMessage(newInstanceId(), [FLOOR_KEY]);
  return {
    name: 'PostgreSQL store',
    readLibrary: path('notification → getValue resolves (watch subscriber)', async (n) => {
      const value = `v${n}`;
      pool.table.set(key, value);
      const next = seen.next();
      listening.notify({ channel: store.channel, payload });
      expectValue(await next, value);
    }),
    readFloor: path('notification → pool.query(getMany) → value', async (n) => {
      const value = `f${n}`;
      pool.table.set(FLOOR_KEY, value);
      const next = new Promise((done) => {
        floorSeen = done;
      });
      floorListener.notify({ channel: FLOOR_CHANNEL, payload: floorMessage });
      expectValue(await next, value);
    }),
    writeLibrary: path('settings.updateValue resolves', (n) => writer.updateValue(ID, `w${n}`)),
    writeFloor: path('pool.query(upsert + NOTIFY) resolves', async (n) => {
      await pool.query(sql.set, [FLOOR_KEY, `w${n}`, FLOOR_CHANNEL, floorMessage]);
    }),
  };
}

async function redisPaths(): Promise<StorePaths> {
  const client = new FakeRedisClient();
  const store = new RedisOptionStore({ client, keyPrefix: '' });
  const reader = new BenchSettings(PROPAGATION_SETTINGS, store);
  const seen = await libraryReader(reader, store);
  const subscriber = client.subscribers.at(-1)!;
  const key = reader.getOptionName(ID);
  const payload = encodeChangeMessage(newInstanceId(), [key]);

  const floorSubscriber = new FakeRedisSubscriber();
  let floorSeen: (value: unknown) => void = () => {};
  floorSubscriber.on('message', () => {
    void client.get(FLOOR_KEY).then((value) => floorSeen(value));
  });

  const writer = new BenchSettings(PROPAGATION_SETTINGS, new RedisOptionStore({ client, keyPrefix: '' }));
  await writer.load();
  const floorMessage = encodeChangeMessage(newInstanceId(), [FLOOR_KEY]);
  return {
    name: 'Redis store',
    readLibrary: path('message → getValue resolves (watch subscriber)', async (n) => {
      const value = `v${n}`;
      client.table.set(key, value);
      const next = seen.next();
      subscriber.publish(store.channel, payload);
      expectValue(await next, value);
    }),
    readFloor: path('message → client.get → value', async (n) => {
      const value = `f${n}`;
      client.table.set(FLOOR_KEY, value);
      const next = new Promise((done) => {
        floorSeen = done;
      });
      floorSubscriber.publish(FLOOR_CHANNEL, floorMessage);
      expectValue(await next, value);
    }),
    writeLibrary: path('settings.updateValue resolves', (n) => writer.updateValue(ID, `w${n}`)),
    writeFloor: path('client.eval(SET + PUBLISH script) resolves', async (n) => {
      await client.eval(SET_AND_PUBLISH.text, 1, FLOOR_KEY, `w${n}`, FLOOR_CHANNEL, floorMessage);
    }),
  };
}

const INTRO: readonly string[] = [
  'The propagation rows are dominated by the network, the database and the scheduler of a shared machine; this ' +
    'diagnostic isolates the library’s own CPU on the same two paths, in one process, with drivers that answer at ' +
    'once from a `Map` (`bench/fixtures/fake-drivers.ts`): the reader’s path from a notification (a pg ' +
    '`notification` event on the store’s LISTEN connection, an ioredis `message` on its subscriber) to the value ' +
    'in hand from a `getValue` made in a `watch` subscriber, exactly as in the propagation scenario; and the ' +
    'writer’s path from `settings.updateValue` (a loaded instance with the default history: the one conditional ' +
    '`commit` with its log entry, which the fake drivers answer as applied) to its resolution. The floors do the same with the bare driver calls: one `getMany` statement (one `GET`) after ' +
    'the event, one upsert + NOTIFY statement (the store’s own `EVAL` script); both sides await the same ' +
    'already-resolved driver promises.',
  '**Back to back** (100 changes per call, rounds alternating) is the CPU of a hot loop: everything in cache, ' +
    'compiled and warm. **Paced** makes one change, then pauses 2 ms, library and floor taking turns, as changes ' +
    'come in a running app (and in the propagation scenario): between two changes the code goes cold, and a path ' +
    'of many small steps (promises, closures, timers) pays for each again. The rows report the paced p50.',
];

/** The library's CPU per change on the reader's and the writer's path, in process, against the bare driver calls. */
export const changePathScenario: Scenario = {
  id: 'change-path',
  title: 'CPU of the change paths in process (drivers answering at once)',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    // Fewer rounds than the other in-process rows: the paced measurement below is the one the rows report.
    const options = {
      opsPerCall: OPS,
      rounds: Math.min(settings.rounds, 5),
      timeMs: settings.timeMs,
      warmupMs: settings.warmupMs,
    };
    const samples = Math.max(50, Math.round(settings.propagationSamples * 0.3));
    const rows: ScenarioResult[] = [];
    const lines: string[][] = [];
    for (const paths of [await postgresPaths(), await redisPaths()]) {
      const store = paths.name.startsWith('Postgre') ? 'postgres' : 'redis';
      const cases = [
        {
          side: 'read',
          library: paths.readLibrary,
          floor: paths.readFloor,
          what: 'notification → value in hand',
        },
        {
          side: 'write',
          library: paths.writeLibrary,
          floor: paths.writeFloor,
          what: 'updateValue → acknowledged',
        },
      ];
      for (const item of cases) {
        const counter = { n: 0 };
        const loop = await compareInterleaved(hot(item.library, counter), hot(item.floor, counter), options);
        const times = await paced(item.library, item.floor, samples, counter);
        const ours = percentiles(times.library);
        const theirs = percentiles(times.floor);
        const title = `${item.side === 'read' ? 'reader' : 'writer'}, ${paths.name}, in process: ${item.what}`;
        rows.push({
          id: `change-path-${store}-${item.side}`,
          table: 'diagnostics',
          title: `${title}, one change every ${PACE_MS} ms (p50)`,
          metric: 'time',
          subject: { label: item.library.label, value: ours.p50, rounds: [ours.p50] },
          baseline: { label: item.floor.label, value: theirs.p50, rounds: [theirs.p50] },
          ratio: ours.p50 / theirs.p50,
          roundRatios: [ours.p50 / theirs.p50],
          checks: {
            pacedSamples: samples,
            hotLibraryNs: Math.round(loop.subject.medianNs),
            hotFloorNs: Math.round(loop.baseline.medianNs),
          },
        });
        lines.push([
          title,
          formatTime(loop.subject.medianNs),
          formatTime(loop.baseline.medianNs),
          formatTime(ours.p50),
          formatTime(ours.p90),
          formatTime(theirs.p50),
          formatTime(theirs.p90),
        ]);
      }
    }
    const section: ReportSection = {
      id: 'change-path',
      title: 'CPU of the change paths (in process)',
      intro: INTRO,
      tables: [
        {
          caption: 'Per change: back to back (median of rounds), and one change every 2 ms (p50, p90):',
          header: [
            'path',
            'library, back to back',
            'floor, back to back',
            'library, paced p50',
            'library, paced p90',
            'floor, paced p50',
            'floor, paced p90',
          ],
          rows: lines,
        },
      ],
    };
    return { rows, sections: [section] };
  },
};
