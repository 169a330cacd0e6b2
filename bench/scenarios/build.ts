/**
 * `npm run build` (issue 24: 55 s in 0.2, target ≤ 15 s on these machines with the same outputs):
 * the package's build script run into a temporary folder, one fresh process per run, against the
 * issue's 15-second budget. Each run's output is checked: every entry of `entries.config.ts` has
 * its ESM `.js`, CommonJS `.cjs`, `.d.ts` and `.d.cts`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { entryPoints } from '../../entries.config.ts';
import { median } from '../harness/interleaved';
import type { RunSettings, Scenario, ScenarioOutput, ScenarioResult } from '../harness/scenario';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUDGET_MS = 15_000;
const MS = 1e6;

/** The files every entry must have in `outDir`, missing ones listed. */
function missingOutputs(outDir: string): string[] {
  const missing: string[] = [];
  for (const [subpath, source] of Object.entries(entryPoints)) {
    if (!existsSync(join(ROOT, source))) continue;
    const name = subpath === '.' ? 'index' : subpath.replace(/^\.\//, '');
    for (const extension of ['.js', '.cjs', '.d.ts', '.d.cts']) {
      if (!existsSync(join(outDir, `${name}${extension}`))) missing.push(`${name}${extension}`);
    }
  }
  return missing;
}

/** One build into a fresh temporary folder: its wall time in ms. */
async function timedBuild(): Promise<number> {
  const outDir = await mkdtemp(join(tmpdir(), 'cpf-bench-build-'));
  try {
    const started = performance.now();
    await run(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/build/main.ts'), '--out-dir', outDir],
      {
        cwd: ROOT,
        maxBuffer: 16 << 20,
      },
    );
    const elapsed = performance.now() - started;
    const missing = missingOutputs(outDir);
    if (missing.length > 0) throw new Error(`build: missing outputs ${missing.join(', ')}`);
    return elapsed;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** `npm run build` against the 15 s budget. */
export const buildScenario: Scenario = {
  id: 'build',
  title: '`npm run build` (code, source maps, declarations of every entry) against a 15 s budget',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const runs: number[] = [];
    const count = settings.rounds >= 7 ? 3 : 1;
    for (let index = 0; index < count; index++) runs.push(await timedBuild());
    const ms = median(runs);
    const ratio = ms / BUDGET_MS;
    const row: ScenarioResult = {
      id: 'build',
      table: 'targets',
      title: '`npm run build`: ESM, CJS, `.d.ts` and `.d.cts` of every entry',
      metric: 'time',
      subject: {
        label: `build script, fresh process (median of ${count})`,
        value: ms * MS,
        rounds: runs.map((each) => each * MS),
      },
      baseline: { label: 'budget: 15 s', value: BUDGET_MS * MS, rounds: [BUDGET_MS * MS] },
      ratio,
      roundRatios: runs.map((each) => each / BUDGET_MS),
      target: { kind: 'time', ratio: 1, text: '≤ 15 s' },
      met: ratio <= 1,
    };
    return { rows: [row] };
  },
};
