/**
 * `npm run bench`: runs every scenario, prints the table, writes `bench/results.json` and
 * `bench/RESULTS.md`. Options: `--only=id,id` (scenario ids), `--quick` (a short smoke run,
 * not for publishing). A partial run (either option) writes its files to a temporary
 * directory instead, so the published results stay those of the last full run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { pathToFileURL } from 'node:url';
import { printTable } from './harness/console-table';
import { renderResultsMarkdown } from './harness/results-markdown';
import type { RunSettings, Scenario, ScenarioResult } from './harness/scenario';
import { argsVsAjvScenario } from './scenarios/args-vs-ajv';
import { fetchVsHonoScenario } from './scenarios/fetch-vs-hono';
import { getValueScenario } from './scenarios/get-value';
import { handlerCostScenario } from './scenarios/handler-cost';
import { httpFastifyScenario, httpNodeScenario } from './scenarios/http-end-to-end';
import { listPgliteScenario } from './scenarios/list-pglite';
import { routeMatchingScenario } from './scenarios/route-matching';

const SCENARIOS: readonly Scenario[] = [
  getValueScenario,
  fetchVsHonoScenario,
  argsVsAjvScenario,
  routeMatchingScenario,
  listPgliteScenario,
  httpNodeScenario,
  httpFastifyScenario,
  handlerCostScenario,
];

const FULL: RunSettings = {
  rounds: 7,
  timeMs: 250,
  warmupMs: 100,
  httpRounds: 7,
  httpSeconds: 3,
  httpConnections: 16,
  httpPipelining: 1,
};

const QUICK: RunSettings = {
  rounds: 3,
  timeMs: 60,
  warmupMs: 30,
  httpRounds: 1,
  httpSeconds: 1,
  httpConnections: 16,
  httpPipelining: 1,
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

function parseArguments(argv: readonly string[]): { only: Set<string> | null; quick: boolean } {
  let only: Set<string> | null = null;
  let quick = false;
  for (const argument of argv) {
    if (argument === '--quick') quick = true;
    else if (argument.startsWith('--only=')) only = new Set(argument.slice(7).split(',').filter(Boolean));
    else throw new Error(`unknown option ${argument}; use --only=id,id and/or --quick`);
  }
  if (only !== null) {
    const known = new Set(SCENARIOS.map((scenario) => scenario.id));
    for (const id of only) {
      if (!known.has(id)) throw new Error(`unknown scenario "${id}"; known: ${[...known].join(', ')}`);
    }
  }
  return { only, quick };
}

async function main(): Promise<void> {
  const { only, quick } = parseArguments(process.argv.slice(2));
  const settings = quick ? QUICK : FULL;
  const started = Date.now();
  const rows: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) {
    if (only !== null && !only.has(scenario.id)) continue;
    const scenarioStarted = Date.now();
    process.stdout.write(`• ${scenario.title} … `);
    const results = await scenario.run(settings);
    rows.push(...results);
    console.log(`${((Date.now() - scenarioStarted) / 1000).toFixed(1)} s`);
  }
  const seconds = (Date.now() - started) / 1000;
  console.log();
  printTable(rows);
  console.log(`\n${rows.length} rows in ${seconds.toFixed(0)} s`);

  const directory =
    quick || only !== null
      ? pathToFileURL(`${tmpdir()}/commerce-plugin-framework-bench/`)
      : new URL('./', import.meta.url);
  await mkdir(directory, { recursive: true });
  const report = {
    generatedAt: new Date().toISOString(),
    environment: environment(),
    settings,
    partial: quick || only !== null,
    seconds,
    results: rows,
  };
  await writeFile(new URL('results.json', directory), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(new URL('RESULTS.md', directory), renderResultsMarkdown(report));
  console.log(`wrote ${new URL('results.json', directory).pathname} and RESULTS.md`);
}

await main();
