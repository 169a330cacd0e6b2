/**
 * The soak of `npm run soak` against release 0.1 (commit 223e905) in the same run (issue 24):
 * the SAME load (`bench/soak/soak-load.ts`, this checkout's) against 0.1's own soak server
 * (its demo on PGlite, built from a checkout of that commit, cached in the temp directory) and
 * against this checkout's (the demo on PGlite with its history on: every write appends to the
 * level's change log), the two alternating round by round; then one request at a time over one
 * keep-alive connection to each (write, read, refusal, validation error, and each request of
 * the soak's mix, for a table of which requests got slower), alternating too.
 *
 * Rows (subject / 0.1, the median of the per-round ratios): soak throughput ≥ 0.8×, soak p99
 * ≤ 1.5×, a PGlite write (p50) ≤ 1.3×, a read and a refusal (p50) ≤ 1.1×; the validation
 * error (p50) as a diagnostic. `SOAK_CPU_PROF_DIR=<dir>` profiles both servers (`--cpu-prof`,
 * one sub-directory per side) for `bench/profile-summary.ts`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { median } from '../harness/interleaved';
import { percentiles } from '../harness/percentiles';
import {
  type DetailTable,
  type MetricKind,
  meets,
  type RunSettings,
  type Scenario,
  type ScenarioOutput,
  type ScenarioResult,
  type Target,
} from '../harness/scenario';
import { releaseCheckout } from '../soak/release-checkout';
import { SEQUENTIAL_KINDS, SequentialClient, type SequentialKind } from '../soak/sequential-requests';
import {
  runSoakLoad,
  type SoakRun,
  type SoakServer,
  startSoakServer,
  stopSoakServer,
} from '../soak/soak-load';
import { SOAK_MIX, SOAK_TOKEN } from '../soak/soak-plan';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Release 0.1. */
const RELEASE_COMMIT = '223e905b30e81793a5649f9883d72e4759aba57d';
const RELEASE = '0.1 (223e905)';
const CURRENT = 'this checkout, history on';
const SERVER = join('bench', 'soak', 'soak-server.ts');
/** The connections of `npm run soak`. */
const CONNECTIONS = 10;
const MS = 1e6;

const THROUGHPUT_TARGET: Target = { kind: 'throughput', ratio: 0.8, text: '≥ 0.8× 0.1' };
const P99_TARGET: Target = { kind: 'time', ratio: 1.5, text: '≤ 1.5× 0.1' };
const WRITE_TARGET: Target = { kind: 'time', ratio: 1.3, text: '≤ 1.3× 0.1' };
const READ_TARGET: Target = { kind: 'time', ratio: 1.1, text: '≤ 1.1× 0.1' };

/**
 * How long the scenario measures, from the run's settings (full: ≈ 70 s in all; quick: ≈ 25 s,
 * two short rounds so that each side goes first once). The full run warms each side up for 6 s:
 * with 2 s, this checkout's first round still ran at 0.67–0.79× of its later rounds' throughput
 * (V8 still optimising its write path) and the p99 ratios fell round by round (2.0, 1.67, 1.5,
 * 1.25× in one run).
 */
interface SoakPlan {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmUpSeconds: number;
  /** Passes of the four sequential kinds per side per round. */
  readonly passes: number;
}

function plan(settings: RunSettings): SoakPlan {
  const quick = settings.httpRounds < 3;
  return quick
    ? { rounds: 2, seconds: 1, warmUpSeconds: 1, passes: 30 }
    : { rounds: 4, seconds: 4, warmUpSeconds: 6, passes: 150 };
}

/** Both sides' measurements, in round order. */
interface Measured {
  readonly current: number[];
  readonly release: number[];
}

function row(
  id: string,
  title: string,
  metric: MetricKind,
  measured: Measured,
  target: Target | undefined,
  checks: ScenarioResult['checks'],
): ScenarioResult {
  const ratios = measured.current.map((value, index) => value / measured.release[index]!);
  const ratio = median(ratios);
  return {
    id,
    table: target === undefined ? 'diagnostics' : 'targets',
    title,
    metric,
    subject: { label: CURRENT, value: median(measured.current), rounds: measured.current },
    baseline: { label: RELEASE, value: median(measured.release), rounds: measured.release },
    ratio,
    roundRatios: ratios,
    ...(target === undefined ? {} : { target, met: meets(target, ratio) }),
    ...(checks === undefined ? {} : { checks }),
  };
}

/** The server's history entries of the gateway's settings (0 when it keeps none, or has no such route). */
async function historyEntries(url: string): Promise<number> {
  const response = await fetch(`${url}/api/commerce/v3/acme_pay/settings/history?per_page=100`, {
    headers: { authorization: `Bearer ${SOAK_TOKEN}` },
  });
  if (!response.ok) return 0;
  const body = (await response.json()) as unknown;
  return Array.isArray(body) ? body.length : 0;
}

function profileArgs(side: string): string[] {
  const directory = process.env.SOAK_CPU_PROF_DIR;
  return directory ? ['--cpu-prof', `--cpu-prof-dir=${join(directory, side)}`] : [];
}

function fail(run: SoakRun, side: string): void {
  if (run.unexpected.length > 0 || run.transportErrors > 0 || run.timeouts > 0)
    throw new Error(
      `soak against ${side}: ${run.unexpected.join('; ') || 'no unexpected status'}, ` +
        `transport errors ${run.transportErrors}, timeouts ${run.timeouts}`,
    );
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);

export const soakScenario: Scenario = {
  id: 'soak',
  title: "npm run soak's load and sequential requests: this checkout (history on) against 0.1 on PGlite",
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const { rounds, seconds, warmUpSeconds, passes } = plan(settings);
    if (!existsSync(join(ROOT, 'dist', 'index.js')))
      await run('npm', ['run', 'build'], { cwd: ROOT, timeout: 170_000 });
    const releaseRoot = await releaseCheckout(ROOT, RELEASE_COMMIT);
    const servers: SoakServer[] = [];
    try {
      const current = await startSoakServer({
        entry: join(ROOT, SERVER),
        cwd: ROOT,
        execArgv: profileArgs('current'),
      });
      servers.push(current);
      const release = await startSoakServer({
        entry: join(releaseRoot, SERVER),
        cwd: releaseRoot,
        execArgv: profileArgs('release'),
      });
      servers.push(release);
      const sides = [
        { name: CURRENT, server: current },
        { name: RELEASE, server: release },
      ] as const;
      for (const side of sides)
        fail(await runSoakLoad(side.server.url, warmUpSeconds, CONNECTIONS), side.name);

      // The soak, alternating which side goes first.
      const soak = { current: [] as SoakRun[], release: [] as SoakRun[] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? sides : ([sides[1], sides[0]] as const);
        for (const side of order) {
          const result = await runSoakLoad(side.server.url, seconds, CONNECTIONS);
          fail(result, side.name);
          (side.server === current ? soak.current : soak.release).push(result);
        }
      }

      // One request at a time, alternating too; p50 per kind per round.
      const clients = {
        current: new SequentialClient(current.url),
        release: new SequentialClient(release.url),
      };
      const sequential = new Map<SequentialKind['id'], { current: number[][]; release: number[][] }>(
        SEQUENTIAL_KINDS.map((kind) => [kind.id, { current: [], release: [] }]),
      );
      // Each request of the soak's mix, one at a time: which of them got slower, and by how much.
      const mixed = { current: SOAK_MIX.map((): number[] => []), release: SOAK_MIX.map((): number[] => []) };
      try {
        await clients.current.run(Math.ceil(passes / 5));
        await clients.release.run(Math.ceil(passes / 5));
        for (let round = 0; round < rounds; round++) {
          const order =
            round % 2 === 0 ? (['current', 'release'] as const) : (['release', 'current'] as const);
          for (const side of order) {
            const samples = await clients[side].run(passes);
            for (const [id, values] of samples) sequential.get(id)![side].push(values);
            const each = await clients[side].runEach(SOAK_MIX, Math.ceil(passes / 5));
            for (const [index, values] of each.entries()) mixed[side][index]!.push(...values);
          }
        }
      } finally {
        clients.current.close();
        clients.release.close();
      }
      const history = await historyEntries(current.url);

      const soakChecks = {
        rounds,
        secondsPerRound: seconds,
        connections: CONNECTIONS,
        requestsCurrent: soak.current.reduce((sum, r) => sum + r.requests, 0),
        requestsRelease: soak.release.reduce((sum, r) => sum + r.requests, 0),
        currentHistoryEntries: history,
      };
      const p50s = (id: SequentialKind['id']) => {
        const kind = sequential.get(id)!;
        return {
          current: kind.current.map((values) => percentiles(values).p50 * MS),
          release: kind.release.map((values) => percentiles(values).p50 * MS),
        };
      };
      const sequentialChecks = { rounds, requestsPerKindPerRound: passes };
      const rows = [
        row(
          'soak-throughput',
          'npm run soak mix, PGlite demo: throughput',
          'throughput',
          {
            current: soak.current.map((r) => r.requestsPerSecond),
            release: soak.release.map((r) => r.requestsPerSecond),
          },
          THROUGHPUT_TARGET,
          soakChecks,
        ),
        row(
          'soak-p99',
          'npm run soak mix, PGlite demo: p99 latency',
          'time',
          {
            current: soak.current.map((r) => r.latencyMs.p99 * MS),
            release: soak.release.map((r) => r.latencyMs.p99 * MS),
          },
          P99_TARGET,
          soakChecks,
        ),
        row(
          'soak-write-pglite',
          'PGlite demo, sequential: a write (p50)',
          'time',
          p50s('write'),
          WRITE_TARGET,
          sequentialChecks,
        ),
        row(
          'soak-read-pglite',
          'PGlite demo, sequential: a read (p50)',
          'time',
          p50s('read'),
          READ_TARGET,
          sequentialChecks,
        ),
        row(
          'soak-refusal-pglite',
          'PGlite demo, sequential: a refusal, 401 (p50)',
          'time',
          p50s('refusal'),
          READ_TARGET,
          sequentialChecks,
        ),
        row(
          'soak-error-pglite',
          'PGlite demo, sequential: a validation error, 400 (p50)',
          'time',
          p50s('error'),
          undefined,
          sequentialChecks,
        ),
      ];

      const soakTable: DetailTable = {
        caption: `Soak rounds (${seconds} s each, ${CONNECTIONS} connections, the same mix, after ${warmUpSeconds} s of warm-up per side): requests/s; p50, p99 and max in ms of the 2xx answers, each as measured (autocannon's own figures are whole milliseconds).`,
        header: ['round', 'side', 'requests/s', 'p50 ms', 'p99 ms', 'max ms'],
        rows: soak.current.flatMap((mine, index) =>
          (
            [
              [CURRENT, mine],
              [RELEASE, soak.release[index]!],
            ] as const
          ).map(([side, round]) => [
            String(index + 1),
            side,
            fixed(round.requestsPerSecond, 0),
            fixed(round.latencyMs.p50),
            fixed(round.latencyMs.p99),
            fixed(round.latencyMs.max),
          ]),
        ),
      };
      const sequentialTable: DetailTable = {
        caption: `One request at a time over one keep-alive connection (${passes} of each kind per side per round, ${rounds} rounds): ms, all rounds together.`,
        header: ['request', `${CURRENT} p50`, `${CURRENT} p99`, `${RELEASE} p50`, `${RELEASE} p99`],
        rows: SEQUENTIAL_KINDS.map((kind) => {
          const { current: mine, release: theirs } = sequential.get(kind.id)!;
          const a = percentiles(mine.flat());
          const b = percentiles(theirs.flat());
          return [kind.title, fixed(a.p50), fixed(a.p99), fixed(b.p50), fixed(b.p99)];
        }),
      };
      const mixTable: DetailTable = {
        caption:
          "Each request of the soak's mix, one at a time over one keep-alive connection (in the mix's order, all rounds together): p50 in ms.",
        header: ['request', `${CURRENT} p50`, `${RELEASE} p50`, 'ratio'],
        rows: SOAK_MIX.map((request, index) => {
          const a = percentiles(mixed.current[index]!).p50;
          const b = percentiles(mixed.release[index]!).p50;
          return [request.name, fixed(a), fixed(b), `${fixed(a / b)}×`];
        }),
      };
      return {
        rows,
        sections: [
          {
            id: 'soak',
            title: 'Soak against 0.1 (PGlite demo)',
            intro: [
              `The load of \`npm run soak\` (this checkout's \`bench/soak/soak-load.ts\`) against 0.1's own soak server, built from commit ${RELEASE_COMMIT.slice(0, 7)}, and against this checkout's, whose demo keeps history (${history} entries read back after the run); the sides alternate round by round, then one request at a time alternates the same way.`,
            ],
            tables: [soakTable, sequentialTable, mixTable],
          },
        ],
      };
    } finally {
      for (const server of servers) await stopSoakServer(server);
    }
  },
};
