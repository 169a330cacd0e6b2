/**
 * The package as users install it: packs it once with `npm pack` (whose `prepack` builds it)
 * from a staging folder, installs the tarball into a temporary folder laid out like an
 * installed dependency, then checks the build, `package.json`, the declarations under every
 * module system and TypeScript version users have, and the README examples.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as root from 'commerce-plugin-framework';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPoints } from '../../entries.config.ts';
import { CJS_CONSUMER, ESM_CONSUMER } from './consumers';

const run = promisify(execFile);
const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name);
/**
 * The TypeScript compilers users have: 5.9 (the project's own) and 7 (the native port, the
 * `typescript-7` alias). Both packages name their command `tsc`, so each is run by its path.
 */
const COMPILERS = {
  '5.9': join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
  '7': join(projectRoot, 'node_modules', 'typescript-7', 'bin', 'tsc'),
} as const;

/** Runs a compiler in the sandbox; resolves to what it printed (nothing when the program type-checks). */
async function typeCheck(compiler: keyof typeof COMPILERS, args: readonly string[]): Promise<string> {
  return run(process.execPath, [COMPILERS[compiler], ...args], { cwd: sandbox, timeout: 120_000 }).then(
    ({ stdout, stderr }) => `${stdout}${stderr}`,
    (error: { stdout?: string; stderr?: string; message: string }) =>
      `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message,
  );
}

interface PackageJson {
  name: string;
  version: string;
  type: string;
  license?: string;
  sideEffects?: boolean;
  engines?: { node?: string };
  files?: string[];
  main?: string;
  module?: string;
  types?: string;
  scripts?: Record<string, string>;
  bin?: Record<string, string>;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as PackageJson;

/** A temporary folder, inside the project's node_modules so that the package finds zod and co. like an install would. */
let sandbox: string;
/** The package as installed in the sandbox from its tarball: `<sandbox>/node_modules/commerce-plugin-framework`. */
let installed: string;
/** The build output: `<installed>/dist`. */
let dist: string;
/** The files `npm pack` put in the tarball. */
let packed: string[];

beforeAll(async () => {
  const cache = join(projectRoot, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  sandbox = await mkdtemp(join(cache, 'package-test-'));
  // The consumers' own package scope (else the project's package.json, further up, would be theirs).
  await writeFile(join(sandbox, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  // A staging copy of the package, so that test files running in parallel never see a
  // half-written dist/: `npm pack` there runs `prepack`, which builds into the staging folder.
  const staging = join(sandbox, 'staging');
  await mkdir(staging);
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE']) {
    await copyFile(join(projectRoot, file), join(staging, file));
  }
  const build = `"${bin('tsx')}" "${join(projectRoot, 'scripts/build/main.ts')}" --out-dir dist`;
  await writeFile(
    join(staging, 'package.json'),
    // `prepare` (which builds a git checkout on `npm ci`) would build a second time while packing.
    JSON.stringify({ ...manifest, scripts: { ...manifest.scripts, build, prepare: undefined } }, null, 2),
  );
  await run('npm', ['pack', '--pack-destination', sandbox], { cwd: staging, timeout: 170_000 });
  const tarball = join(sandbox, `${manifest.name}-${manifest.version}.tgz`);
  packed = (await run('tar', ['-tzf', tarball])).stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
  installed = join(sandbox, 'node_modules', manifest.name);
  dist = join(installed, 'dist');
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
}, 180_000);

afterAll(async () => {
  if (sandbox) await rm(sandbox, { recursive: true, force: true });
});

/** The module specifiers a built file imports or requires. */
function specifiersOf(code: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!));
}

/** A built file and every chunk it loads, transitively: path → code. */
async function withChunks(entry: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    const code = await readFile(file, 'utf8');
    files.set(file, code);
    for (const specifier of specifiersOf(code)) {
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
    }
  }
  return files;
}

const builtins = new Set(builtinModules.flatMap((name) => [name, name.split('/')[0]!]));

describe.each(['adapter-kit.js', 'adapter-kit.cjs'])('the adapter kit %s', (file) => {
  it('loads no node: module either, and holds what the root entry leaves out', async () => {
    for (const [path, code] of await withChunks(join(dist, file))) {
      expect(code, path).not.toMatch(/['"]node:[a-z_/]+['"]/);
    }
    const kit = (await import(pathToFileURL(join(dist, 'adapter-kit.js')).href)) as Record<string, unknown>;
    const root = (await import(pathToFileURL(join(dist, 'index.js')).href)) as Record<string, unknown>;
    for (const name of [
      'FetchExchange',
      'splitRequestUrl',
      'readChunksWithin',
      'toFetchResponse',
      'compileArgs',
    ]) {
      expect(kit[name], name).toBeTypeOf('function');
      expect(root, name).not.toHaveProperty(name);
    }
  });
});

describe.each(['index.js', 'index.cjs'])('the root entry %s', (file) => {
  it('loads no node: module and no Node built-in, in any chunk it imports', async () => {
    const files = await withChunks(join(dist, file));
    expect(files.size).toBeGreaterThan(0);
    for (const [path, code] of files) {
      const specifiers = specifiersOf(code);
      const offending = specifiers.filter(
        (specifier) => specifier.startsWith('node:') || builtins.has(specifier),
      );
      expect(offending, path).toEqual([]);
      expect(code, path).not.toMatch(/['"]node:[a-z_/]+['"]/);
    }
  });

  it('imports zod and fast-json-stable-stringify instead of inlining them', async () => {
    const files = await withChunks(join(dist, file));
    const specifiers = [...files.values()].flatMap(specifiersOf);
    // The settings codecs import `zod/mini` (a subpath of the zod dependency).
    expect(specifiers.filter((specifier) => specifier === 'zod' || specifier.startsWith('zod/'))).not.toEqual(
      [],
    );
    expect(specifiers).toContain('fast-json-stable-stringify');
    const code = [...files.values()].join('\n');
    expect(code).not.toContain('$ZodError'); // zod's own source
    expect(code).not.toContain('Converting circular structure to JSON'); // fast-json-stable-stringify's
    const bytes = [...files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    // A bound that inlining zod (~100 KB more) would break. 0.3's settings lifecycle (migrations,
    // rules, export/plan/apply/restore and their routes) added ~130 KB of its own to the whole
    // root entry; what a small app bundles after tree-shaking is the bench's bundle row. The
    // lifecycle code loaded on first use (import()) is in chunks of its own, each with the module
    // helpers of its format (a few KB in all). Versioned change messages added ~3 KB.
    expect(bytes).toBeLessThan(500_000);
  });
});

describe('package.json', () => {
  it('is named, typed as ESM, and points main/module/types at the build', async () => {
    expect(manifest.name).toBe('commerce-plugin-framework');
    expect(manifest.type).toBe('module');
    for (const target of [manifest.main, manifest.module, manifest.types]) {
      expect(target).toMatch(/^\.\/dist\//);
      expect(existsSync(join(installed, target!)), target).toBe(true);
    }
  });

  it('has an exports entry with types for ESM and CommonJS for every subpath of entries.config.ts', async () => {
    for (const subpath of Object.keys(entryPoints)) {
      const key = subpath === '.' ? '.' : `./${subpath}`;
      const entry = manifest.exports[key] as Record<string, Record<string, string>> | undefined;
      expect(entry, key).toBeDefined();
      for (const condition of ['import', 'require'] as const) {
        expect(Object.keys(entry![condition]!), `${key} ${condition}`).toEqual(['types', 'default']);
        expect(entry![condition]!.types).toMatch(condition === 'import' ? /\.d\.ts$/ : /\.d\.cts$/);
        expect(entry![condition]!.default).toMatch(condition === 'import' ? /\.js$/ : /\.cjs$/);
      }
    }
    expect(manifest.exports['./package.json']).toBe('./package.json');
  });

  it('every exports target exists after the build, for the entries whose source exists', async () => {
    const built = Object.entries(entryPoints).filter(([, source]) => existsSync(join(projectRoot, source)));
    expect(built.map(([subpath]) => subpath)).toContain('.');
    for (const [subpath] of built) {
      const entry = manifest.exports[subpath === '.' ? '.' : `./${subpath}`] as Record<
        string,
        Record<string, string>
      >;
      for (const condition of Object.values(entry)) {
        for (const target of Object.values(condition)) {
          expect(existsSync(join(installed, target)), `${subpath}: ${target}`).toBe(true);
        }
      }
    }
  });

  it('builds before npm packs it (prepack), so that the tarball holds the build', () => {
    expect(manifest.scripts?.prepack).toBe('npm run build');
    // The tarball was packed from a folder holding no build: prepack made this one.
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']) {
      expect(packed).toContain(file);
    }
    expect(
      packed.filter((file) => !/^(dist\/|package\.json$|README\.md$|CHANGELOG\.md$|LICENSE$)/.test(file)),
    ).toEqual([]);
  });

  it('declares no side effects, Node >= 20, a license and the files users need', async () => {
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.engines?.node).toBe('>=20');
    expect(manifest.license).toBe('MIT');
    expect(existsSync(join(projectRoot, 'LICENSE'))).toBe(true);
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'LICENSE']));
    for (const entry of manifest.files!)
      expect(entry).not.toMatch(/^(src|test|examples|docs|node_modules)\b/);
  });

  it('lists optional peers only as optional peerDependencies; zod, the stable stringify and the command line’s as dependencies', () => {
    const peers = Object.keys(manifest.peerDependencies ?? {});
    expect(peers.length).toBeGreaterThan(0);
    for (const peer of peers) {
      expect(manifest.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
      expect(manifest.dependencies?.[peer], peer).toBeUndefined();
    }
    // commander (with its typings) and jiti are the `cpf` program's: the entries never import them.
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual([
      '@commander-js/extra-typings',
      'commander',
      'fast-json-stable-stringify',
      'jiti',
      'zod',
    ]);
  });

  it('installs the cpf program: an executable ES module with a shebang, outside the exports map, that answers --help', async () => {
    expect(manifest.bin).toEqual({ cpf: './dist/cli/cpf.js' });
    expect(packed).toContain('dist/cli/cpf.js');
    expect(JSON.stringify(manifest.exports)).not.toContain('cli/');
    const file = join(installed, 'dist/cli/cpf.js');
    expect((await readFile(file, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect((await stat(file)).mode & 0o111).not.toBe(0);
    const { stdout } = await run(process.execPath, [file, '--help'], { cwd: sandbox, timeout: 15_000 });
    expect(stdout).toMatch(/^Usage: cpf /);
    for (const command of ['list', 'get', 'explain', 'set', 'unset', 'history', 'export', 'plan', 'apply']) {
      expect(stdout).toContain(`\n  ${command} `);
    }
  });
});

/**
 * A consumer's module settings: how its imports resolve. `node16` is where a CommonJS
 * declaration that reached an ES module one would fail (TS1479; `nodenext` allows it since 5.8).
 */
const RESOLUTIONS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  node16: { module: 'node16', moduleResolution: 'node16' },
  bundler: { module: 'preserve', moduleResolution: 'bundler' },
} as const;

describe('the declarations', () => {
  /** Every declaration file of the build, relative to dist/. */
  async function declarationFiles(): Promise<string[]> {
    const entries = await readdir(dist, { recursive: true });
    return entries.filter((path) => /\.d\.c?ts$/.test(path)).sort();
  }

  it('are in the tarball, for every exports target', async () => {
    for (const entry of Object.values(manifest.exports)) {
      if (typeof entry === 'string') continue;
      for (const condition of Object.values(entry as Record<string, Record<string, string>>)) {
        for (const target of Object.values(condition)) {
          expect(packed, target).toContain(target.replace(/^\.\//, ''));
        }
      }
    }
  });

  it('name only files of their own module system: .d.ts files name .js files, .d.cts files .cjs files', async () => {
    const files = await declarationFiles();
    expect(files.length).toBeGreaterThan(2 * Object.keys(entryPoints).length);
    for (const file of files) {
      const cjs = file.endsWith('.d.cts');
      if (!cjs) expect(files, file).toContain(file.replace(/\.d\.ts$/, '.d.cts'));
      const code = await readFile(join(dist, file), 'utf8');
      for (const { fileName: specifier } of ts.preProcessFile(code, true, true).importedFiles) {
        if (!specifier.startsWith('.')) continue;
        expect(specifier, file).toMatch(cjs ? /\.cjs$/ : /\.js$/);
        const target = resolve(dirname(join(dist, file)), specifier).replace(
          /\.c?js$/,
          cjs ? '.d.cts' : '.d.ts',
        );
        expect(existsSync(target), `${file}: ${specifier}`).toBe(true);
      }
    }
  });

  it('describe what the root entry exports, in both module systems', async () => {
    for (const file of ['index.d.ts', 'index.d.cts']) {
      const program = ts.createProgram([join(dist, file)], {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        noEmit: true,
        noLib: true,
        types: [],
      });
      const checker = program.getTypeChecker();
      const source = program.getSourceFile(join(dist, file))!;
      const names = checker
        .getExportsOfModule(checker.getSymbolAtLocation(source)!)
        .map((symbol) => symbol.name);
      expect(names, file).toEqual(
        expect.arrayContaining([...Object.keys(root), 'OptionStore', 'SettingObject']),
      );
    }
  });

  it('come from TypeScript 5.9 and 7 as named', async () => {
    expect(await typeCheck('5.9', ['--version'])).toMatch(/^Version 5\.9\./);
    expect(await typeCheck('7', ['--version'])).toMatch(/^Version 7\./);
  });

  describe.each(Object.keys(COMPILERS) as (keyof typeof COMPILERS)[])('with TypeScript %s', (compiler) => {
    beforeAll(async () => {
      await writeFile(join(sandbox, 'consumer.mts'), ESM_CONSUMER);
      await writeFile(join(sandbox, 'consumer.cts'), CJS_CONSUMER);
    });

    it.concurrent.each(Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[])(
      'type-check an ES module and a CommonJS consumer of every entry, moduleResolution %s',
      async (resolution) => {
        const config = `tsconfig.${compiler}.${resolution}.json`;
        await writeFile(
          join(sandbox, config),
          JSON.stringify({
            compilerOptions: {
              ...RESOLUTIONS[resolution],
              target: 'es2022',
              lib: ['es2023', 'dom'],
              strict: true,
              noEmit: true,
              types: ['node'],
              // Every declaration file is checked (ours, and those of the libraries they name),
              // except TypeScript's own lib files.
              skipLibCheck: false,
              skipDefaultLibCheck: true,
            },
            files: ['consumer.mts', 'consumer.cts'],
          }),
        );
        expect(await typeCheck(compiler, ['-p', config])).toBe('');
      },
      120_000,
    );
  });
});

describe('the built package, used from outside', () => {
  it('shares error classes between its ESM and CommonJS builds (one install, two copies)', async () => {
    const esm = (await import(pathToFileURL(join(dist, 'index.js')).href)) as typeof root;
    const cjs = createRequire(join(sandbox, 'consumer.cjs'))(manifest.name) as typeof root;
    expect(cjs.Framework_Plugin_Exception).not.toBe(esm.Framework_Plugin_Exception);
    for (const [from, to] of [
      [esm, cjs],
      [cjs, esm],
      [cjs, root],
      [root, cjs],
    ] as const) {
      expect(new from.Framework_Plugin_Exception('x', 400)).toBeInstanceOf(to.Framework_Plugin_Exception);
      expect(new from.OptionStoreError('set')).toBeInstanceOf(to.OptionStoreError);
      expect(new from.OptionStoreError('set')).not.toBeInstanceOf(to.Framework_Plugin_Exception);
      // The public subclasses carry brands of their own.
      const outdated = new from.SchemaOutdatedError('acme', 3, 2);
      expect(outdated).toBeInstanceOf(to.SchemaOutdatedError);
      expect(outdated).toBeInstanceOf(to.Framework_Plugin_Exception);
      expect(outdated).not.toBeInstanceOf(to.MigrationFailedError);
      expect(new from.PlanConflictError([], [])).toBeInstanceOf(to.PlanConflictError);
      expect(new from.Framework_Plugin_Exception('x')).not.toBeInstanceOf(to.SettingsRulesError);
    }
    // An error the other build's settings layer raises on purpose.
    class Settings extends cjs.Framework_Abstract_Settings {
      protected registerSettings(): void {
        this.registerSetting('mode', 'string', { options: ['live', 'test'] });
      }
    }
    const settings = new Settings('acme', new cjs.MemoryOptionStore());
    const error = await settings.updateValue('mode', 'demo').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(root.Framework_Plugin_Exception);
    expect(error).toBeInstanceOf(esm.Framework_Plugin_Exception);
    // Subclasses still use the prototype chain.
    class Own extends esm.Framework_Plugin_Exception {}
    expect(new cjs.Framework_Plugin_Exception('x')).not.toBeInstanceOf(Own);
    expect(new Own('x')).toBeInstanceOf(cjs.Framework_Plugin_Exception);
  });

  it('answers a RestError thrown and a RestResponse returned by a plugin built against the other build', async () => {
    const esm = (await import(pathToFileURL(join(dist, 'index.js')).href)) as typeof root;
    const cjs = createRequire(join(sandbox, 'consumer.cjs'))(manifest.name) as typeof root;
    for (const [from, to] of [
      [esm, cjs],
      [cjs, esm],
    ] as const) {
      expect(new from.RestError('x', 'y', 409)).toBeInstanceOf(to.RestError);
      expect(new from.RestResponse({}, 201)).toBeInstanceOf(to.RestResponse);
      expect(new from.RestResponse({})).not.toBeInstanceOf(to.RestError);
    }
    // A CommonJS plugin served by an ESM server.
    class Api extends cjs.Framework_REST_API {
      override registerRoutes(routes: root.RouteRegistry): void {
        routes.register('other/v1', '/conflict', {
          methods: 'GET',
          permission: cjs.allowPublic(),
          handler: () => {
            throw new cjs.RestError('other_conflict', 'Item 7 is locked.', 409, { item: 7 });
          },
        });
        routes.register('other/v1', '/created', {
          methods: 'GET',
          permission: cjs.allowPublic(),
          handler: () => new cjs.RestResponse({ id: 7 }, 201, { Location: '/api/other/v1/items/7' }),
        });
      }
    }
    class OtherBuildPlugin extends cjs.Framework_Plugin {
      constructor() {
        super({ id: 'other', name: 'Other', version: '1.0.0' });
      }
      protected override initRestApiHandler(): void {
        this.restApiHandler = new Api(this);
      }
    }
    const server = esm.createRestServer({ plugins: [new OtherBuildPlugin()] });
    const conflict = await server.fetch(new Request('http://localhost/api/other/v1/conflict'));
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      code: 'other_conflict',
      message: 'Item 7 is locked.',
      data: { status: 409, item: 7 },
    });
    const created = await server.fetch(new Request('http://localhost/api/other/v1/created'));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/other/v1/items/7');
    expect(await created.json()).toEqual({ id: 7 });
  });

  it('loads under plain Node through the exports map, with require and with import', async () => {
    const script = [
      "const cjs = require('commerce-plugin-framework');",
      "import('commerce-plugin-framework').then((esm) => {",
      '  const store = new cjs.MemoryOptionStore();',
      '  console.log(typeof cjs.Framework_Abstract_Settings, typeof esm.Framework_Abstract_Settings,',
      "    new esm.Framework_Plugin_Exception('x') instanceof cjs.Framework_Plugin_Exception, typeof store.watch);",
      '});',
    ].join('\n');
    await writeFile(join(sandbox, 'both.cjs'), script);
    const { stdout } = await run(process.execPath, ['both.cjs'], { cwd: sandbox, timeout: 30_000 });
    expect(stdout.trim()).toBe('function function true function');
  });

  it('runs the README’s first example as written', async () => {
    const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
    const section = readme.split(/^## A first settings class\s*$/m)[1];
    expect(section, 'README.md has a "## A first settings class" section').toBeDefined();
    const example = /```ts\n([\s\S]*?)```/.exec(section!)?.[1];
    expect(example, 'the section has a ```ts block').toBeDefined();
    expect(example).toContain("from 'commerce-plugin-framework'");
    const javascript = ts.transpileModule(example!, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    await writeFile(join(sandbox, 'readme-example.mjs'), javascript);
    const { stdout, stderr } = await run(process.execPath, ['readme-example.mjs'], {
      cwd: sandbox,
      timeout: 30_000,
    });
    expect(stderr).toBe('');
    expect(stdout.trim().split('\n')).toEqual(['true', 'test']);
  });

  it('type-checks and runs the README’s definePlugin example against the built package', async () => {
    const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
    const section = readme.split(/^The same plugin in one declaration.*$/m)[1];
    const example = /```ts\n([\s\S]*?)```/.exec(section ?? '')?.[1];
    expect(example, 'README.md has the definePlugin example').toBeDefined();
    const program = `${example}\nconst answer = await server.fetch(new Request('http://localhost/api/acme/v1/quotes/7'));\nconsole.log(JSON.stringify(await answer.json()));\nexport {};\n`;
    await writeFile(join(sandbox, 'define-plugin.mts'), program);
    await writeFile(
      join(sandbox, 'define-plugin.tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['define-plugin.mts'],
      }),
    );
    expect(await typeCheck('5.9', ['-p', 'define-plugin.tsconfig.json'])).toBe('');
    const javascript = ts.transpileModule(program, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    await writeFile(join(sandbox, 'define-plugin.mjs'), javascript);
    const { stdout } = await run(process.execPath, ['define-plugin.mjs'], { cwd: sandbox, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ id: 7, mode: 'test' });
  }, 120_000);

  it('ships source maps and declarations next to the code of every entry', async () => {
    for (const subpath of Object.keys(entryPoints)) {
      const name = subpath === '.' ? 'index' : subpath;
      for (const file of [`${name}.js.map`, `${name}.cjs.map`, `${name}.d.ts`, `${name}.d.cts`]) {
        expect((await stat(join(dist, file))).size, file).toBeGreaterThan(0);
      }
    }
  });
});
