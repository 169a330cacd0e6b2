/**
 * `npm run soak`: a bounded load run against the demo over `node:http` on 127.0.0.1.
 *
 * Starts `soak-server.ts` in a child process (`--expose-gc`, so its heap is measured alone),
 * warms it up, measures its heap after a forced GC, runs `SOAK_SECONDS` (default 30) of the
 * mixed reads and writes of `soak-plan.ts` with autocannon (`SOAK_CONNECTIONS`, default 10),
 * measures the heap again, and reports: requests, statuses per kind of request (each kind
 * has exactly one expected status), transport errors and timeouts, p50/p99 latency, heap
 * before and after. Stops by itself; exits 1 when any request got an unexpected status, a
 * request failed or timed out, or the server reported an internal error. Writes the summary
 * to `bench/soak/last-result.json` and prints a Markdown block for SECURITY.md.
 *
 * Traffic goes only to the child's 127.0.0.1 port.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SOAK_MIX, type SoakRequest } from './soak-plan';

const SECONDS = positiveInteger(process.env.SOAK_SECONDS, 30);
const CONNECTIONS = positiveInteger(process.env.SOAK_CONNECTIONS, 10);
const WARM_UP_SECONDS = 3;
const START_TIMEOUT_MS = 60_000;
const SERVER_ENTRY = fileURLToPath(new URL('./soak-server.ts', import.meta.url));
const RESULT_FILE = fileURLToPath(new URL('./last-result.json', import.meta.url));
const STORE = process.env.SOAK_DATABASE_URL ? 'PostgreSQL' : process.env.SOAK_REDIS_URL ? 'Redis' : 'PGlite';

function positiveInteger(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

/** The part of autocannon's API the soak uses (its bundled types are not published). */
interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  setupRequest?(request: LoadRequest): LoadRequest;
  onResponse?(status: number): void;
}
interface LoadResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number; average: number };
  errors: number;
  timeouts: number;
  duration: number;
}
type RunLoad = (options: {
  url: string;
  connections: number;
  duration: number;
  requests: LoadRequest[];
}) => Promise<LoadResult>;
const runLoad = autocannon as unknown as RunLoad;

/** Heap figures from the server process. */
interface Heap {
  heapUsed: number;
  rss: number;
  errors: number;
}

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(SERVER_ENTRY, [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the soak server did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the soak server exited with code ${code} before listening`));
    });
    child.once('message', (message: { kind?: string; url?: string }) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      if (message.kind !== 'ready' || typeof message.url !== 'string') {
        reject(new Error(`unexpected message from the soak server: ${JSON.stringify(message)}`));
        return;
      }
      resolve({ child, url: message.url });
    });
  });
}

function measureHeap(child: ChildProcess): Promise<Heap> {
  return new Promise((resolve) => {
    child.once('message', (message: Heap & { kind: string }) => resolve(message));
    child.send('heap');
  });
}

/** Statuses seen, by request name. */
type Tally = Map<string, Map<number, number>>;

function loadRequests(tally: Tally): LoadRequest[] {
  let counter = 0;
  return SOAK_MIX.map((request: SoakRequest) => {
    const statuses = new Map<number, number>();
    tally.set(request.name, statuses);
    const load: LoadRequest = {
      method: request.method,
      path: request.path,
      headers: { ...request.headers },
      onResponse: (status) => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      },
    };
    const { body } = request;
    if (body) {
      load.body = body(0);
      load.setupRequest = (outgoing) => ({ ...outgoing, body: body(++counter) });
    }
    return load;
  });
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const { child, url } = await startServer();
try {
  console.log(`soak: server at ${url}; warming up for ${WARM_UP_SECONDS} s`);
  await runLoad({
    url,
    connections: CONNECTIONS,
    duration: WARM_UP_SECONDS,
    requests: loadRequests(new Map()),
  });
  const before = await measureHeap(child);
  console.log(
    `soak: heap after warm-up ${mib(before.heapUsed)}; running ${SECONDS} s with ${CONNECTIONS} connections`,
  );

  const tally: Tally = new Map();
  const result = await runLoad({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: loadRequests(tally),
  });
  const after = await measureHeap(child);

  const unexpected: string[] = [];
  const byRequest = SOAK_MIX.map((request) => {
    const statuses = Object.fromEntries(
      [...(tally.get(request.name) ?? new Map())].sort(([a], [b]) => a - b),
    );
    for (const [status, count] of Object.entries(statuses)) {
      if (Number(status) !== request.expected)
        unexpected.push(`${request.name}: ${count} × ${status} (expected ${request.expected})`);
    }
    return { name: request.name, expected: request.expected, statuses };
  });
  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    store: STORE,
    seconds: SECONDS,
    connections: CONNECTIONS,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    transportErrors: result.errors,
    timeouts: result.timeouts,
    internalErrors: after.errors - before.errors,
    heapUsed: {
      afterWarmUp: before.heapUsed,
      afterRun: after.heapUsed,
      growth: after.heapUsed - before.heapUsed,
    },
    rss: { afterWarmUp: before.rss, afterRun: after.rss },
    unexpected,
    byRequest,
  };
  await writeFile(RESULT_FILE, `${JSON.stringify(summary, null, 2)}\n`);

  console.log('');
  console.log('| request | expected | statuses |');
  console.log('|---|---|---|');
  for (const row of byRequest) {
    const statuses = Object.entries(row.statuses)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    console.log(`| ${row.name} | ${row.expected} | ${statuses} |`);
  }
  console.log('');
  console.log(
    `Soak (${summary.date.slice(0, 10)}, Node ${summary.node}, ${SECONDS} s, ${CONNECTIONS} connections, demo on ${STORE}): ` +
      `${summary.requests} requests (${summary.requestsPerSecond}/s), unexpected statuses: ${unexpected.length === 0 ? 'none' : unexpected.join('; ')}, ` +
      `transport errors ${summary.transportErrors}, timeouts ${summary.timeouts}, internal errors ${summary.internalErrors}; ` +
      `latency p50 ${summary.latencyMs.p50} ms, p99 ${summary.latencyMs.p99} ms; ` +
      `heap after forced GC ${mib(before.heapUsed)} before, ${mib(after.heapUsed)} after (${summary.heapUsed.growth >= 0 ? '+' : ''}${mib(summary.heapUsed.growth)}).`,
  );
  const failed =
    unexpected.length > 0 || result.errors > 0 || result.timeouts > 0 || summary.internalErrors > 0;
  process.exitCode = failed ? 1 : 0;
} finally {
  child.send('stop');
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill();
      resolve();
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
