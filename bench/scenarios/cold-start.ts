import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  COLD_START_PLUGINS,
  COLD_START_SETTINGS,
  type ColdStartMode,
  type ColdStartReport,
  type ColdStartTimings,
  type ScopeCreation,
} from '../fixtures/cold-start-protocol';
import { childExecArgv } from '../harness/child-exec-argv';
import { formatTime } from '../harness/format';
import { median } from '../harness/interleaved';
import type {
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
} from '../harness/scenario';

const ENTRY = fileURLToPath(new URL('../servers/cold-start.ts', import.meta.url));
const TIMEOUT_MS = 120_000;
const MS = 1e6;

/** Runs one fresh cold-start process and returns its report. */
function runFresh(mode: ColdStartMode, run: number, extra: readonly string[] = []): Promise<ColdStartReport> {
  const child = fork(ENTRY, [mode, ...extra], {
    execArgv: childExecArgv(`cold-start-${mode}-${run}`),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let report: ColdStartReport | null = null;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`cold start (${mode}) did not finish within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    child.on('message', (message) => {
      report = message as ColdStartReport;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0 && report !== null) resolve(report);
      else reject(new Error(`cold start (${mode}) exited with code ${code}`));
    });
  });
}

type Phase = keyof ColdStartTimings;

const medianOf = (runs: readonly ColdStartTimings[], phase: Phase) =>
  median(runs.map((timings) => timings[phase] ?? Number.NaN));

/** From `createRestServer` (registration included) to the first answered GET, in ms. */
const toFirstGet = (timings: ColdStartTimings) =>
  (timings.registerMs ?? 0) + (timings.serverMs ?? 0) + (timings.firstGetMs ?? 0);

const INTRO: readonly string[] = [
  `${COLD_START_PLUGINS} plugins × ${COLD_START_SETTINGS} settings (the fixture’s seven types, every third with a ` +
    'default), each on a memory store holding all its values, in a fresh process per run (the runs of each side ' +
    'alternate). The library: every `registerSettings` (which `createRestServer` would trigger itself; run first ' +
    'here to time it apart), `createRestServer`, then the first `server.fetch` GET of one setting, whose plugin ' +
    'loads its 50 values then. The peer: the same settings containers with their routes written in Hono, and the ' +
    'same first GET through `app.request`. Times are medians over the fresh processes, under tsx (imports include ' +
    'transpiling).',
  '**Codec compile** is measured alone in further fresh processes: the `compileValueCodec` calls `registerSetting` ' +
    'makes for the same 1,000 settings (the element codec, the setting’s codec, its default checked), so it can be ' +
    'read against the registration time it is part of.',
  '**Nothing compiled per scope.** One container of 20 settings reads a value at many new scopes in a row ' +
    '(each a cold read of a new scope level on a memory store, the default `maxCachedScopes` of 1,000 evicting the ' +
    'oldest): the time per new scope must stay flat from the first thousand to the last, and every setting must ' +
    'keep the very codec object it was registered with (codecs are only ever made by `registerSetting`).',
];

/**
 * Cold start (target ≤ 1.2× Hono): from registration and `createRestServer` with 20 plugins × 50
 * settings to the first answered GET, split into phases, against the same settings served by
 * Hono; codec compilation alone; and new scopes created without compiling anything.
 */
export const coldStartScenario: Scenario = {
  id: 'cold-start',
  title: 'cold start: 20 plugins × 50 settings to the first GET (fresh processes)',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const library: ColdStartTimings[] = [];
    const hono: ColdStartTimings[] = [];
    const codecs: ColdStartTimings[] = [];
    for (let run = 0; run < settings.freshProcesses; run++) {
      const order: ColdStartMode[] =
        run % 2 === 0 ? ['library', 'hono', 'codecs'] : ['codecs', 'hono', 'library'];
      for (const mode of order) {
        const { timings } = await runFresh(mode, run);
        if (timings === undefined) throw new Error(`cold start (${mode}): no timings`);
        (mode === 'library' ? library : mode === 'hono' ? hono : codecs).push(timings);
      }
    }
    const scopeCount = settings.scopeCounts.at(-1) ?? 1_000;
    const { scopes } = await runFresh('scopes', 0, [String(scopeCount)]);
    if (scopes === undefined) throw new Error('cold start (scopes): no report');

    const ours = library.map(toFirstGet);
    const theirs = hono.map(toFirstGet);
    const ratios = ours.map((value, index) => value / theirs[index]!);
    const row: ScenarioResult = {
      id: 'cold-start',
      table: 'targets',
      title: `cold start, ${COLD_START_PLUGINS} plugins × ${COLD_START_SETTINGS} settings: registration → first GET answered`,
      metric: 'time',
      subject: { label: 'createRestServer', value: median(ours) * MS, rounds: ours.map((ms) => ms * MS) },
      baseline: {
        label: 'Hono routes over the same settings',
        value: median(theirs) * MS,
        rounds: theirs.map((ms) => ms * MS),
      },
      ratio: median(ratios),
      roundRatios: ratios,
      target: { kind: 'time', ratio: 1.2, text: '≤ 1.2× Hono' },
      met: median(ratios) <= 1.2,
      checks: {
        freshProcesses: settings.freshProcesses,
        codecCompileMs: Number(medianOf(codecs, 'codecsMs').toFixed(2)),
        sameCodecsAfterScopes: scopes.sameCodecs,
      },
    };
    const cellOf = (runs: readonly ColdStartTimings[], phase: Phase) =>
      formatTime(medianOf(runs, phase) * MS);
    const phaseRow = (title: string, phase: Phase) => [title, cellOf(library, phase), cellOf(hono, phase)];
    const section: ReportSection = {
      id: 'cold-start',
      title: 'Cold start',
      intro: INTRO,
      tables: [
        {
          caption: 'Phases (medians over fresh processes):',
          header: ['phase', 'library', 'Hono over the same settings'],
          rows: [
            phaseRow('import the modules (tsx: transpiling included)', 'importMs'),
            phaseRow(
              'Node’s fetch classes loaded (first Request/Response, before either side)',
              'fetchClassesMs',
            ),
            phaseRow(`construct ${COLD_START_PLUGINS} settings containers and stores`, 'constructMs'),
            phaseRow(
              `registration (${COLD_START_PLUGINS * COLD_START_SETTINGS} registerSetting calls)`,
              'registerMs',
            ),
            [
              '… of which codec compile (measured alone)',
              cellOf(codecs, 'codecsMs'),
              cellOf(codecs, 'codecsMs'),
            ],
            phaseRow('createRestServer / the Hono routes', 'serverMs'),
            phaseRow('first GET: load of the plugin’s 50 values, answer, body read', 'firstGetMs'),
            [
              'registration → first GET answered',
              formatTime(median(ours) * MS),
              formatTime(median(theirs) * MS),
            ],
          ],
        },
        scopeTable(scopes),
      ],
    };
    return { rows: [row], sections: [section] };
  },
};

function scopeTable(scopes: ScopeCreation) {
  return {
    caption: `${scopes.scopes.toLocaleString('en-US')} new scopes read one after the other by one container of 20 settings (memory store):`,
    header: [
      'scopes',
      'per new scope, first 1,000',
      'per new scope, last 1,000',
      'same codec objects',
      'cached at the end',
    ],
    rows: [
      [
        scopes.scopes.toLocaleString('en-US'),
        formatTime(scopes.firstMicros * 1_000),
        formatTime(scopes.lastMicros * 1_000),
        scopes.sameCodecs ? 'yes' : 'NO',
        scopes.cachedScopes.toLocaleString('en-US'),
      ],
    ],
  };
}
