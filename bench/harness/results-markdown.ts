import { FAIRNESS_NOTES } from './fairness-notes';
import { FINDINGS } from './findings';
import { formatRatio, formatSide, formatTime, formatValue, formatVerdict, rateUnit } from './format';
import { MISS_NOTES } from './miss-notes';
import type { ReportSection, RunSettings, ScenarioResult } from './scenario';

/** What `bench/run.ts` writes to `results.json`, and renders here as markdown. */
export interface RunReport {
  readonly generatedAt: string;
  readonly environment: {
    readonly node: string;
    readonly platform: string;
    readonly cpu: string;
    readonly cores: number;
    readonly memoryGiB: number;
  };
  /** The machine's 1-minute load average at the start, at most during the run, at the end (absent in older reports). */
  readonly load?: { readonly start: number; readonly max: number; readonly end: number };
  readonly settings: RunSettings;
  readonly partial: boolean;
  readonly seconds: number;
  readonly results: readonly ScenarioResult[];
  /** The scenarios' detail sections (absent in reports written before they existed). */
  readonly sections?: readonly ReportSection[];
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The targets table (markdown), as shown in `bench/RESULTS.md` and `docs/performance.md`. */
export function renderTargetsTable(rows: readonly ScenarioResult[]): string {
  const lines = ['| scenario | subject | baseline | ratio | target | verdict |', '|---|---|---|---|---|---|'];
  for (const row of rows) {
    if (row.table !== 'targets') continue;
    if (row.skipped !== undefined) {
      lines.push(
        `| ${cell(row.title)} | ${row.failed ? 'failed' : 'skipped'}: ${cell(row.skipped)} | | | ${cell(row.target?.text ?? '')} | ${row.failed ? '❌ failed' : 'skipped'} |`,
      );
      continue;
    }
    lines.push(
      `| ${cell(row.title)} | ${cell(row.subject.label)}: ${formatSide(row.subject, row.metric, rateUnit(row))} ` +
        `| ${cell(row.baseline.label)}: ${formatSide(row.baseline, row.metric, rateUnit(row))} ` +
        `| ${formatRatio(row)} | ${cell(row.target?.text ?? '')} | ${formatVerdict(row)} |`,
    );
  }
  return lines.join('\n');
}

function sizedRows(rows: readonly ScenarioResult[], prefix: string): ScenarioResult[] {
  return rows
    .filter((row) => row.id.startsWith(prefix) && row.size !== undefined && row.skipped === undefined)
    .sort((a, b) => a.size! - b.size!);
}

/** The growth tables: GET all settings by number of settings, matching by number of routes. */
export function renderGrowthTables(rows: readonly ScenarioResult[]): string {
  const parts: string[] = [];
  const list = sizedRows(rows, 'list-pglite-');
  if (list.length > 0) {
    parts.push(
      '### GET all settings (PGlite, cold) by number of settings',
      '',
      '| settings | library | per setting | baseline | per setting | ratio (time) | queries per GET |',
      '|---|---|---|---|---|---|---|',
      ...list.map(
        (row) =>
          `| ${row.size} | ${formatTime(row.subject.value)} | ${formatTime(row.subject.value / row.size!)} ` +
          `| ${formatTime(row.baseline.value)} | ${formatTime(row.baseline.value / row.size!)} ` +
          `| ${row.ratio.toFixed(2)}× | ${row.checks?.queriesPerGet ?? ''} |`,
      ),
      '',
    );
  }
  const matching = sizedRows(rows, 'matching-');
  if (matching.length > 0) {
    parts.push(
      '### Route matching by number of routes',
      '',
      '| routes | library | per lookup | find-my-way | per lookup | ratio (throughput) |',
      '|---|---|---|---|---|---|',
      ...matching.map(
        (row) =>
          `| ${row.size} | ${formatSide(row.subject, 'throughput', 'lookups/s')} | ${formatTime(1e9 / row.subject.value)} ` +
          `| ${formatSide(row.baseline, 'throughput', 'lookups/s')} | ${formatTime(1e9 / row.baseline.value)} ` +
          `| ${row.ratio.toFixed(2)}× |`,
      ),
      '',
    );
  }
  return parts.join('\n');
}

/** The diagnostics table: rows without a target, and the HTTP servers' CPU time per request. */
export function renderDiagnostics(rows: readonly ScenarioResult[]): string {
  const lines = ['| diagnostic | library | baseline | ratio |', '|---|---|---|---|'];
  for (const row of rows) {
    if (row.skipped !== undefined) continue;
    if (row.table === 'diagnostics') {
      lines.push(
        `| ${cell(row.title)} | ${cell(row.subject.label)}: ${formatValue(row.subject.value, row.metric, rateUnit(row))} ` +
          `| ${cell(row.baseline.label)}: ${formatValue(row.baseline.value, row.metric, rateUnit(row))} | ${formatRatio(row)} |`,
      );
    }
    const ours = row.checks?.subjectServerCpuMicrosPerRequest;
    const theirs = row.checks?.baselineServerCpuMicrosPerRequest;
    if (typeof ours === 'number' && typeof theirs === 'number') {
      lines.push(
        `| server process CPU per request: ${cell(row.title)} | ${cell(row.subject.label)}: ${ours} µs ` +
          `| ${cell(row.baseline.label)}: ${theirs} µs | ${(ours / theirs).toFixed(2)}× time |`,
      );
    }
  }
  return lines.length === 2 ? '' : `${lines.join('\n')}\n`;
}

/** The scenarios' sections: prose, then each detail table in markdown. */
export function renderSections(sections: readonly ReportSection[]): string {
  const parts: string[] = [];
  for (const section of sections) {
    parts.push(`### ${section.title}`, '', ...section.intro.flatMap((paragraph) => [paragraph, '']));
    for (const table of section.tables) {
      if (table.caption !== '') parts.push(table.caption, '');
      parts.push(
        `| ${table.header.map(cell).join(' | ')} |`,
        `|${table.header.map(() => '---').join('|')}|`,
        ...table.rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
        '',
      );
    }
    parts.push(...(section.outro ?? []).flatMap((paragraph) => [paragraph, '']));
    const findings = FINDINGS[section.id];
    if (findings !== undefined) {
      parts.push('#### Where the library’s time goes (profiled) and proposed fixes', '');
      parts.push(...findings.flatMap((paragraph) => [paragraph, '']));
    }
  }
  return parts.join('\n');
}

function renderMisses(rows: readonly ScenarioResult[]): string {
  const missed = rows.filter((row) => row.met === false);
  if (missed.length === 0) return 'Every target with a measurement was met in this run.\n';
  return missed
    .map((row) => {
      const note = MISS_NOTES[row.id] ?? '_No analysis written yet for this miss._';
      return `### ${row.title}: ${formatRatio(row)} (target ${row.target?.text ?? ''})\n\n${note}\n`;
    })
    .join('\n');
}

function renderRounds(rows: readonly ScenarioResult[]): string {
  const lines = ['| scenario | per-round ratios |', '|---|---|'];
  for (const row of rows) {
    if (row.skipped !== undefined) continue;
    lines.push(`| ${row.id} | ${row.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')} |`);
  }
  return lines.join('\n');
}

/** The whole `bench/RESULTS.md`. */
export function renderResultsMarkdown(report: RunReport): string {
  const { environment: env, settings } = report;
  return [
    '# Benchmark results',
    '',
    '<!-- Generated by `npm run bench` (bench/run.ts); edit bench/harness/*.ts, not this file. -->',
    '',
    `Run of ${report.generatedAt} on ${env.cpu} (${env.cores} cores, ${env.memoryGiB} GiB), ` +
      `${env.platform}, Node ${env.node}; ${report.seconds.toFixed(0)} s in all` +
      (report.load === undefined
        ? ''
        : `; load average (1 min) ${report.load.start.toFixed(2)} at the start, ${report.load.max.toFixed(2)} at most, ` +
          `${report.load.end.toFixed(2)} at the end (the bench’s own processes included)`) +
      (report.partial ? ' (**partial run**: `--only` or `--quick`).' : '.'),
    '',
    'Every row compares the library (subject) with a baseline measured in the same run, alternating which goes ' +
      'first (the scenario details below say how the multi-process, percentile, closed-loop and size rows are made). ' +
      `In-process rows: ${settings.rounds} rounds of ${settings.timeMs} ms per side ` +
      `(after ${settings.warmupMs} ms of warm-up each), the median time per operation of each round; ` +
      `HTTP rows: ${settings.httpRounds} autocannon runs of ${settings.httpSeconds} s per side ` +
      `(${settings.httpConnections} keep-alive connections, pipelining ${settings.httpPipelining}), after a warm-up run each. ` +
      'The ratio is the median of the per-round ratios; the subject and baseline columns are the medians of their rounds. ' +
      'The machine is shared and noisy: trust the ratios, not the absolute numbers.',
    '',
    '## Targets',
    '',
    renderTargetsTable(report.results),
    '',
    '## How cost grows',
    '',
    renderGrowthTables(report.results),
    '## Diagnostics (no target)',
    '',
    'Each HTTP server process reports the CPU time it spent per request during the load runs (median over ' +
      'rounds); it varies much less than requests per second when other processes load the machine. The ' +
      'node:http listener row is the cost of one request inside the process without sockets: the listeners called ' +
      'with an `IncomingMessage` and a `ServerResponse` on a socket that discards what is written. Loopback HTTP ' +
      'spends most of its time in the kernel and in the load generator; these rows show the part the library ' +
      'controls. The other rows belong to the scenarios detailed below (their sections say how each is measured).',
    '',
    renderDiagnostics(report.results),
    '## Scenario details',
    '',
    renderSections(report.sections ?? []),
    '## Misses: cause and proposed fix',
    '',
    renderMisses(report.results),
    '## Fairness notes',
    '',
    ...FAIRNESS_NOTES.map((note) => `- ${note}`),
    '',
    '## Per-round ratios',
    '',
    renderRounds(report.results),
    '',
    '## Reproduce',
    '',
    '```sh',
    'npm ci',
    '# every scenario; the PostgreSQL and Redis ones skip (with the reason) unless these are set:',
    'DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npm run bench',
    'npm run bench -- --only=fetch,args # some scenarios (ids: get-value, fetch, own-work, args, matching, list, http-node,',
    '                                   # http-fastify, handler-cost, propagation, change-path, scopes, cold-start, writes, bundle)',
    'npm run bench -- --quick           # a short smoke run; writes to the temp directory too',
    '```',
    '',
    'Partial runs write `results.json` and `RESULTS.md` to `$TMPDIR/commerce-plugin-framework-bench/`, so this ' +
      'file always shows a full run. The PostgreSQL scenarios work in a schema of their own (`cpf_bench_<pid>_…`), ' +
      'dropped afterwards; the Redis one under a key prefix of its own, deleted afterwards. To profile a scenario: ' +
      '`node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/run.ts --only=args`, then ' +
      '`npx tsx bench/profile-summary.ts <.cpuprofile> [top] [filter]` (self and total time of the top functions; ' +
      'the main thread’s file is usually the largest, tsx’s loader thread writes one too); for the helper processes ' +
      '(HTTP servers, propagation readers, cold starts), `BENCH_CHILD_CPU_PROF=/tmp/prof npm run bench -- --only=…` ' +
      'writes one profile directory per process.',
    '',
  ].join('\n');
}
