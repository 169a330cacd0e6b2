/**
 * The load side of `npm run soak`, shared by the command and by the bench's `soak` scenario
 * (which runs it against the server of release 0.1 and the current one): starting a soak
 * server in a child process, asking it for its heap, and running the mixed requests of
 * `soak-plan.ts` with autocannon. Traffic goes only to the child's 127.0.0.1 port.
 */
import { type ChildProcess, fork } from 'node:child_process';
import autocannon from 'autocannon';
import { percentiles } from '../harness/percentiles';
import { SOAK_MIX, type SoakRequest } from './soak-plan';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

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
  errors: number;
  timeouts: number;
  duration: number;
}
/**
 * A run: its result, and the event autocannon emits per response with the response time in ms
 * as measured (`process.hrtime`), before its histogram rounds it down to whole milliseconds.
 */
type LoadRun = Promise<LoadResult> & {
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, responseMs: number) => void,
  ): void;
};
type RunLoad = (options: {
  url: string;
  connections: number;
  duration: number;
  requests: LoadRequest[];
}) => LoadRun;
const runLoad = autocannon as unknown as RunLoad;

/** Heap figures and the count of internal errors, from the server process. */
export interface SoakHeap {
  readonly heapUsed: number;
  readonly rss: number;
  readonly errors: number;
}

/** A soak server running in a child process. */
export interface SoakServer {
  readonly child: ChildProcess;
  /** Its base URL on 127.0.0.1. */
  readonly url: string;
}

/** How to start a soak server: its entry file, and optionally its working directory and environment. */
export interface SoakServerOptions {
  /** The `soak-server.ts` to run (this checkout's or another release's). */
  readonly entry: string;
  /** The working directory (default: this process's). */
  readonly cwd?: string;
  /** Extra environment variables. */
  readonly env?: NodeJS.ProcessEnv;
  /** Extra Node flags (e.g. `--cpu-prof`). */
  readonly execArgv?: readonly string[];
}

/** Starts a soak server (`--expose-gc`, through tsx) and resolves once it listens. */
export function startSoakServer(options: SoakServerOptions): Promise<SoakServer> {
  const child = fork(options.entry, [], {
    cwd: options.cwd,
    execArgv: ['--expose-gc', ...(options.execArgv ?? []), '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
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

/** Asks the server to collect its garbage and report its heap. */
export function measureSoakHeap(server: SoakServer): Promise<SoakHeap> {
  return new Promise((resolve) => {
    server.child.once('message', (message: SoakHeap & { kind: string }) => resolve(message));
    server.child.send('heap');
  });
}

/** Stops the server (it closes the demo and exits), killing it if it has not exited within 10 s. */
export async function stopSoakServer(server: SoakServer): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill();
      resolve();
    }, STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send('stop');
    else child.kill();
  });
}

/** The statuses one kind of request of the mix got. */
export interface SoakRequestTally {
  readonly name: string;
  readonly expected: number;
  /** Count by status. */
  readonly statuses: Record<string, number>;
}

/** What one soak run measured. */
export interface SoakRun {
  readonly requests: number;
  /** Requests per second: autocannon's mean of its per-second samples (what `npm run soak` reports). */
  readonly requestsPerSecond: number;
  /**
   * Latency percentiles in ms of the 2xx answers (the ones autocannon's own figures count), from
   * each response's measured time: autocannon's histogram keeps whole milliseconds, which at a
   * p99 of 7 to 10 ms moves a ratio of two runs by up to 14%.
   */
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly transportErrors: number;
  readonly timeouts: number;
  /** One line per kind of request that got another status than its own. */
  readonly unexpected: readonly string[];
  readonly byRequest: readonly SoakRequestTally[];
}

/** The autocannon requests of the mix, each counting its statuses into `tally`. */
function loadRequests(tally: Map<string, Map<number, number>>): LoadRequest[] {
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

/** Runs the mix against `url` for `seconds` with `connections` keep-alive connections, each cycling through it in order. */
export async function runSoakLoad(url: string, seconds: number, connections: number): Promise<SoakRun> {
  const tally = new Map<string, Map<number, number>>();
  const run = runLoad({ url, connections, duration: seconds, requests: loadRequests(tally) });
  const answered: number[] = [];
  run.on('response', (_client, status, _bytes, responseMs) => {
    if (status >= 200 && status < 300) answered.push(responseMs);
  });
  const result = await run;
  const latency = answered.length > 0 ? percentiles(answered) : { p50: 0, p99: 0 };
  const unexpected: string[] = [];
  const byRequest = SOAK_MIX.map((request) => {
    const statuses = Object.fromEntries(
      [...(tally.get(request.name) ?? new Map<number, number>())].sort(([a], [b]) => a - b),
    );
    for (const [status, count] of Object.entries(statuses)) {
      if (Number(status) !== request.expected)
        unexpected.push(`${request.name}: ${count} × ${status} (expected ${request.expected})`);
    }
    return { name: request.name, expected: request.expected, statuses };
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    latencyMs: {
      p50: latency.p50,
      p99: latency.p99,
      max: answered.reduce((most, each) => Math.max(most, each), 0),
    },
    transportErrors: result.errors,
    timeouts: result.timeouts,
    unexpected,
    byRequest,
  };
}
