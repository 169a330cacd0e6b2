import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { ServerKind } from '../servers/server-kinds';
import { childExecArgv } from './child-exec-argv';
import { median } from './interleaved';

const SERVE_ENTRY = fileURLToPath(new URL('../servers/serve.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** CPU time a server process has used, and the requests it has answered, so far. */
export interface ServerUsage {
  readonly cpuMicros: number;
  readonly requests: number;
}

/** A server running in its own child process. */
export interface ChildServer {
  readonly kind: ServerKind;
  readonly origin: string;
  /** Its CPU time and request count so far. */
  usage(): Promise<ServerUsage>;
  stop(): Promise<void>;
}

/**
 * Starts `serve.ts <kind>` in a child process (TypeScript through tsx). With the environment
 * variable `BENCH_CHILD_CPU_PROF=<dir>`, the child writes V8 CPU profiles to `<dir>/<kind>/`
 * when it stops (the largest file is the main thread's).
 */
export function startChildServer(kind: ServerKind): Promise<ChildServer> {
  const child: ChildProcess = fork(SERVE_ENTRY, [kind], {
    execArgv: childExecArgv(kind),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${kind}: the server did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind}: the server exited with code ${code} before listening`));
    });
    child.once('message', (message) => {
      clearTimeout(timer);
      const port = (message as { port?: unknown }).port;
      if (typeof port !== 'number') {
        reject(new Error(`${kind}: unexpected message ${JSON.stringify(message)}`));
        return;
      }
      child.removeAllListeners('exit');
      resolve({
        kind,
        origin: `http://127.0.0.1:${port}`,
        usage: () =>
          new Promise<ServerUsage>((done, fail) => {
            const onMessage = (reply: unknown) => {
              const usage = (reply as { usage?: ServerUsage }).usage;
              if (usage === undefined) return;
              child.off('message', onMessage);
              done(usage);
            };
            child.on('message', onMessage);
            child.send('usage', (error) => {
              if (error) fail(error);
            });
          }),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || !child.connected) return done();
            child.once('exit', () => done());
            child.send('stop', (error) => {
              if (error) child.kill();
            });
          }),
      });
    });
  });
}

/** How the load generator runs. */
export interface LoadOptions {
  readonly connections: number;
  readonly pipelining: number;
  readonly seconds: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** One autocannon run: mean requests per second; fails when any request failed or answered non-2xx. */
export async function measureRequestsPerSecond(url: string, options: LoadOptions): Promise<number> {
  const result = await autocannon({
    url,
    connections: options.connections,
    pipelining: options.pipelining,
    duration: options.seconds,
    headers: { ...options.headers },
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `load on ${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  return result.requests.average;
}

/** Requests per second of both servers, alternating (A B, B A, …), with the per-round ratio subject/baseline. */
export interface HttpComparison {
  readonly subjectRounds: readonly number[];
  readonly baselineRounds: readonly number[];
  readonly ratios: readonly number[];
  readonly subject: number;
  readonly baseline: number;
  readonly ratio: number;
  /** Median server CPU time per request (µs), measured in the server process during the runs. */
  readonly subjectCpuMicrosPerRequest: number;
  readonly baselineCpuMicrosPerRequest: number;
}

/** One load run: requests per second seen by the client, and CPU µs per request spent by the server. */
async function loadRun(
  server: ChildServer,
  path: string,
  options: LoadOptions,
): Promise<{ perSecond: number; cpuPerRequest: number }> {
  const before = await server.usage();
  const perSecond = await measureRequestsPerSecond(server.origin + path, options);
  const after = await server.usage();
  const requests = after.requests - before.requests;
  return {
    perSecond,
    cpuPerRequest: requests > 0 ? (after.cpuMicros - before.cpuMicros) / requests : Number.NaN,
  };
}

/**
 * Loads two servers in turn on the same path: a warm-up run each, then `rounds` rounds in
 * alternating order. Returns the medians and the median of the per-round throughput ratios.
 */
export async function compareServers(
  subject: ChildServer,
  baseline: ChildServer,
  path: string,
  rounds: number,
  options: LoadOptions,
): Promise<HttpComparison> {
  const warmUp = { ...options, seconds: Math.max(1, Math.min(2, options.seconds)) };
  await measureRequestsPerSecond(subject.origin + path, warmUp);
  await measureRequestsPerSecond(baseline.origin + path, warmUp);
  const subjectRounds: number[] = [];
  const baselineRounds: number[] = [];
  const ratios: number[] = [];
  const subjectCpu: number[] = [];
  const baselineCpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const subjectFirst = round % 2 === 1;
    const first = await loadRun(subjectFirst ? subject : baseline, path, options);
    const second = await loadRun(subjectFirst ? baseline : subject, path, options);
    const [s, b] = subjectFirst ? [first, second] : [second, first];
    subjectRounds.push(s.perSecond);
    baselineRounds.push(b.perSecond);
    ratios.push(s.perSecond / b.perSecond);
    subjectCpu.push(s.cpuPerRequest);
    baselineCpu.push(b.cpuPerRequest);
  }
  return {
    subjectRounds,
    baselineRounds,
    ratios,
    subject: median(subjectRounds),
    baseline: median(baselineRounds),
    ratio: median(ratios),
    subjectCpuMicrosPerRequest: median(subjectCpu),
    baselineCpuMicrosPerRequest: median(baselineCpu),
  };
}
