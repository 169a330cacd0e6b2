import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Metafile, type OutputFile, type Plugin } from 'esbuild';
import { type BundleMap, bundleMap, outputsLoadedAtStart } from '../fixtures/bundle/bundle-map';
import { formatBytes } from '../harness/format';
import type {
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
} from '../harness/scenario';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIBRARY = `${ROOT}src/index.ts`;
const SCHEMAS = `${ROOT}bench/fixtures/bundle/`;

/** What is bundled: an entry's source text, resolved from the repository's root. */
interface BundleEntry {
  readonly name: string;
  readonly source: string;
  /** Packages left out of the bundle (imported at run time). */
  readonly external?: readonly string[];
  /** Rewrite `import { z } from 'zod'` as `import * as z from 'zod'` in the sources first. */
  readonly namespaceZod?: boolean;
}

const NAMED_ZOD_IMPORT = "import { z } from 'zod';";

/**
 * Loads the repository's TypeScript files with `import { z } from 'zod'` rewritten as
 * `import * as z from 'zod'`: the same calls on the same schemas, but a namespace import, which
 * esbuild can tree-shake member by member (the named `z` is an object re-exported by zod's
 * entry, whose every member — every schema kind, the JSON-Schema converters, the locales —
 * stays in the bundle).
 */
const namespaceZodImport: Plugin = {
  name: 'namespace-zod-import',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(ROOT) || args.path.includes('node_modules')) return undefined;
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replace(NAMED_ZOD_IMPORT, "import * as z from 'zod';"), loader: 'ts' };
    });
  },
};

/** One bundle's sizes. */
interface BundleSize {
  readonly name: string;
  readonly minified: number;
  readonly gzipped: number;
  /** Bytes of the minified output that come from zod's files. */
  readonly zodBytes: number;
  /** What the bytes are made of. */
  readonly metafile: Metafile;
}

/** A code-split build's sizes: what loads before the entry runs, and what loads on first use. */
interface SplitSize {
  readonly name: string;
  /** Minified bytes of the outputs loaded at start. */
  readonly startMinified: number;
  /** Their gzipped bytes, each output compressed alone (as separate files are served). */
  readonly startGzipped: number;
  /** Minified bytes of the chunks loaded only through `import()`. */
  readonly lazyMinified: number;
  readonly lazyGzipped: number;
  readonly map: BundleMap;
}

/** A small app as an edge runtime would deploy it: one plugin with three settings, bearer auth, `export default { fetch }`. */
const LIBRARY_APP = `
import { bearerTokenAuth, createRestServer, Framework_Abstract_Settings, Framework_Plugin, MemoryOptionStore } from '${LIBRARY}';
class Settings extends Framework_Abstract_Settings {
  registerSettings() {
    this.registerSetting('enabled', 'boolean', { name: 'Enabled', default: false });
    this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
    this.registerSetting('webhook', 'url', { name: 'Webhook' });
  }
}
class Plugin extends Framework_Plugin {
  settings = new Settings('acme', new MemoryOptionStore());
  constructor() { super({ id: 'acme', name: 'Acme', version: '1.0.0' }); }
  getSettingsHandler() { return this.settings; }
}
const server = createRestServer({ plugins: [new Plugin()], authenticate: bearerTokenAuth([['bench-token-0123456789', { id: 1, capabilities: ['manage_commerce'] }]]) });
export default { fetch: server.fetch };
`;

/** The same size of app in Hono: one route with a parameter, answering JSON. */
const HONO_APP = `
import { Hono } from 'hono';
const app = new Hono();
app.get('/api/commerce/v3/acme/settings/:id', (c) => c.json({ id: c.req.param('id') }));
export default app;
`;

const ENTRIES: readonly BundleEntry[] = [
  { name: 'library app', source: LIBRARY_APP },
  { name: 'library app, zod external', source: LIBRARY_APP, external: ['zod'] },
  { name: 'library root entry (everything)', source: `export * from '${LIBRARY}';` },
  {
    name: 'library root entry, zod external',
    source: `export * from '${LIBRARY}';`,
    external: ['zod'],
  },
  { name: 'library app, zod imported as a namespace', source: LIBRARY_APP, namespaceZod: true },
  { name: 'Hono app', source: HONO_APP },
  { name: 'Hono main entry (everything)', source: `export * from 'hono';` },
  { name: 'setting-type schemas, classic zod', source: `export * from '${SCHEMAS}classic-schemas.ts';` },
  {
    name: 'the same schemas, classic zod imported as a namespace',
    source: `export * from '${SCHEMAS}classic-schemas.ts';`,
    namespaceZod: true,
  },
  { name: 'the same schemas, zod/mini', source: `export * from '${SCHEMAS}mini-schemas.ts';` },
];

/**
 * Bundles `entry` as an edge runtime's bundler would: esbuild, platform neutral, ESM, the
 * worker/browser export conditions, minified and tree-shaken; returns the output's size
 * minified and gzipped (level 9), and zod's share of the minified bytes.
 */
function buildOptions(entry: BundleEntry): BuildOptions {
  return {
    stdin: { contents: entry.source, resolveDir: ROOT, loader: 'ts', sourcefile: `${entry.name}.ts` },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['worker', 'browser'],
    target: 'es2022',
    minify: true,
    treeShaking: true,
    metafile: true,
    legalComments: 'none',
    external: [...(entry.external ?? [])],
    plugins: entry.namespaceZod === true ? [namespaceZodImport] : [],
    logLevel: 'silent',
    absWorkingDir: ROOT,
  };
}

/** Runs esbuild with `options` (always `write: false`, `metafile: true`). */
async function runBuild(options: BuildOptions): Promise<{ files: OutputFile[]; metafile: Metafile }> {
  const result = await build(options);
  if (result.outputFiles === undefined || result.metafile === undefined) {
    throw new Error('bundle: esbuild returned no output files or metafile');
  }
  return { files: result.outputFiles, metafile: result.metafile };
}

async function bundleSize(entry: BundleEntry): Promise<BundleSize> {
  const result = await runBuild(buildOptions(entry));
  const output = result.files[0];
  if (output === undefined) throw new Error(`bundle: no output for ${entry.name}`);
  let zodBytes = 0;
  for (const meta of Object.values(result.metafile.outputs)) {
    for (const [input, info] of Object.entries(meta.inputs)) {
      if (input.includes('node_modules/zod/')) zodBytes += info.bytesInOutput;
    }
  }
  return {
    name: entry.name,
    minified: output.contents.byteLength,
    gzipped: gzipSync(output.contents, { level: 9 }).byteLength,
    zodBytes,
    metafile: result.metafile,
  };
}

/** The output folder of code-split builds (nothing is written). */
const SPLIT_DIR = `${ROOT}.bundle-split`;

/**
 * Bundles `entry` as {@link bundleSize} does, but with code splitting (ESM chunks, as a runtime
 * that loads modules — Deno, Workers with `find_additional_modules`, a browser — serves them):
 * the chunks reached only through `import()` load on a first use, not at start.
 */
async function splitSize(entry: BundleEntry): Promise<SplitSize> {
  const result = await runBuild({ ...buildOptions(entry), splitting: true, outdir: SPLIT_DIR });
  const entryOutput = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint);
  if (entryOutput === undefined) throw new Error(`bundle: no entry output for ${entry.name}`);
  const atStart = outputsLoadedAtStart(result.metafile, entryOutput[0]);
  let startMinified = 0;
  let startGzipped = 0;
  let lazyMinified = 0;
  let lazyGzipped = 0;
  for (const file of result.files) {
    const path = relative(ROOT, file.path);
    const gzipped = gzipSync(file.contents, { level: 9 }).byteLength;
    if (atStart.has(path)) {
      startMinified += file.contents.byteLength;
      startGzipped += gzipped;
    } else {
      lazyMinified += file.contents.byteLength;
      lazyGzipped += gzipped;
    }
  }
  return {
    name: entry.name,
    startMinified,
    startGzipped,
    lazyMinified,
    lazyGzipped,
    map: bundleMap(result.metafile, atStart),
  };
}

const MAP_FOLDERS = 15;
const MAP_FILES = 25;

/** The largest entries of a bundle map as table rows: source, minified bytes, share. */
function mapRows(entries: BundleMap['folders'], top: number, total: number): string[][] {
  return entries
    .slice(0, top)
    .map(([source, bytes]) => [source, formatBytes(bytes), `${((bytes / total) * 100).toFixed(1)}%`]);
}

function sizeRow(id: string, title: string, subject: BundleSize, baseline: BundleSize): ScenarioResult {
  return {
    id,
    table: 'diagnostics',
    title,
    metric: 'size',
    subject: { label: subject.name, value: subject.gzipped, rounds: [subject.gzipped] },
    baseline: { label: baseline.name, value: baseline.gzipped, rounds: [baseline.gzipped] },
    ratio: subject.gzipped / baseline.gzipped,
    roundRatios: [subject.gzipped / baseline.gzipped],
    checks: {
      subjectMinified: subject.minified,
      baselineMinified: baseline.minified,
      subjectZodBytes: subject.zodBytes,
    },
  };
}

/** The budget for the small app: 25 kB gzipped. */
const APP_BUDGET_BYTES = 25_000;

/** The small app against the budget (a fixed size, not a measured baseline). */
function budgetRow(app: BundleSize): ScenarioResult {
  const ratio = app.gzipped / APP_BUDGET_BYTES;
  return {
    id: 'bundle-app-budget',
    table: 'targets',
    title: 'bundle, small app as one file, gzipped, against the budget',
    metric: 'size',
    subject: { label: app.name, value: app.gzipped, rounds: [app.gzipped] },
    baseline: { label: 'budget: 25 kB gzipped', value: APP_BUDGET_BYTES, rounds: [APP_BUDGET_BYTES] },
    ratio,
    roundRatios: [ratio],
    target: { kind: 'size', ratio: 1, text: '≤ 25 kB gzipped' },
    met: ratio <= 1,
    checks: { subjectMinified: app.minified },
  };
}

const INTRO: readonly string[] = [
  'What an edge deployment ships: each entry bundled by esbuild (the bundler of Wrangler, Vercel and Netlify ' +
    'functions) for platform `neutral`, ESM, with the `worker` and `browser` export conditions, minified and ' +
    'tree-shaken; sizes are of the one output file, raw and gzipped (level 9). The library is bundled from its ' +
    'sources (the built package is the same esbuild output, unminified). “App” entries are what a small deployment ' +
    'imports: for the library one plugin with three settings, bearer auth and `export default { fetch }`; for Hono ' +
    'one route answering JSON. “Everything” entries re-export the whole main entry. zod’s share is the minified ' +
    'bytes of zod’s files in the output (esbuild’s metafile).',
  '**Code-split.** Bundlers that emit one file (Wrangler’s default, Vercel, Netlify) inline what the library ' +
    'loads with `import()`; runtimes that load modules (Deno, Workers uploading additional modules, a browser) ' +
    'fetch those chunks on first use. The code-split row bundles the small app with esbuild’s `splitting` and ' +
    'counts what loads before the app runs (the entry and the chunks it imports statically, each gzipped alone); ' +
    'the chunks only `import()` reaches are shown apart. The bundle maps give the minified bytes each source ' +
    'folder and file contributes (esbuild’s metafile, `bytesInOutput`).',
  '**zod/mini.** The library uses little of zod: `string`, `number`, `boolean`, `unknown`, `array`, `refine`, ' +
    '`superRefine`, custom error functions and `safeParse`, and sets every message itself. The last two rows bundle ' +
    'the same schemas rebuilt in a scratch copy (`bench/fixtures/bundle/`), once with classic zod and once with ' +
    '`zod/mini`; their difference estimates what moving the codecs to `zod/mini` would save.',
];

/** Minified and gzipped bundle sizes of the root entry and a small app, with and without zod, against Hono's. */
export const bundleScenario: Scenario = {
  id: 'bundle',
  title: 'bundle size for an edge runtime (esbuild, minified, gzipped) vs Hono',
  async run(_settings: RunSettings): Promise<ScenarioOutput> {
    const sizes = new Map<string, BundleSize>();
    for (const entry of ENTRIES) sizes.set(entry.name, await bundleSize(entry));
    const get = (name: string) => sizes.get(name)!;
    const split = await splitSize({ name: 'library app, code-split ESM', source: LIBRARY_APP });
    const hono = get('Hono app');
    const classic = get('setting-type schemas, classic zod');
    const mini = get('the same schemas, zod/mini');
    const app = get('library app');
    const rows = [
      budgetRow(app),
      sizeRow('bundle-app', 'bundle, small app, gzipped (library vs Hono)', app, get('Hono app')),
      sizeRow(
        'bundle-app-no-zod',
        'bundle, small app without zod, gzipped (library vs Hono)',
        get('library app, zod external'),
        get('Hono app'),
      ),
      sizeRow(
        'bundle-root',
        'bundle, whole main entry, gzipped (library vs Hono)',
        get('library root entry (everything)'),
        get('Hono main entry (everything)'),
      ),
      {
        ...sizeRow(
          'bundle-app-start',
          'bundle, small app as code-split ESM, loaded at start, gzipped (library vs Hono)',
          {
            name: 'library app, loaded at start',
            minified: split.startMinified,
            gzipped: split.startGzipped,
            zodBytes: 0,
            metafile: { inputs: {}, outputs: {} },
          },
          hono,
        ),
        checks: {
          subjectMinified: split.startMinified,
          baselineMinified: hono.minified,
          lazyMinified: split.lazyMinified,
          lazyGzipped: split.lazyGzipped,
        },
      },
      sizeRow(
        'bundle-zod-mini',
        'bundle, the setting-type schemas, gzipped (zod/mini vs classic zod)',
        mini,
        classic,
      ),
    ];
    const estimate = app.gzipped - classic.gzipped + mini.gzipped;
    const appMap = bundleMap(app.metafile);
    const section: ReportSection = {
      id: 'bundle',
      title: 'Bundle size for an edge runtime',
      intro: INTRO,
      tables: [
        {
          caption: 'Sizes:',
          header: ['entry', 'minified', 'gzipped', 'of which zod (minified)'],
          rows: [...sizes.values()].map((size) => [
            size.name,
            formatBytes(size.minified),
            formatBytes(size.gzipped),
            size.zodBytes === 0
              ? '—'
              : `${formatBytes(size.zodBytes)} (${((size.zodBytes / size.minified) * 100).toFixed(0)}%)`,
          ]),
        },
        {
          caption: 'The small app as code-split ESM: what loads at start and what on first use (`import()`):',
          header: ['part', 'minified', 'gzipped'],
          rows: [
            ['loaded at start', formatBytes(split.startMinified), formatBytes(split.startGzipped)],
            ['loaded on first use', formatBytes(split.lazyMinified), formatBytes(split.lazyGzipped)],
          ],
        },
        {
          caption: `Bundle map of the small app (one file), minified bytes per source folder (top ${MAP_FOLDERS}):`,
          header: ['folder', 'minified', 'share'],
          rows: mapRows(appMap.folders, MAP_FOLDERS, app.minified),
        },
        {
          caption: `… per source file (top ${MAP_FILES}):`,
          header: ['file', 'minified', 'share'],
          rows: mapRows(appMap.files, MAP_FILES, app.minified),
        },
        {
          caption: `Bundle map of what the code-split small app loads at start, per source folder (top ${MAP_FOLDERS}):`,
          header: ['folder', 'minified', 'share'],
          rows: mapRows(split.map.folders, MAP_FOLDERS, split.startMinified),
        },
      ],
      outro: [
        `Estimated small app with the codecs on \`zod/mini\`: about ${formatBytes(estimate)} gzipped ` +
          `(${formatBytes(app.gzipped)} today; ${formatBytes(get('library app, zod external').gzipped)} without zod at all). ` +
          'The trade: `zod/mini` has no method chaining (the codecs are written with `check`/`refine` functions) and ' +
          'loads no locale, so any message a schema does not set itself reads “Invalid input” — the library sets all of ' +
          'its own, so its messages would not change.',
      ],
    };
    return { rows, sections: [section] };
  },
};
