import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { demoSettingsKey } from '../../examples/demo/settings-key';

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const STARTER = fileURLToPath(new URL('./fixtures/start-demo-key.ts', import.meta.url));
const run = promisify(execFile);

const folders: string[] = [];
async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'cpf-demo-key-'));
  folders.push(made);
  return made;
}
afterEach(async () => {
  for (const made of folders.splice(0)) await rm(made, { recursive: true, force: true });
});

describe('the demo settings key', () => {
  it('is one whole key for demo processes starting at the same instant (none reads a half-written file)', async () => {
    const dir = await folder();
    const keyFile = join(dir, 'data', 'settings.key');
    const goFile = join(dir, 'go');
    const starts = Array.from({ length: 6 }, () => run(TSX, [STARTER, keyFile, goFile]));
    // Let every process load and wait at the barrier, then release them together.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await writeFile(goFile, '');
    const results = (await Promise.all(starts)).map(
      ({ stdout }) => JSON.parse(stdout) as { generated?: boolean; sealed?: string; error?: string },
    );
    expect(results.filter((result) => result.error !== undefined)).toEqual([]);
    expect(results.filter((result) => result.generated)).toHaveLength(1);
    // Every process holds the same key: what one sealed, this one opens.
    const reopened = await demoSettingsKey(undefined, keyFile);
    for (const result of results)
      expect(await reopened.cipher.decrypt(result.sealed!, 'api_key')).toBe('sk_test_1234');
    expect(await readdir(join(dir, 'data'))).toEqual(['settings.key']);
  }, 30_000);

  it('takes SETTINGS_KEY over the file, and writes none', async () => {
    const dir = await folder();
    const key = await demoSettingsKey(Buffer.alloc(32, 7).toString('base64'), join(dir, 'settings.key'));
    expect(key.source).toBe('SETTINGS_KEY');
    expect(await readdir(dir)).toEqual([]);
  });
});
