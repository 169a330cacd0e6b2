import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

/** Variables a child must not inherit from the test run (they choose the demo's store). */
const CLEARED = [
  'DATABASE_URL',
  'REDIS_URL',
  'DEMO_TOKEN',
  'DEMO_DATA_DIR',
  'DEMO_TABLE',
  'DEMO_KEY_PREFIX',
  'PORT',
  'HOST',
];

/** An example running as a child process (`tsx <script>`, like `npm start`). */
export interface RunningChild {
  /** The URL it printed. */
  readonly url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Kills it if it still runs (for afterAll). */
  kill(): void;
}

/**
 * Starts `npx tsx <script>` (the tsx binary directly, so signals reach it) with PORT=0 and the
 * given variables, in `cwd` (default: the project root), and waits until it prints
 * `listening on http://…`.
 */
export function startChild(
  script: string,
  env: Record<string, string>,
  timeoutMs = 15_000,
  cwd = ROOT,
): Promise<RunningChild> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CLEARED) delete childEnv[name];
  Object.assign(childEnv, { PORT: '0', NO_COLOR: '1' }, env);
  const child: ChildProcess = spawn(TSX, [script], {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<RunningChild>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not print its URL within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onOutput = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        url,
        output: () => output,
        async stop(signal = 'SIGTERM') {
          child.kill(signal);
          return exited;
        },
        kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        },
      });
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (code ${code}) before listening:\n${output}`));
    });
  });
}
