import type { OptionStore } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { optionTableName } from '../../src/storage/postgres/table-name';
import { AUTHORIZATION } from '../fixtures/bench-auth';
import { withBenchSchema } from '../fixtures/bench-schema';
import { BenchSettings, settingId, storageKey } from '../fixtures/bench-settings';
import { changingValue } from '../fixtures/changing-value';
import { loadWhenListening } from '../fixtures/feed-ready';
import { createBenchServer, SETTINGS_PATH } from '../fixtures/settings-routes';
import { compareClosedLoop, type LoopComparison } from '../harness/closed-loop';
import { formatRate, formatTime } from '../harness/format';
import { compareInterleaved } from '../harness/interleaved';
import type {
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
  Target,
} from '../harness/scenario';
import { meets } from '../harness/scenario';
import { postgresUrl } from '../harness/services';
import { skippedRow } from '../harness/skipped-row';
import { timeRow } from '../harness/time-row';

/**
 * Warm-up per side of the closed loops, in multiples of the run's warm-up (4 s in a full run):
 * the library's PUT path runs about three times slower for its first 5,000–6,000 writes while V8
 * optimises it (CPU per PUT 875 → 250 µs over the first 3 s on PostgreSQL, 390 → 75 µs on a
 * memory store), and with 200 ms of warm-up every recorded run's rounds rose from about 0.4× to
 * 0.7×. The rows compare steady states; the cold start has a row of its own.
 */
const WARM_UP_FACTOR = 40;
/** Concurrent writers of the PUT throughput rows, each on a setting of its own. */
const CONCURRENCY = 8;
const BATCH = 50;
const PUT_TARGET: Target = {
  kind: 'throughput',
  ratio: 0.6,
  text: '≥ 0.6× the bare upsert + history insert + NOTIFY',
};
const BATCH_TARGET: Target = {
  kind: 'time',
  ratio: 0.2,
  text: '≤ 0.2× the time of 50 PUTs (proposed; the issue sets none)',
};

const ROWS = {
  put: {
    id: 'writes-put',
    table: 'targets' as const,
    title: `PUT one setting with If-Match, history on, PostgreSQL, ${CONCURRENCY} concurrent writers`,
    metric: 'throughput' as const,
    subjectLabel: 'server.fetch PUT …/settings/{id} + If-Match',
    baselineLabel: 'bare INSERT … ON CONFLICT of the same text + history INSERT + NOTIFY',
    target: PUT_TARGET,
  },
  updateValue: {
    id: 'writes-update-value',
    table: 'diagnostics' as const,
    title: 'settings.updateValue(id, value, { ifMatch }), PostgreSQL, one writer',
    metric: 'throughput' as const,
    subjectLabel: 'getETag + updateValue with ifMatch',
    baselineLabel: 'bare INSERT … ON CONFLICT + history INSERT + NOTIFY',
  },
  batch: {
    id: 'writes-batch',
    table: 'targets' as const,
    title: `batch of ${BATCH} changes, PostgreSQL: POST …/settings/batch vs ${BATCH} single PUTs`,
    metric: 'time' as const,
    subjectLabel: `POST …/settings/batch, ${BATCH} updates`,
    baselineLabel: `${BATCH} single PUTs, one after the other`,
    target: BATCH_TARGET,
  },
  updateValues: {
    id: 'writes-update-values',
    table: 'diagnostics' as const,
    title: `settings.updateValues of ${BATCH} changes vs ${BATCH} updateValue calls, PostgreSQL`,
    metric: 'time' as const,
    subjectLabel: `updateValues([${BATCH} changes])`,
    baselineLabel: `${BATCH} × updateValue`,
  },
};

/** The writes under test, over one settings instance and its server. */
class WriteFixture {
  readonly settings: BenchSettings;
  readonly fetch: (request: Request) => Promise<Response>;
  readonly #pool: pg.Pool;
  readonly #upsert: string;
  readonly #channel: string;
  readonly #etags = new Map<string, string>();
  /** The floor's log entries so far: it numbers its entries itself (the library's commit numbers them in SQL). */
  #floorEntries = 0;
  /** PUTs answered 412 (the ETag sent was no longer current) and sent again with the current one. */
  preconditionRetries = 0;

  constructor(settings: BenchSettings, pool: pg.Pool, table: string, channel: string) {
    this.settings = settings;
    this.fetch = createBenchServer(settings).fetch;
    this.#pool = pool;
    this.#channel = channel;
    const name = optionTableName(table);
    // The same work as a commit with history, bare: the upsert, one log row, one NOTIFY on the
    // store's channel, in one statement (one round trip, one transaction).
    this.#upsert =
      `WITH written AS (INSERT INTO ${name.sql} (key, value, updated_at) VALUES ($1, $2, now()) ` +
      'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at RETURNING 1), ' +
      `logged AS (INSERT INTO ${name.logSql} (log, seq, entry) VALUES ($3, $7, $4) RETURNING 1) ` +
      'SELECT pg_notify($5, $6) FROM written, logged';
  }

  /** A PUT of `value` to setting `index`, with `If-Match` when given. */
  putRequest(index: number, value: unknown, ifMatch?: string): Request {
    return new Request(`http://localhost${SETTINGS_PATH}/${settingId(index)}`, {
      method: 'PUT',
      headers: {
        authorization: AUTHORIZATION,
        'content-type': 'application/json',
        ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
      },
      body: JSON.stringify({ value }),
    });
  }

  /** A batch of updates of settings `0 … count − 1`. */
  batchRequest(count: number, n: number): Request {
    const update = Array.from({ length: count }, (_unused, index) => ({
      id: settingId(index),
      value: changingValue(index, n),
    }));
    return new Request(`http://localhost${SETTINGS_PATH}/batch`, {
      method: 'POST',
      headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
      body: JSON.stringify({ update }),
    });
  }

  /** The entity tag to send for setting `index`: the last one a PUT answered, else the settings' own. */
  async etag(index: number): Promise<string> {
    return this.#etags.get(settingId(index)) ?? this.settings.getETag(settingId(index));
  }

  /**
   * PUT with If-Match; keeps the answer's ETag for the next one. A 412 (the tag sent is no
   * longer current: another write of the setting came between) is counted and the PUT sent
   * again with the current tag the 412 answered.
   */
  async putWithIfMatch(index: number, n: number): Promise<void> {
    const value = changingValue(index, n);
    let response = await this.fetch(this.putRequest(index, value, await this.etag(index)));
    let text = await response.text();
    for (let attempt = 0; response.status === 412 && attempt < 3; attempt++) {
      this.preconditionRetries++;
      const current = (JSON.parse(text) as { data?: { etag?: unknown } }).data?.etag;
      const tag = typeof current === 'string' ? current : await this.settings.getETag(settingId(index));
      response = await this.fetch(this.putRequest(index, value, tag));
      text = await response.text();
    }
    if (!response.ok) throw new Error(`writes: PUT answered ${response.status} ${text}`);
    const tag = response.headers.get('etag');
    if (tag === null) this.#etags.delete(settingId(index));
    else this.#etags.set(settingId(index), tag);
  }

  /** A plain PUT (no If-Match). */
  async put(index: number, n: number): Promise<void> {
    const response = await this.fetch(this.putRequest(index, changingValue(index, n)));
    const text = await response.text();
    if (!response.ok) throw new Error(`writes: PUT answered ${response.status} ${text}`);
  }

  /**
   * The floor: the text the library stores for that value, upserted bare under a key of its own
   * (beside the setting's, so that the library's cached state and ETags stay its own), with one
   * history row of the same form and a change message on the store's channel (which the settings
   * read and ignore: the key is none of theirs), in one statement.
   */
  async upsert(index: number, n: number): Promise<void> {
    const value = changingValue(index, n);
    const text = this.settings.getSetting(settingId(index))!.codec.encode(value);
    const key = `${storageKey(index)}#floor`;
    const entry = JSON.stringify({
      id: `floor-${n}`,
      at: new Date().toISOString(),
      setting_id: settingId(index),
      scope: null,
      action: 'update',
      old: null,
      new: value,
      actor: { id: 1 },
      via: 'rest',
    });
    this.#floorEntries++;
    await this.#pool.query(this.#upsert, [
      key,
      text,
      'bench_floor',
      entry,
      this.#channel,
      `k:floor:${key}`,
      this.#floorEntries,
    ]);
  }
}

/** Per kind of row, why it cannot run on this branch (the store capability or the route missing), or `null`. */
async function missingCapability(
  fixture: WriteFixture,
  store: OptionStore,
): Promise<{ commit: string | null; put: string | null; batch: string | null }> {
  if (typeof store.commit !== 'function') {
    const reason =
      'PostgresOptionStore has no `commit` on this branch (If-Match, history and atomic batches need it); ' +
      'this row lights up once the stores’ commit is merged';
    return { commit: reason, put: reason, batch: reason };
  }
  const probe = await fixture.fetch(fixture.putRequest(0, changingValue(0, -1), '"not-the-current-tag"'));
  await probe.text();
  const put =
    probe.status === 412
      ? null
      : `a PUT with a wrong If-Match answered ${probe.status}, not 412: the REST PUT does not honour If-Match on this branch`;
  const batch = await fixture.fetch(fixture.batchRequest(1, -2));
  const batchText = await batch.text();
  return {
    commit: null,
    put,
    batch: batch.ok
      ? null
      : `POST …/settings/batch answered ${batch.status} (${batchText.slice(0, 80)}): the batch route is not on this branch`,
  };
}

function throughputRow(
  info: (typeof ROWS)['put'] | (typeof ROWS)['updateValue'],
  comparison: LoopComparison,
  extraChecks: Readonly<Record<string, number>> = {},
): ScenarioResult {
  const target = 'target' in info ? info.target : undefined;
  return {
    id: info.id,
    table: info.table,
    title: info.title,
    metric: 'throughput',
    subject: {
      label: info.subjectLabel,
      value: comparison.subject.perSecond,
      rounds: comparison.subject.rounds,
    },
    baseline: {
      label: info.baselineLabel,
      value: comparison.baseline.perSecond,
      rounds: comparison.baseline.rounds,
    },
    ratio: comparison.ratio,
    roundRatios: comparison.ratios,
    ...(target === undefined ? {} : { target, met: meets(target, comparison.ratio) }),
    checks: {
      subjectP99Ns: Math.round(comparison.subject.latency.p99),
      baselineP99Ns: Math.round(comparison.baseline.latency.p99),
      ...extraChecks,
    },
  };
}

const latencyLine = (title: string, comparison: LoopComparison) =>
  [comparison.subject, comparison.baseline].map((side) => [
    title,
    side.label,
    formatRate(side.perSecond, 'writes/s'),
    formatTime(side.latency.p50),
    formatTime(side.latency.p99),
  ]);

const INTRO: readonly string[] = [
  'PostgreSQL, a table of the bench’s own, a settings instance of 60 settings with history on (the default ' +
    '`historyLimit`, 1000) and its REST server called through `server.fetch`. Every write changes the stored text ' +
    '(a write that leaves it as it is stores nothing and records no history). The baseline writes the very text the ' +
    'library stores with one bare statement through the same pool: `INSERT … ON CONFLICT (key) DO UPDATE` under a ' +
    'key of its own beside the setting’s, one `INSERT` of a history row of the same form into the store’s log ' +
    'table (numbered by the bench) and a `pg_notify` on the store’s channel (the same work as the library’s commit, without its ' +
    'conditions and log trimming).',
  `**PUT with If-Match**: ${CONCURRENCY} writers, each on a setting of its own, one write at a time each (a closed ` +
    'loop), sending the ETag the previous PUT answered (or `settings.getETag` when the answer has none; a 412 is ' +
    'counted, `preconditionRetries` in results.json, and the PUT sent again with the tag it answered); the bare ' +
    'side runs the same loop with its upsert. Each side first runs the loop unmeasured for 40 times the run’s ' +
    'warm-up (4 s in a full run): the library’s write path runs about three times slower for its first few thousand ' +
    'writes, while V8 optimises it. Throughput per round and the latency of every write; rounds alternate ' +
    'which side goes first. The in-process row is the same with one writer calling `getETag` and ' +
    '`updateValue(id, value, { ifMatch })`: the library’s share without HTTP.',
  `**Batch**: one \`POST …/settings/batch\` of ${BATCH} updates (\`{"update":[{id,value}…]}\`, one atomic commit) ` +
    `against ${BATCH} plain PUTs one after the other; in process, \`updateValues\` of ${BATCH} changes against ` +
    `${BATCH} \`updateValue\` calls.`,
  'Until the stores’ `commit`, the If-Match handling of the REST PUT and the batch route are merged, the rows say ' +
    'why they were skipped.',
];

/**
 * Writes on PostgreSQL with history and If-Match: PUT throughput and latency against a bare
 * upsert, and a batch of 50 against 50 single PUTs (REST and in process). Rows skip, with the
 * reason, while the store has no `commit` or the routes are missing; without `DATABASE_URL`.
 */
export const writesScenario: Scenario = {
  id: 'writes',
  title: 'writes on PostgreSQL: PUT with If-Match and history, batches',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const service = postgresUrl();
    const skipAll = (reason: string): ScenarioOutput => ({
      rows: Object.values(ROWS).map((info) => skippedRow(info, reason)),
    });
    if ('skip' in service) return skipAll(service.skip);
    return withBenchSchema(service.url, async (schema) => {
      const pool = new pg.Pool({ connectionString: service.url, max: CONCURRENCY + 2 });
      pool.on('error', () => {});
      const table = `${schema}.write_options`;
      const store = new PostgresOptionStore({ client: pool, table });
      const ours = new BenchSettings(BATCH + 10, store);
      try {
        await loadWhenListening(ours, store);
        const fixture = new WriteFixture(ours, pool, table, store.channel);
        // The log table exists once the library has committed with history.
        await ours.updateValue(settingId(0), changingValue(0, -3));
        const missing = await missingCapability(fixture, store);
        const loop = {
          concurrency: CONCURRENCY,
          rounds: settings.rounds,
          timeMs: settings.timeMs * 2,
          warmupMs: settings.warmupMs * WARM_UP_FACTOR,
        };
        const rows: ScenarioResult[] = [];
        const lines: string[][] = [];
        if (missing.put === null) {
          const put = await compareClosedLoop(
            { label: ROWS.put.subjectLabel, operation: (worker, n) => fixture.putWithIfMatch(worker, n) },
            { label: ROWS.put.baselineLabel, operation: (worker, n) => fixture.upsert(worker, n) },
            loop,
          );
          rows.push(throughputRow(ROWS.put, put, { preconditionRetries: fixture.preconditionRetries }));
          lines.push(...latencyLine(`PUT, ${CONCURRENCY} writers`, put));
        } else {
          rows.push(skippedRow(ROWS.put, missing.put));
        }
        if (missing.commit === null) {
          const single = await compareClosedLoop(
            {
              label: ROWS.updateValue.subjectLabel,
              operation: async (_worker, n) => {
                const id = settingId(0);
                await ours.updateValue(id, changingValue(0, n), { ifMatch: await ours.getETag(id) });
              },
            },
            { label: ROWS.updateValue.baselineLabel, operation: (_worker, n) => fixture.upsert(0, n) },
            { ...loop, concurrency: 1 },
          );
          rows.push(throughputRow(ROWS.updateValue, single));
          lines.push(...latencyLine('in process, 1 writer', single));
        } else {
          rows.push(skippedRow(ROWS.updateValue, missing.commit));
        }
        const counter = { n: 0 };
        // A call of the baseline side is 50 writes (0.3–0.6 s): a few calls per round are enough.
        const batches = {
          opsPerCall: 1,
          rounds: settings.rounds,
          timeMs: settings.timeMs * 2,
          warmupMs: settings.warmupMs,
          minIterations: { measured: 3, warmup: 1 },
        };
        if (missing.batch === null) {
          const batch = await compareInterleaved(
            {
              label: ROWS.batch.subjectLabel,
              run: async () => {
                const response = await fixture.fetch(fixture.batchRequest(BATCH, counter.n++));
                const text = await response.text();
                if (!response.ok) throw new Error(`writes: batch answered ${response.status} ${text}`);
              },
            },
            {
              label: ROWS.batch.baselineLabel,
              run: async () => {
                const round = counter.n++;
                for (let index = 0; index < BATCH; index++) await fixture.put(index, round);
              },
            },
            batches,
          );
          rows.push(timeRow(ROWS.batch, batch));
        } else {
          rows.push(skippedRow(ROWS.batch, missing.batch));
        }
        if (missing.commit === null) {
          const changes = (round: number) =>
            Array.from({ length: BATCH }, (_unused, index) => ({
              id: settingId(index),
              value: changingValue(index, round),
            }));
          const inProcess = await compareInterleaved(
            { label: ROWS.updateValues.subjectLabel, run: () => ours.updateValues(changes(counter.n++)) },
            {
              label: ROWS.updateValues.baselineLabel,
              run: async () => {
                for (const change of changes(counter.n++)) await ours.updateValue(change.id, change.value);
              },
            },
            batches,
          );
          rows.push(timeRow(ROWS.updateValues, inProcess));
        } else {
          rows.push(skippedRow(ROWS.updateValues, missing.commit));
        }
        const section: ReportSection = {
          id: 'writes',
          title: 'Writes (PostgreSQL, history and If-Match on)',
          intro: INTRO,
          tables:
            lines.length === 0
              ? []
              : [
                  {
                    caption: 'Throughput and latency of every write (closed loop):',
                    header: ['loop', 'side', 'throughput', 'p50', 'p99'],
                    rows: lines,
                  },
                ],
        };
        return { rows, sections: [section] };
      } finally {
        ours.dispose();
        await store.close();
        await pool.end();
      }
    });
  },
};
