/**
 * Runs the built `cpf` program (dist/cli/cpf.js) in a child process, as users run it, and
 * gives back its exit code and what it printed. Test folders hold a `cpf.config.ts` that loads
 * the fixture (fixtures/cli-fixture.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../../support/ensure-built';

export const ROOT = join(import.meta.dirname, '..', '..', '..');
/** The program as `package.json#bin` names it. */
export const BIN = join(ROOT, 'dist', 'cli', 'cpf.js');
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'cli-fixture.ts');

/** Variables a child must not inherit from the test run (they choose stores and colours). */
export const CLEARED = [
  'DATABASE_URL',
  'REDIS_URL',
  'NO_COLOR',
  'FORCE_COLOR',
  'DEMO_DATA_DIR',
  'SETTINGS_KEY',
];

/** What a run printed and how it ended. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to run the program. */
export interface CliRunOptions {
  /** The working directory (where the config is found). */
  readonly cwd: string;
  /** Variables added to the environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to standard input, which is then closed (default: nothing, closed). */
  readonly input?: string;
  readonly timeoutMs?: number;
}

/** The test run's environment without {@link CLEARED}, with `extra` added. */
export function childEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CLEARED) delete env[name];
  return Object.assign(env, extra);
}

/** Runs `node dist/cli/cpf.js ...args`; resolves when it exits by itself (a timeout kills it and fails). */
export function runCli(args: readonly string[], options: CliRunOptions): Promise<CliResult> {
  const env = childEnv(options.env);
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(options.input ?? '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cpf ${args.join(' ')} did not exit within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Parses the one JSON value a run printed on standard output. */
export function jsonOut<T = unknown>(result: CliResult): T {
  const lines = result.stdout.trimEnd().split('\n');
  if (lines.length !== 1)
    throw new Error(`expected one line of JSON, got:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(lines[0]!) as T;
}

/** The `{ error: { code, message } }` line a failed run printed on standard error (JSON mode). */
export function jsonError(result: CliResult): { code: string; message: string } {
  const lines = result.stderr.trimEnd().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got:\n${result.stderr}`);
  return (JSON.parse(lines[0]!) as { error: { code: string; message: string } }).error;
}

/** A temporary folder holding a `cpf.config.ts` that exports the fixture's config. */
export async function fixtureFolder(): Promise<string> {
  await ensureBuilt('cli test');
  const folder = await mkdtemp(join(tmpdir(), 'cpf-test-'));
  await writeFile(
    join(folder, 'cpf.config.ts'),
    `import { fixtureConfig } from ${JSON.stringify(FIXTURE)};\n\nexport default await fixtureConfig(process.env);\n`,
  );
  return folder;
}

/** Removes a folder made by {@link fixtureFolder}. */
export function removeFolder(folder: string | undefined): Promise<void> {
  return folder === undefined ? Promise.resolve() : rm(folder, { recursive: true, force: true });
}
