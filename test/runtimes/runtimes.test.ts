/**
 * The runtime-agnostic entries (root, `/adapter-kit`, `/openapi`, `/admin`, `/hono`) on every
 * runtime they claim: the self-test app (test/runtimes/app/) runs on Node, Bun, Deno and
 * Cloudflare's workerd (through Miniflare, with and without `nodejs_compat`, i.e. with and
 * without `AsyncLocalStorage`) against the built package in dist/, and every check of its
 * report must pass. On Node, Bun and Deno the app imports the package by name, resolved
 * through its `exports` map; for workerd it is bundled as a Worker is (esbuild, the `workerd`
 * and `worker` conditions). All runtimes come from npm dev dependencies: nothing is
 * downloaded. Under `REQUIRE_SERVICES=1` a runtime that cannot run fails the test.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOST_TIMER_MS } from '../../src/settings/store-calls';
import { ensureBuilt } from '../support/ensure-built';
import { STORE_TIMEOUT_MS } from './app/hanging-store';
import type { SelfTestReport } from './app/self-test';
import { type FoundBinary, findRuntime } from './runtime-binaries';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const MODULES = join(ROOT, 'node_modules');
const DIST = join(ROOT, 'dist');
const REQUIRED = process.env.REQUIRE_SERVICES === '1';
/** A compatibility date this workerd (miniflare's) supports. */
const COMPATIBILITY_DATE = '2025-09-01';
/** How much later than `storeTimeoutMs` a timed-out request may answer. */
const ANSWER_SLACK_MS = 1500;

/** The sandbox: the package as installed (its dist/ the project's), and the app bundled. */
let sandbox: string;
let cliScript: string;
let workerScript: string;
const runtimes = new Map<'bun' | 'deno', FoundBinary>();

beforeAll(async () => {
  await ensureBuilt('runtimes test');
  const cache = join(MODULES, '.cache');
  await mkdir(cache, { recursive: true });
  sandbox = await mkdtemp(join(cache, 'runtimes-test-'));
  // Its own package scope and TypeScript settings (else the project's paths would map the package to src/).
  await writeFile(
    join(sandbox, 'package.json'),
    JSON.stringify({ name: 'self-test', private: true, type: 'module' }),
  );
  await writeFile(join(sandbox, 'tsconfig.json'), '{}');
  const installed = join(sandbox, 'node_modules', 'commerce-plugin-framework');
  await mkdir(installed, { recursive: true });
  await writeFile(join(installed, 'package.json'), await readFile(join(ROOT, 'package.json')));
  await symlink(DIST, join(installed, 'dist'), 'dir');

  // The app as JavaScript, the package and Hono left for each runtime to resolve.
  const app = join(import.meta.dirname, 'app');
  const external = ['commerce-plugin-framework', 'commerce-plugin-framework/*', 'hono', 'hono/*'];
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'silent',
  } as const;
  cliScript = join(sandbox, 'cli.mjs');
  const workerSource = join(sandbox, 'worker-source.mjs');
  await Promise.all([
    build({ ...common, entryPoints: [join(app, 'cli.ts')], outfile: cliScript, external, tsconfigRaw: '{}' }),
    build({
      ...common,
      entryPoints: [join(app, 'worker.ts')],
      outfile: workerSource,
      external,
      tsconfigRaw: '{}',
    }),
  ]);
  // The Worker: one module, bundled from the sandbox as a Worker build does.
  const bundled = await build({
    ...common,
    entryPoints: [workerSource],
    write: false,
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
  });
  workerScript = bundled.outputFiles[0]!.text;

  for (const runtime of ['bun', 'deno'] as const) runtimes.set(runtime, await findRuntime(MODULES, runtime));
}, 180_000);

afterAll(async () => {
  if (sandbox) await rm(sandbox, { recursive: true, force: true });
});

/** Expects every check of `report` to have passed (the failing ones in the message). */
function expectAllPassed(report: SelfTestReport): void {
  expect(report.checks.length).toBeGreaterThanOrEqual(9);
  expect(report.checks.filter((check) => !check.ok)).toEqual([]);
}

/** Runs the self-test program with `command` and reads its report. */
async function runCli(
  command: string,
  args: readonly string[],
): Promise<SelfTestReport & { resolved: string }> {
  const { stdout } = await run(command, [...args, cliScript], {
    cwd: sandbox,
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(sandbox, '.deno') },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as SelfTestReport & { resolved: string };
}

/** The built root entry, as the runtime resolved it (Node and Bun follow the sandbox's dist/ link to the project's). */
const BUILT_ROOT = /\/dist\/index\.js$/;

describe('the self-test app', () => {
  it('passes every check on Node, resolving the built package', async () => {
    const report = await runCli(process.execPath, []);
    expect(report.runtime).toBe('node');
    expect(report.resolved).toMatch(BUILT_ROOT);
    expect(report.asyncWriteContexts).toBe(true);
    expectAllPassed(report);
  });

  for (const runtime of ['bun', 'deno'] as const) {
    it(`passes every check on ${runtime === 'bun' ? 'Bun' : 'Deno'}, resolving the built package`, async (context) => {
      const found = runtimes.get(runtime)!;
      if ('missing' in found) {
        if (REQUIRED)
          throw new Error(`${found.missing}; REQUIRE_SERVICES=1: this runtime may not be skipped`);
        console.warn(`skipped: ${found.missing}`);
        context.skip();
        return;
      }
      const args =
        runtime === 'bun' ? ['run'] : ['run', '--node-modules-dir=manual', '--no-prompt', '--quiet'];
      const report = await runCli(found.path, args);
      expect(report.runtime).toBe(runtime);
      expect(report.resolved).toMatch(BUILT_ROOT);
      expect(report.asyncWriteContexts).toBe(true);
      expectAllPassed(report);
    });
  }
});

/** Starts the self-test Worker on workerd. */
async function startWorker(compatibilityFlags: readonly string[]): Promise<Miniflare> {
  const worker = new Miniflare({
    modules: true,
    script: workerScript,
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: [...compatibilityFlags],
  });
  await worker.ready;
  return worker;
}

/**
 * The store-timeout scenario over several requests: a healthy read (its request arms the
 * deadline timer and ends), `pauseMs` of nothing, then two reads in a row on the hanging store:
 * each must answer 503 `rest_store_unavailable` after about `storeTimeoutMs`.
 */
async function expectTimeoutsAfterWarmRead(worker: Miniflare, pauseMs: number): Promise<void> {
  expect((await worker.dispatchFetch('http://self.test/hang/warm')).status).toBe(200);
  expect((await worker.dispatchFetch('http://self.test/hang/on')).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  for (const scope of ['a', 'b']) {
    const started = performance.now();
    const answer = await worker.dispatchFetch(`http://self.test/hang/read?scope=${scope}`);
    const elapsed = performance.now() - started;
    const body = await answer.text();
    expect({ status: answer.status, body: body.slice(0, 300) }).toMatchObject({
      status: 503,
      body: expect.stringContaining('"rest_store_unavailable"'),
    });
    expect(elapsed).toBeGreaterThanOrEqual(STORE_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(STORE_TIMEOUT_MS + ANSWER_SLACK_MS);
  }
}

describe.each([
  ['with nodejs_compat (AsyncLocalStorage)', ['nodejs_compat'], true],
  ['without nodejs_compat (no AsyncLocalStorage)', [], false],
] as const)('the self-test Worker on workerd (Miniflare), %s', (_name, compatibilityFlags, asyncContexts) => {
  let worker: Miniflare;
  beforeAll(async () => {
    worker = await startWorker(compatibilityFlags);
  }, 60_000);
  afterAll(async () => {
    await worker?.dispose();
  });

  it('passes every check', async () => {
    const answer = await worker.dispatchFetch('http://self.test/self-test');
    expect(answer.status).toBe(200);
    const report = (await answer.json()) as SelfTestReport;
    expect(report.runtime).toBe('workerd');
    expect(report.asyncWriteContexts).toBe(asyncContexts);
    expectAllPassed(report);
  });

  it('enforces storeTimeoutMs in every request: two hanging reads after a healthy one answer 503 in time', async () => {
    await expectTimeoutsAfterWarmRead(worker, 0);
  });
});

describe('the self-test Worker on workerd, not recognised as a Worker (no navigator.userAgent)', () => {
  let worker: Miniflare;
  beforeAll(async () => {
    worker = await startWorker(['no_global_navigator']);
  }, 60_000);
  afterAll(async () => {
    await worker?.dispose();
  });

  it('finds the shared deadline timer lost once it is overdue, and enforces the limit from then on', async () => {
    // The healthy read's timer died with its request; a later call finds it past its time.
    await expectTimeoutsAfterWarmRead(worker, STORE_TIMEOUT_MS + LOST_TIMER_MS + 200);
  });
});
