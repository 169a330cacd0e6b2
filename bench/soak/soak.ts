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
 * Traffic goes only to the child's 127.0.0.1 port. The load itself is `soak-load.ts`, which
 * the bench's `soak` scenario also runs against release 0.1's server.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { measureSoakHeap, runSoakLoad, startSoakServer, stopSoakServer } from './soak-load';

const SECONDS = positiveInteger(process.env.SOAK_SECONDS, 30);
const CONNECTIONS = positiveInteger(process.env.SOAK_CONNECTIONS, 10);
const WARM_UP_SECONDS = 3;
const SERVER_ENTRY = fileURLToPath(new URL('./soak-server.ts', import.meta.url));
const RESULT_FILE = fileURLToPath(new URL('./last-result.json', import.meta.url));
const STORE = process.env.SOAK_DATABASE_URL ? 'PostgreSQL' : process.env.SOAK_REDIS_URL ? 'Redis' : 'PGlite';

function positiveInteger(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const server = await startSoakServer({ entry: SERVER_ENTRY });
try {
  console.log(`soak: server at ${server.url}; warming up for ${WARM_UP_SECONDS} s`);
  await runSoakLoad(server.url, WARM_UP_SECONDS, CONNECTIONS);
  const before = await measureSoakHeap(server);
  console.log(
    `soak: heap after warm-up ${mib(before.heapUsed)}; running ${SECONDS} s with ${CONNECTIONS} connections`,
  );

  const result = await runSoakLoad(server.url, SECONDS, CONNECTIONS);
  const after = await measureSoakHeap(server);
  const { unexpected, byRequest } = result;
  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    store: STORE,
    seconds: SECONDS,
    connections: CONNECTIONS,
    requests: result.requests,
    requestsPerSecond: Math.round(result.requestsPerSecond),
    latencyMs: result.latencyMs,
    transportErrors: result.transportErrors,
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
      `latency p50 ${summary.latencyMs.p50.toFixed(2)} ms, p99 ${summary.latencyMs.p99.toFixed(2)} ms; ` +
      `heap after forced GC ${mib(before.heapUsed)} before, ${mib(after.heapUsed)} after (${summary.heapUsed.growth >= 0 ? '+' : ''}${mib(summary.heapUsed.growth)}).`,
  );
  const failed =
    unexpected.length > 0 || result.transportErrors > 0 || result.timeouts > 0 || summary.internalErrors > 0;
  process.exitCode = failed ? 1 : 0;
} finally {
  await stopSoakServer(server);
}
