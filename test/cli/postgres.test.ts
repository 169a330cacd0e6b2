/**
 * `cpf` against a PostgreSQL server (`DATABASE_URL`): writes, reads, a plan applied, history —
 * each answer compared with the library's on the same table, opened alongside in the test.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Framework_Abstract_Settings, SettingsDocument, SettingsPlan } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postgresSuite } from '../storage/fixtures/postgres-suite';
import { describeWithService } from '../support/services';
import { fixturePlugins } from './fixtures/cli-fixture';
import { type CliResult, fixtureFolder, jsonOut, removeFolder, runCli } from './support/cli-run';

const SECRET = 'sk_live_postgres_test_2468';

describeWithService('DATABASE_URL', 'cpf on PostgreSQL', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 2, prefix: 'cpf_cli' });
  const table = newTable();
  let folder: string;
  let shop: Framework_Abstract_Settings;
  const outputs: CliResult[] = [];

  async function cpf(...args: string[]): Promise<CliResult> {
    const result = await runCli(args, {
      cwd: folder,
      env: { CPF_TEST_STORE: 'postgres', CPF_TEST_DATABASE_URL: url, CPF_TEST_TABLE: table },
      input: args.includes('--stdin') ? SECRET : '',
    });
    outputs.push(result);
    return result;
  }

  beforeAll(async () => {
    folder = await fixtureFolder();
    const store = new PostgresOptionStore({ client: pool, table });
    shop = fixturePlugins(store, store, {})[0]!.getSettingsHandler()!;
  }, 120_000);

  afterAll(async () => {
    for (const { stdout, stderr } of outputs) {
      expect(stdout).not.toContain(SECRET);
      expect(stderr).not.toContain(SECRET);
    }
    shop?.dispose();
    await removeFolder(folder);
  });

  it('sets, reads, explains, plans and applies as the library answers on the same table', {
    timeout: 240_000,
  }, async () => {
    const set = await cpf('set', 'shop', 'fee', '0');
    const scoped = await cpf('set', 'shop', 'title', 'EU', '--scope', 'eu');
    const secret = await cpf('set', 'shop', 'api_key', '--stdin');
    for (const result of [set, scoped, secret]) expect(result.code, result.stderr).toBe(0);
    await shop.load();
    expect(await shop.getValue('fee')).toBe(0);
    expect(await shop.getValue('api_key')).toBe(SECRET);
    expect(jsonOut(scoped)).toEqual(await shop.scope('eu').getSettingObject('title'));

    const got = await cpf('get', 'shop', 'title', '--scope', 'eu/de');
    const explained = await cpf('explain', 'shop', 'fee', '--scope', 'eu');
    expect(jsonOut(got)).toEqual({
      value: 'EU',
      origin: 'eu',
      etag: await shop.scope('eu/de').getETag('title'),
    });
    expect(jsonOut(explained)).toEqual({
      value: 0,
      origin: '',
      default: 1.5,
      etag: await shop.scope('eu').getETag('fee'),
      chain: [
        { scope: 'eu', value: null },
        { scope: '', value: 0 },
      ],
    });

    const document = jsonOut<SettingsDocument>(await cpf('export', 'shop'));
    expect(document).toEqual(await shop.exportSettings());
    document.levels['']!.retries = 9;
    const file = join(folder, 'pg.json');
    await writeFile(file, JSON.stringify(document));
    const planned = await cpf('plan', file);
    expect(planned.code).toBe(1);
    expect(jsonOut(planned)).toEqual(await shop.planImport(document));
    const applied = await cpf('apply', file, '--yes', '--plan-id', jsonOut<SettingsPlan>(planned).id);
    expect(applied.code, applied.stderr).toBe(0);
    await shop.load();
    expect(await shop.getValue('retries')).toBe(9);
    const history = await cpf('history', 'shop', '--limit', '5');
    expect(jsonOut(history)).toEqual(await shop.getHistory({ limit: 5 }));
  });
});
