/**
 * The README's "Command line" commands, run as written (`npx cpf …`, from the repository root,
 * through its `cpf.config.ts`) on data the demo created as `npm start` does — `apply` on a
 * pseudo-terminal, where it may ask.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../examples/demo/start-demo';
import { ensureBuilt } from '../support/ensure-built';
import { freshPgliteDirectory } from '../support/pglite-template';
import { childEnv, ROOT } from './support/cli-run';
import { runInTerminal } from './support/terminal';

const SETTINGS_KEY = Buffer.alloc(32, 5).toString('base64');
const EXPORT_FILE = join(ROOT, 'settings.json');

let scratch: string;
let env: Record<string, string>;
let exportExisted: boolean;

/** The `npx cpf …` lines of README.md's "## Command line" section, without their comments. */
async function readmeCommands(): Promise<string[][]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## ').find((part) => part.startsWith('Command line\n'));
  if (section === undefined) throw new Error('README.md has no "## Command line" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('npx cpf '))
    .map((line) => line.replace(/#.*$/, '').trim().split(/\s+/).slice(2));
}

function npxCpf(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn('npx', ['--no', 'cpf', ...args], {
    cwd: ROOT,
    // npx may install this very project into its cache to run its bin (the first time on a
    // machine, as in CI), and installing a folder runs its `prepare` script, our build: that
    // emptied and rewrote dist/ while other test files were running the program from it. No
    // script is needed to run the bin of a project that is built already.
    env: childEnv({ ...env, NO_COLOR: '1', npm_config_ignore_scripts: 'true' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  await ensureBuilt('cli test');
  exportExisted = existsSync(EXPORT_FILE);
  scratch = await mkdtemp(join(tmpdir(), 'cpf-readme-'));
  const dataDir = join(scratch, 'pglite');
  await freshPgliteDirectory(dataDir);
  env = { DEMO_DATA_DIR: dataDir, SETTINGS_KEY };
  // What `npm start` leaves: the demo's data, its channels seeded.
  const demo = await startDemo({ port: 0, dataDir, settingsKey: SETTINGS_KEY, onError: () => {} });
  await demo.close();
}, 120_000);

afterAll(async () => {
  if (!exportExisted) await rm(EXPORT_FILE, { force: true });
  await rm(scratch, { recursive: true, force: true });
});

describe("the README's command line section", { timeout: 300_000 }, () => {
  it('runs every command as written, from the repository root', async () => {
    const commands = await readmeCommands();
    expect(commands.map((args) => args[0])).toEqual([
      'list',
      'list',
      'explain',
      'set',
      'export',
      'plan',
      'apply',
    ]);
    for (const args of commands) {
      const result =
        args[0] === 'apply'
          ? await runInTerminal(args, {
              cwd: ROOT,
              env: { ...env, NO_COLOR: '1' },
              answer: 'y',
              program: ['npx', '--no', 'cpf'],
            }).then(({ code, screen }) => ({ code, output: screen }))
          : await npxCpf(args);
      expect(result.code, `npx cpf ${args.join(' ')}:\n${result.output}`).toBe(0);
      // Standard output is a pipe here: JSON (the terminal's text is tested in terminal.test.ts).
      if (args[0] === 'explain') expect(JSON.parse(result.output)).toMatchObject({ origin: 'eu/de' });
      if (args[0] === 'apply') expect(result.output).toContain('No change: nothing to apply.');
    }
    expect(JSON.parse(await readFile(EXPORT_FILE, 'utf8'))).toEqual([
      expect.objectContaining({
        plugin: 'acme_pay',
        levels: expect.objectContaining({ eu: expect.anything() }),
      }),
    ]);
  });
});
