/**
 * The `cpf` program in fresh processes, each against its baseline in the same run (the runs of
 * the two sides alternate):
 * - `cpf --help` (no config, no library loaded) against `node` printing the same text from a file
 *   — target ≤ 2.5×;
 * - `cpf get acme_pay title --scope eu/de` through the repository's `cpf.config.ts` (the demo's
 *   plugins, TypeScript loaded by jiti) on the demo's PGlite data, against a bare script opening
 *   the same PGlite directory and selecting the same key — target ≤ 1.5×.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { median } from '../harness/interleaved';
import {
  meets,
  type RunSettings,
  type Scenario,
  type ScenarioOutput,
  type ScenarioResult,
  type Target,
} from '../harness/scenario';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'cli', 'cpf.js');
const MS = 1e6;
/** A fixed demo settings key (base64 of 32 bytes): the bench's data is its own. */
const SETTINGS_KEY = Buffer.alloc(32, 3).toString('base64');

const HELP_TARGET: Target = { kind: 'time', ratio: 2.5, text: '≤ 2.5× node printing the text' };
const GET_TARGET: Target = { kind: 'time', ratio: 1.5, text: '≤ 1.5× a bare PGlite select' };

/** Runs a fresh process to its end; resolves to its wall time in ms (from spawn to exit), checking its output. */
function timed(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; expect: string },
): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: 'pipe',
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdin.end();
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const elapsed = performance.now() - started;
      if (code !== 0 || !output.includes(options.expect)) {
        reject(new Error(`${args.join(' ')} exited ${code}: ${output.slice(0, 300)}`));
      } else resolve(elapsed);
    });
  });
}

/** Alternates `subject` and `baseline` `rounds` times (a warm-up round of each first); medians in ms. */
async function alternate(rounds: number, subject: () => Promise<number>, baseline: () => Promise<number>) {
  await subject();
  await baseline();
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      ours.push(await subject());
      theirs.push(await baseline());
    } else {
      theirs.push(await baseline());
      ours.push(await subject());
    }
  }
  return { ours, theirs, ratios: ours.map((value, index) => value / theirs[index]!) };
}

function row(
  id: string,
  title: string,
  labels: readonly [string, string],
  measured: { ours: number[]; theirs: number[]; ratios: number[] },
  target: Target,
): ScenarioResult {
  const ratio = median(measured.ratios);
  return {
    id,
    table: 'targets',
    title,
    metric: 'time',
    subject: {
      label: labels[0],
      value: median(measured.ours) * MS,
      rounds: measured.ours.map((ms) => ms * MS),
    },
    baseline: {
      label: labels[1],
      value: median(measured.theirs) * MS,
      rounds: measured.theirs.map((ms) => ms * MS),
    },
    ratio,
    roundRatios: measured.ratios,
    target,
    met: meets(target, ratio),
    checks: { freshProcesses: measured.ours.length },
  };
}

/** The demo's data: the gateway's settings with the channels `npm start` seeds, in a PGlite directory. */
async function demoData(dataDir: string): Promise<void> {
  const [{ PGlite }, { PostgresOptionStore }, { AcmePayGateway }, { seedChannels }, { createAesGcmCipher }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('commerce-plugin-framework/stores/postgres'),
      import('../../examples/demo/gateway-plugin'),
      import('../../examples/demo/seed'),
      import('commerce-plugin-framework'),
    ]);
  const db = new PGlite(dataDir);
  await db.waitReady;
  const store = new PostgresOptionStore({ client: db });
  const gateway = new AcmePayGateway(store, createAesGcmCipher([{ id: 'demo', key: SETTINGS_KEY }]));
  await seedChannels(gateway.getSettingsHandler());
  gateway.getSettingsHandler().dispose();
  await store.close();
  await db.close();
}

/** The bare baseline: open the PGlite directory, select the key, print the text. */
const BARE_SELECT = `import { PGlite } from '@electric-sql/pglite';
const db = new PGlite(process.argv[2]);
const { rows } = await db.query('SELECT value FROM options WHERE key = $1', [process.argv[3]]);
process.stdout.write(JSON.stringify(rows[0]?.value ?? null) + '\\n');
await db.close();
`;

export const cliScenario: Scenario = {
  id: 'cli',
  title: 'cpf: --help and get in fresh processes, against node printing the help and a bare PGlite select',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    if (!existsSync(BIN)) await run('npm', ['run', 'build'], { cwd: ROOT, timeout: 170_000 });
    // Under node_modules, so that the bare script there resolves the checkout's packages; the
    // cache folder is not there after a fresh `npm ci`.
    const cache = join(ROOT, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    const scratch = await mkdtemp(join(cache, 'bench-cli-'));
    try {
      const rounds = Math.max(3, settings.freshProcesses * 2);
      // --help: the program against node writing the same bytes from a file.
      const helpText = (await run(process.execPath, [BIN, '--help'], { cwd: scratch })).stdout;
      const helpFile = join(scratch, 'help.txt');
      const printer = join(scratch, 'print.mjs');
      await writeFile(helpFile, helpText);
      await writeFile(
        printer,
        `import { readFileSync } from 'node:fs';\nprocess.stdout.write(readFileSync(${JSON.stringify(helpFile)}));\n`,
      );
      const help = await alternate(
        rounds,
        () => timed([BIN, '--help'], { cwd: scratch, expect: 'Usage: cpf' }),
        () => timed([printer], { cwd: scratch, expect: 'Usage: cpf' }),
      );

      // get: the demo's data; the program through the repository's cpf.config.ts.
      const dataDir = join(scratch, 'pglite');
      await demoData(dataDir);
      const bare = join(cache, `bench-cli-bare-${process.pid}.mjs`);
      await writeFile(bare, BARE_SELECT);
      const env: NodeJS.ProcessEnv = { ...process.env, DEMO_DATA_DIR: dataDir, SETTINGS_KEY };
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      const key = 'framework_acme_pay_title@eu/de';
      try {
        const get = await alternate(
          rounds,
          () =>
            timed([BIN, 'get', 'acme_pay', 'title', '--scope', 'eu/de'], {
              cwd: ROOT,
              env,
              expect: 'Acme Pay Deutschland',
            }),
          () => timed([bare, dataDir, key], { cwd: ROOT, env, expect: 'Acme Pay Deutschland' }),
        );
        return {
          rows: [
            row(
              'cli-help',
              'cpf --help, cold',
              ['cpf --help', 'node printing the same text'],
              help,
              HELP_TARGET,
            ),
            row(
              'cli-get-pglite',
              "cpf get on the demo's PGlite data (TypeScript config), cold",
              ['cpf get acme_pay title --scope eu/de', 'bare script: open PGlite, select the key'],
              get,
              GET_TARGET,
            ),
          ],
        };
      } finally {
        await rm(bare, { force: true });
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
};
