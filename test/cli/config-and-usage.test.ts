/**
 * The program around the commands: `--help` without a config, usage errors (exit 2, one line,
 * `cli_usage`), config discovery (`.ts`, `.mts`, `.js`, `.mjs`, the first found; `--config`), a
 * config that fails to load, stores closed once each and the config's `close()` last (on
 * success and on failure), a store that fails (exit 7, one line, `cli_store_failed`), and a
 * process that ends by itself.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/ensure-built';
import { fixtureFolder, jsonError, jsonOut, ROOT, removeFolder, runCli } from './support/cli-run';

const DIST_INDEX = JSON.stringify(join(ROOT, 'dist', 'index.js'));

/** A config (JavaScript or TypeScript) with one plugin `id` on a memory store. */
function memoryConfig(id: string): string {
  return `import { defineCliConfig, Framework_Abstract_Settings, Framework_Plugin, MemoryOptionStore } from ${DIST_INDEX};
class Settings extends Framework_Abstract_Settings {
  registerSettings() { this.registerSetting('greeting', 'string', { default: 'hello from ${id}' }); }
}
class Plugin extends Framework_Plugin {
  settings = new Settings('${id}', new MemoryOptionStore());
  getSettingsHandler() { return this.settings; }
}
export default defineCliConfig({ plugins: [new Plugin({ id: '${id}', name: '${id}', version: '1' })] });
`;
}

let empty: string;
let fixture: string;

beforeAll(async () => {
  await ensureBuilt('cli test');
  empty = await mkdtemp(join(tmpdir(), 'cpf-empty-'));
  fixture = await fixtureFolder();
}, 120_000);

afterAll(async () => {
  await removeFolder(empty);
  await removeFolder(fixture);
});

describe('cpf as a program', { timeout: 120_000 }, () => {
  it('prints help without a config (exit 0) and refuses what it does not know (exit 2, one line)', async () => {
    const help = await runCli(['--help'], { cwd: empty });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cpf \[options\] \[command\]/);
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stderr).toBe('');
    const commandHelp = await runCli(['apply', '--help'], { cwd: empty });
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain('--plan-id <id>');
    const version = await runCli(['--version'], { cwd: empty });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    const nothing = await runCli([], { cwd: empty });
    expect(nothing.code).toBe(2);
    for (const args of [['frobnicate'], ['list', '--colour'], ['get', 'shop'], ['restore', 'shop']]) {
      const result = await runCli([...args, '--json'], { cwd: empty });
      expect(result.code, args.join(' ')).toBe(2);
      expect(jsonError(result).code).toBe('cli_usage');
      expect(result.stdout).toBe('');
    }
    // Standard output not a terminal: errors are JSON even without --json.
    const piped = await runCli(['frobnicate'], { cwd: empty });
    expect(jsonError(piped)).toEqual({ code: 'cli_usage', message: "unknown command 'frobnicate'" });
  });

  it('finds cpf.config.ts, .mts, .js, .mjs in that order, or --config; exit 2 without one or when it fails to load', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'cpf-discovery-'));
    try {
      const names = ['ts', 'mts', 'js', 'mjs'];
      for (const extension of names) {
        await writeFile(join(folder, `cpf.config.${extension}`), memoryConfig(`from-${extension}`));
      }
      for (const extension of names) {
        const result = await runCli(['list'], { cwd: folder });
        expect(result.code, result.stderr).toBe(0);
        expect(jsonOut(result)).toEqual([
          { id: `from-${extension}`, name: `from-${extension}`, version: '1' },
        ]);
        await rm(join(folder, `cpf.config.${extension}`));
      }
      const missing = await runCli(['list'], { cwd: folder });
      expect(missing.code).toBe(2);
      expect(jsonError(missing).message).toMatch(/^No config found: put a cpf\.config\.ts/);

      await writeFile(join(folder, 'other.mts'), memoryConfig('explicit'));
      const explicit = await runCli(['get', 'explicit', 'greeting', '--config', 'other.mts'], {
        cwd: folder,
      });
      expect(jsonOut(explicit)).toMatchObject({ value: 'hello from explicit', origin: null });
      const absent = await runCli(['list', '--config', 'nope.ts'], { cwd: folder });
      expect(absent.code).toBe(2);

      await writeFile(
        join(folder, 'throws.ts'),
        "const reason: string = 'the database URL is missing';\nthrow new Error(reason + '\\n    at somewhere (x.ts:1:1)');\n",
      );
      const throws = await runCli(['list', '--config', 'throws.ts'], { cwd: folder });
      expect(throws.code).toBe(2);
      expect(throws.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(jsonError(throws).message).toMatch(/failed to load: the database URL is missing$/);
      await writeFile(join(folder, 'wrong.mjs'), 'export default { plugins: "none" };\n');
      const wrong = await runCli(['list', '--config', 'wrong.mjs'], { cwd: folder });
      expect(wrong.code).toBe(2);
      expect(jsonError(wrong).code).toBe('cli_usage');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('closes each distinct store once and then the config, on success and on failure; the process ends by itself', async () => {
    const log = join(fixture, 'closes.log');
    const env = { CPF_TEST_STORE: 'memory', CPF_TEST_CLOSE_LOG: log };
    const ok = await runCli(['list', 'shop'], { cwd: fixture, env });
    expect(ok.code).toBe(0);
    expect(await readFile(log, 'utf8')).toBe('store-a\nstore-b\nconfig\n');
    await rm(log);
    const failed = await runCli(['get', 'shop', 'colour'], { cwd: fixture, env });
    expect(failed.code).toBe(5);
    expect(await readFile(log, 'utf8')).toBe('store-a\nstore-b\nconfig\n');
    // Nothing was left open: the guard that ends a lingering process never spoke.
    for (const result of [ok, failed]) expect(result.stderr).not.toContain('left something open');
  });

  it('exit 7 and one line when the store fails', async () => {
    const env = {
      CPF_TEST_STORE: 'postgres',
      // Nothing listens on port 1: every query of the pool fails.
      CPF_TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    };
    const json = await runCli(['get', 'shop', 'title'], { cwd: fixture, env });
    expect(json.code).toBe(7);
    expect(jsonError(json).code).toBe('cli_store_failed');
    expect(json.stdout).toBe('');
    const list = await runCli(['list', 'shop'], { cwd: fixture, env });
    expect(list.code).toBe(7);
    expect(jsonError(list)).toEqual({
      code: 'cli_store_failed',
      message: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});
