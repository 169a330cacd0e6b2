/**
 * `npm run bench`: runs every scenario (each in a fresh child process), prints the table, writes `bench/results.json` and
 * `bench/RESULTS.md`. Options: `--only=id,id` (scenario ids), `--quick` (a short smoke run,
 * not for publishing). A partial run (either option) writes its files to a temporary
 * directory instead, so the published results stay those of the last full run.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printSections, printTable } from './harness/console-table';
import { renderReadmeTable, replaceReadmeTable } from './harness/readme-table';
import { renderResultsMarkdown } from './harness/results-markdown';
import type {
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
} from './harness/scenario';
import { failedRow } from './harness/skipped-row';
import { argsVsAjvScenario } from './scenarios/args-vs-ajv';
import { buildScenario } from './scenarios/build';
import { bundleScenario } from './scenarios/bundle';
import { changePathScenario } from './scenarios/change-path';
import { cliScenario } from './scenarios/cli';
import { coldStartScenario } from './scenarios/cold-start';
import { fetchVsHonoScenario } from './scenarios/fetch-vs-hono';
import { getValueScenario } from './scenarios/get-value';
import { handlerCostScenario } from './scenarios/handler-cost';
import { httpFastifyScenario, httpNodeScenario } from './scenarios/http-end-to-end';
import { lifecycleScenario } from './scenarios/lifecycle';
import { listPgliteScenario } from './scenarios/list-pglite';
import { ownWorkScenario } from './scenarios/own-work';
import { propagationScenario } from './scenarios/propagation';
import { routeMatchingScenario } from './scenarios/route-matching';
import { scopesScenario } from './scenarios/scopes';
import { soakScenario } from './scenarios/soak';
import { writesScenario } from './scenarios/writes';

const SCENARIOS: readonly Scenario[] = [
  getValueScenario,
  fetchVsHonoScenario,
  ownWorkScenario,
  argsVsAjvScenario,
  routeMatchingScenario,
  listPgliteScenario,
  httpNodeScenario,
  httpFastifyScenario,
  handlerCostScenario,
  propagationScenario,
  changePathScenario,
  scopesScenario,
  coldStartScenario,
  writesScenario,
  lifecycleScenario,
  bundleScenario,
  buildScenario,
  cliScenario,
  soakScenario,
];

const FULL: RunSettings = {
  rounds: 7,
  timeMs: 250,
  warmupMs: 100,
  httpRounds: 7,
  httpSeconds: 3,
  httpConnections: 16,
  httpPipelining: 1,
  propagationSamples: 1000,
  freshProcesses: 5,
  scopeCounts: [1_000, 10_000, 100_000],
};

const QUICK: RunSettings = {
  rounds: 3,
  timeMs: 60,
  warmupMs: 30,
  httpRounds: 1,
  httpSeconds: 1,
  httpConnections: 16,
  httpPipelining: 1,
  propagationSamples: 100,
  freshProcesses: 2,
  scopeCounts: [1_000, 10_000],
};

/** The run's environment, written next to the numbers (ratios travel, absolute times do not). */
export interface RunEnvironment {
  readonly node: string;
  readonly platform: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
}

function environment(): RunEnvironment {
  const list = cpus();
  return {
    node: process.version,
    platform: `${platform()} ${release()}`,
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

interface Arguments {
  readonly only: Set<string> | null;
  readonly quick: boolean;
  /** Set in the child process that runs one scenario. */
  readonly child: string | null;
}

function parseArguments(argv: readonly string[]): Arguments {
  let only: Set<string> | null = null;
  let quick = false;
  let child: string | null = null;
  for (const argument of argv) {
    if (argument === '--quick') quick = true;
    else if (argument.startsWith('--only=')) only = new Set(argument.slice(7).split(',').filter(Boolean));
    else if (argument.startsWith('--child=')) child = argument.slice(8);
    else throw new Error(`unknown option ${argument}; use --only=id,id and/or --quick`);
  }
  if (only !== null) {
    const known = new Set(SCENARIOS.map((scenario) => scenario.id));
    for (const id of only) {
      if (!known.has(id)) throw new Error(`unknown scenario "${id}"; known: ${[...known].join(', ')}`);
    }
  }
  return { only, quick, child };
}

/** The first lines of an error's stack (or its text), for a failed scenario's row. */
function describeError(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return text.split('\n').slice(0, 3).join(' ').replace(/\s+/g, ' ').slice(0, 400);
}

/**
 * In the child: runs one scenario and sends its rows to the parent; a scenario that throws
 * sends one failed row with the error instead (the run goes on with the next scenario).
 */
async function runChild(id: string, settings: RunSettings): Promise<void> {
  const scenario = SCENARIOS.find((candidate) => candidate.id === id);
  if (scenario === undefined || process.send === undefined)
    throw new Error(`--child=${id}: no such scenario or no IPC`);
  let output: ScenarioOutput;
  try {
    output = await scenario.run(settings);
  } catch (error) {
    console.error(error);
    output = { rows: [failedRow(scenario, describeError(error))] };
  }
  await new Promise<void>((resolve, reject) =>
    process.send?.(output, (error: Error | null) => (error ? reject(error) : resolve())),
  );
  // Connections a failed scenario left open must not keep its process alive.
  process.exit(0);
}

/**
 * Runs one scenario in a fresh child process (same Node flags, so `--cpu-prof` and tsx carry
 * over): no scenario inherits another's JIT state, inline caches or garbage.
 */
function runInChild(scenario: Scenario, quick: boolean): Promise<ScenarioOutput> {
  const argv = [`--child=${scenario.id}`, ...(quick ? ['--quick'] : [])];
  const child = fork(fileURLToPath(import.meta.url), argv, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let output: ScenarioOutput | null = null;
    child.on('message', (message) => {
      output = message as ScenarioOutput;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (output !== null) resolve(output);
      else
        resolve({
          rows: [failedRow(scenario, `its process exited (code ${code}, signal ${signal}) without results`)],
        });
    });
  });
}

async function main(): Promise<void> {
  const { only, quick, child } = parseArguments(process.argv.slice(2));
  const settings = quick ? QUICK : FULL;
  if (child !== null) {
    await runChild(child, settings);
    return;
  }
  const started = Date.now();
  // The machine's load (1-minute average) at the start, at most during the run, at the end.
  const load = { start: loadavg()[0]!, max: loadavg()[0]!, end: 0 };
  const loadSampler = setInterval(() => {
    load.max = Math.max(load.max, loadavg()[0]!);
  }, 5_000);
  loadSampler.unref();
  const rows: ScenarioResult[] = [];
  const sections: ReportSection[] = [];
  for (const scenario of SCENARIOS) {
    if (only !== null && !only.has(scenario.id)) continue;
    const scenarioStarted = Date.now();
    console.log(`• ${scenario.title} …`);
    const output = await runInChild(scenario, quick);
    rows.push(...output.rows);
    sections.push(...(output.sections ?? []));
    console.log(`  ${((Date.now() - scenarioStarted) / 1000).toFixed(1)} s`);
  }
  const seconds = (Date.now() - started) / 1000;
  clearInterval(loadSampler);
  load.end = loadavg()[0]!;
  load.max = Math.max(load.max, load.end);
  console.log();
  printTable(rows);
  printSections(sections);
  console.log(`\n${rows.length} rows in ${seconds.toFixed(0)} s`);

  const directory =
    quick || only !== null
      ? pathToFileURL(`${tmpdir()}/commerce-plugin-framework-bench/`)
      : new URL('./', import.meta.url);
  await mkdir(directory, { recursive: true });
  const report = {
    generatedAt: new Date().toISOString(),
    environment: environment(),
    load,
    settings,
    partial: quick || only !== null,
    seconds,
    results: rows,
    sections,
  };
  await writeFile(new URL('results.json', directory), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(new URL('RESULTS.md', directory), renderResultsMarkdown(report));
  console.log(`wrote ${new URL('results.json', directory).pathname} and RESULTS.md`);
  if (!report.partial) {
    // A full run also refreshes README.md's performance table (between its markers).
    const readmeUrl = new URL('../README.md', import.meta.url);
    const readme = await readFile(readmeUrl, 'utf8');
    const updated = replaceReadmeTable(readme, renderReadmeTable(rows));
    if (updated !== readme) {
      await writeFile(readmeUrl, updated);
      // The project's formatter aligns markdown tables; format the file so that `npm run lint` stays clean.
      execFileSync(process.execPath, [biomeBin(), 'format', '--write', fileURLToPath(readmeUrl)], {
        stdio: 'ignore',
      });
      console.log(`updated the performance table in ${readmeUrl.pathname}`);
    }
  }
}

/** The Biome CLI of this checkout (a devDependency). */
function biomeBin(): string {
  return fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));
}

await main();
