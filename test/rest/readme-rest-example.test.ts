/**
 * README's "A first plugin with a REST API", run as written on a fresh clone: in an empty
 * folder (no `.data/`), as `npx tsx server.ts`, over HTTP.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningChild, startChild } from '../examples/support/child-process';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const run = promisify(execFile);

const API_TOKEN = 'readme-api-token-0123456789';
const SETTINGS_KEY = Buffer.alloc(32, 7).toString('base64');

/** The README's ```ts block under "## A first plugin with a REST API". */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## A first plugin with a REST API\s*$/m)[1] ?? '';
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (example === undefined)
    throw new Error('README.md has no ```ts block under "A first plugin with a REST API"');
  return example;
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

describe("README's first REST example", () => {
  // Inside the project (ignored by git), so that tsx finds tsconfig.json's paths and node_modules.
  const folder = join(ROOT, 'test-artifacts', `readme-rest-${process.pid}-${Date.now()}`);
  let child: RunningChild | undefined;

  beforeAll(async () => {
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'server.ts'), await readmeExample());
  });
  afterAll(async () => {
    // SIGTERM, which tsx passes on: a SIGKILL would leave the node process it started running.
    await child?.stop('SIGTERM');
    await rm(folder, { recursive: true, force: true });
  });

  it('uses neither the demo’s port nor a non-null assertion on its variables', async () => {
    const example = await readmeExample();
    expect(example).not.toMatch(/process\.env\.[A-Z_]+!/);
    // The demo (`npm start`) listens on 3000 by default.
    expect(example).not.toMatch(/(?:\|\||\?\?)\s*3000\b|listen\(\s*3000\b/);
  });

  it('stops at start-up, naming the variable, when API_TOKEN is missing', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SETTINGS_KEY, NO_COLOR: '1' };
    delete env.API_TOKEN;
    const failed = await run(TSX, ['server.ts'], { cwd: folder, env, timeout: 30_000 }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toContain('Set API_TOKEN');
  }, 40_000);

  it('runs in a fresh folder: creates its data folder, answers with the token, stores the API key encrypted', async () => {
    const port = await freePort();
    child = await startChild('server.ts', { API_TOKEN, SETTINGS_KEY, PORT: String(port) }, 30_000, folder);
    expect(child.url).toBe(`http://localhost:${port}`);
    const base = `http://127.0.0.1:${port}/api/commerce/v3`;
    const headers = { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' };
    const put = await fetch(`${base}/acme/settings/api_key`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ value: 'sk_live_readme_4242' }),
    });
    expect(put.status).toBe(200);
    const status = (await (await fetch(`${base}/system_status`, { headers })).json()) as Record<
      string,
      Record<string, unknown>
    >;
    expect(status.commerce_acme).toMatchObject({
      secrets_encrypted: true,
      settings: { api_key: '********' },
    });
    expect((await fetch(`${base}/acme/settings`)).status).toBe(401);
    await child.stop('SIGTERM');
    child = undefined;

    const database = new PGlite(join(folder, '.data', 'acme'));
    try {
      const { rows } = await database.query<{ value: string }>(
        'SELECT value FROM options WHERE key LIKE $1',
        ['%api_key'],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.value).toMatch(/^enc:v1:k1:/);
      expect(rows[0]!.value).not.toContain('sk_live_readme_4242');
    } finally {
      await database.close();
    }
  }, 60_000);
});
