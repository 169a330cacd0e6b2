/**
 * `cpf list`, `get`, `explain`, `history`, `export` and `status` run as a program against a
 * store (PostgreSQL when DATABASE_URL is set, else PGlite), their JSON compared with what the
 * library itself answers on the same data afterwards; the exit codes of a missing setting,
 * plugin or scope and of an invalid scope.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSystemStatus } from '../../src/rest/status-report';
import { BIN, childEnv, jsonError, jsonOut } from './support/cli-run';
import { type CliSession, cliSession, quickestStore } from './support/cli-session';

const SECRET = 'sk_live_read_test_4711';

let session: CliSession;

const cpf = (...args: string[]) => session.cpf(args);

beforeAll(async () => {
  session = await cliSession(quickestStore());
  await session.library(async ({ shop, blog }) => {
    // The values CLIs in the field get wrong: 0 and '' stored (not "missing"), a scope winning.
    await shop.updateValue('fee', 0);
    await shop.updateValue('note', '');
    await shop.updateValue('title', 'Global shop');
    await shop.updateValue('api_key', SECRET);
    await shop.scope('eu').updateValue('title', 'EU shop');
    await shop.scope('eu/de').updateValues([
      { id: 'fee', value: 2.5 },
      { id: 'retries', value: 0 },
    ]);
    await blog.updateValue('per_page', 20);
  });
}, 120_000);

afterAll(async () => {
  // Whatever was asked, the secret never left the program.
  session.expectNeverPrinted([SECRET]);
  await session.remove();
});

// A run on PGlite opens the database each time (a second or more on a loaded machine): generous timeouts.
describe('cpf read commands', { timeout: 240_000 }, () => {
  it('list, get, explain: JSON as the library answers it (0 and "" are values, the scope that wins is named)', async () => {
    const plugins = await cpf('list', '--json');
    const settings = await cpf('list', 'shop', '--scope', 'eu/de');
    const fee = await cpf('get', 'shop', 'fee');
    const note = await cpf('get', 'shop', 'note', '--json');
    const deFee = await cpf('get', 'shop', 'fee', '--scope', 'eu/de');
    const explained = await cpf('explain', 'shop', 'fee', '--scope', 'eu/de');
    const secret = await cpf('explain', 'shop', 'api_key', '--scope', 'eu');
    for (const result of [plugins, settings, fee, note, deFee, explained, secret]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
    }
    expect(jsonOut(plugins)).toEqual([
      { id: 'shop', name: 'Shop', version: '2.1.0' },
      { id: 'blog', name: 'Blog', version: '2.1.0' },
      { id: 'static', name: 'Static pages', version: '2.1.0' },
    ]);
    expect(jsonOut(fee)).toMatchObject({ value: 0, origin: '' });
    expect(jsonOut(note)).toMatchObject({ value: '', origin: '' });
    expect(jsonOut(deFee)).toMatchObject({ value: 2.5, origin: 'eu/de' });

    await session.library(async ({ shop }) => {
      const de = shop.scope('eu/de');
      const expected = await Promise.all(
        (await de.getSettingObjects()).map(async (object) => ({
          id: object.id,
          type: object.type,
          value: object.value,
          origin: await de.getOrigin(object.id),
        })),
      );
      expect(jsonOut(settings)).toEqual(expected);
      expect(expected.find((row) => row.id === 'api_key')).toEqual({
        id: 'api_key',
        type: 'string',
        value: '********',
        origin: '',
      });
      expect(jsonOut(fee)).toEqual({ value: 0, origin: '', etag: await shop.getETag('fee') });
      expect(jsonOut(deFee)).toEqual({ value: 2.5, origin: 'eu/de', etag: await de.getETag('fee') });
      expect(jsonOut(explained)).toEqual({
        value: await de.getValue('fee'),
        origin: await de.getOrigin('fee'),
        default: 1.5,
        etag: await de.getETag('fee'),
        chain: [
          { scope: 'eu/de', value: await de.getOwnValue('fee') },
          { scope: 'eu', value: await shop.scope('eu').getOwnValue('fee') },
          { scope: '', value: await shop.level('').getOwnValue('fee') },
        ],
      });
      expect(jsonOut(explained)).toMatchObject({ chain: [{ value: 2.5 }, { value: null }, { value: 0 }] });
      expect(jsonOut(secret)).toEqual({
        value: '********',
        origin: '',
        default: null,
        etag: await shop.scope('eu').getETag('api_key'),
        chain: [
          { scope: 'eu', value: null },
          { scope: '', value: '********' },
        ],
      });
    });
  });

  it('history, export (standard output and -o file) and status agree with the library', async () => {
    const all = await cpf('history', 'shop', '--limit', '3');
    const titles = await cpf('history', 'shop', 'title', '--scope', 'eu');
    const one = await cpf('export', 'shop');
    const both = await cpf('export');
    const file = join(session.folder, 'settings.json');
    const written = await cpf('export', '-o', file);
    const status = await cpf('status');
    for (const result of [all, titles, one, both, written, status])
      expect(result.code, result.stderr).toBe(0);
    expect(jsonOut(written)).toMatchObject({ file, plugins: ['shop', 'blog'] });

    await session.library(async ({ shop, blog, all: plugins }) => {
      expect(jsonOut(all)).toEqual(await shop.getHistory({ limit: 3 }));
      expect(jsonOut(titles)).toEqual(await shop.getHistory({ settingId: 'title', scope: 'eu', limit: 20 }));
      expect(one.stdout).toBe(`${JSON.stringify(await shop.exportSettings())}\n`);
      const documents = [await shop.exportSettings(), await blog.exportSettings()];
      expect(both.stdout).toBe(`${JSON.stringify(documents)}\n`);
      expect(await readFile(file, 'utf8')).toBe(`${JSON.stringify(documents)}\n`);
      const report = await buildSystemStatus(plugins, 'x');
      expect(jsonOut(status)).toEqual(
        plugins.map((plugin) => ({ id: plugin.getId(), ...(report[`x_${plugin.getId()}`] as object) })),
      );
    });
    expect(jsonOut<{ levels: Record<string, Record<string, unknown>> }>(one).levels['']!.api_key).toEqual({
      $secret: expect.stringMatching(/^fp1:/),
    });
    expect(jsonOut(status)).toEqual([
      expect.objectContaining({
        id: 'shop',
        schema_version: { stored: 1, code: 1 },
        secrets_encrypted: true,
        unreadable_secrets: [],
        plaintext_secrets: [],
      }),
      expect.objectContaining({ id: 'blog', schema_version: { stored: 1, code: 1 } }),
      expect.objectContaining({ id: 'static', settings: {} }),
    ]);
  });

  it('exit 5 for an unknown setting or scope, 2 for an unknown plugin or one without settings, 3 for an invalid scope', async () => {
    const unknownSetting = await cpf('get', 'shop', 'colour');
    const unknownScope = await cpf('list', 'shop', '--scope', 'nowhere/else');
    const unknownPlugin = await cpf('explain', 'forum', 'title');
    const noSettings = await cpf('list', 'static');
    const invalidScope = await cpf('get', 'shop', 'fee', '--scope', 'eu//de');
    expect(
      [unknownSetting, unknownScope, unknownPlugin, noSettings, invalidScope].map((r) => r.code),
    ).toEqual([5, 5, 2, 2, 3]);
    expect(jsonError(unknownSetting).code).toBe('rest_setting_not_found');
    expect(jsonError(unknownScope).code).toBe('rest_scope_not_found');
    expect(jsonError(unknownPlugin)).toEqual({
      code: 'cli_usage',
      message: 'Unknown plugin "forum" (the config has: shop, blog, static).',
    });
    expect(jsonError(noSettings).code).toBe('cli_usage');
    expect(jsonError(invalidScope).code).toBe('rest_invalid_param');
    for (const result of [unknownSetting, unknownScope, unknownPlugin, noSettings, invalidScope]) {
      expect(result.stdout).toBe('');
    }
  });

  it('ends quietly with exit 0 when its reader stops early (cpf export | head)', async () => {
    // More than a pipe holds (64 KiB), so the program is still writing when `head` exits.
    await session.library(async ({ shop }) => {
      await shop.scope('big').updateValue('meta', { text: 'x'.repeat(300_000) });
    });
    const command = `set -o pipefail; ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} export shop | head -c 10 >/dev/null`;
    const child = spawn('bash', ['-c', command], { cwd: session.folder, env: childEnv(session.env) });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
