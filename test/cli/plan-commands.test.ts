/**
 * `cpf plan`, `apply`, `restore`, `migrate` and `rotate-secrets` as a program (on PostgreSQL when DATABASE_URL is set, else PGlite): plans as
 * the library makes them (the same ids), exit 1 for changes and 3 for errors, array files named
 * by a digest, `--plan-id` (4 when stale), `--yes` required off a terminal (2), restore targets
 * (5 when unknown), migration reports and the rotation count.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SettingsDocument, SettingsPlan } from 'commerce-plugin-framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonError, jsonOut } from './support/cli-run';
import { type CliSession, cliSession, quickestStore } from './support/cli-session';

const SECRET = 'sk_live_plan_test_5150';

let session: CliSession;
let firstEntry: string;

const cpf = (args: readonly string[], schema?: string) =>
  session.cpf(args, schema === undefined ? {} : { env: { CPF_TEST_SCHEMA: schema } });

async function writeJson(name: string, value: unknown): Promise<string> {
  const file = join(session.folder, name);
  await writeFile(file, JSON.stringify(value));
  return file;
}

beforeAll(async () => {
  session = await cliSession(quickestStore());
  await session.library(async ({ shop, blog }) => {
    await shop.updateValue('title', 'Before');
    firstEntry = (await shop.getHistory({ limit: 1 }))[0]!.id;
    await shop.updateValue('api_key', SECRET);
    await shop.scope('eu').updateValue('fee', 1.5);
    await shop.updateValue('note', 'keep me');
    await blog.updateValue('per_page', 20);
  });
}, 120_000);

afterAll(async () => {
  session.expectNeverPrinted([SECRET]);
  await session.remove();
});

describe('cpf plan, apply and restore', { timeout: 300_000 }, () => {
  it('plans a document as the library does: exit 0 unchanged, 1 with changes, 3 with errors (still printed)', async () => {
    const exported = await cpf(['export', 'shop']);
    const document = jsonOut<SettingsDocument>(exported);
    const same = await writeJson('same.json', document);
    const changed = structuredClone(document);
    changed.levels['']!.title = 'After';
    changed.levels['']!.note = null;
    changed.levels['eu/de'] = { fee: 2 };
    const changedFile = await writeJson('changed.json', changed);
    const broken = structuredClone(document);
    broken.levels['']!.retries = 'many';
    broken.levels['']!.api_key = 'plain text';
    const brokenFile = await writeJson('broken.json', broken);

    const unchanged = await cpf(['plan', same]);
    const withChanges = await cpf(['plan', changedFile]);
    const pruned = await cpf(['plan', changedFile, '--prune']);
    const withErrors = await cpf(['plan', brokenFile]);
    expect([unchanged.code, withChanges.code, pruned.code, withErrors.code]).toEqual([0, 1, 1, 3]);
    await session.library(async ({ shop }) => {
      expect(jsonOut(unchanged)).toEqual(await shop.planImport(document));
      expect(jsonOut(withChanges)).toEqual(await shop.planImport(changed));
      expect(jsonOut(pruned)).toEqual(await shop.planImport(changed, { prune: true }));
      expect(jsonOut(withErrors)).toEqual(await shop.planImport(broken));
    });
    expect(jsonOut<SettingsPlan>(withChanges).changes).toEqual([
      { scope: null, id: 'title', action: 'set', old: 'Before', new: 'After' },
      { scope: null, id: 'note', action: 'delete', old: 'keep me', new: null },
      { scope: 'eu/de', id: 'fee', action: 'set', old: null, new: 2 },
    ]);
    expect(
      jsonOut<SettingsPlan>(withErrors)
        .errors.map((error) => error.code)
        .sort(),
    ).toEqual(['secret_in_clear', 'value_invalid']);
    expect(withErrors.stdout).not.toContain('plain text');
  });

  it('applies only with --yes off a terminal, only the plan reviewed (--plan-id), and an array file as a whole', async () => {
    const shopDocument = jsonOut<SettingsDocument>(await cpf(['export', 'shop']));
    const blogDocument = jsonOut<SettingsDocument>(await cpf(['export', 'blog']));
    shopDocument.levels['']!.title = 'Applied';
    blogDocument.levels['']!.per_page = 30;
    const single = await writeJson('single.json', shopDocument);
    const array = await writeJson('array.json', [shopDocument, blogDocument]);

    const refused = await cpf(['apply', single]);
    expect(refused.code).toBe(2);
    expect(jsonError(refused).code).toBe('cli_usage');
    const planned = jsonOut<SettingsPlan[]>(await cpf(['plan', array]));
    const digest = createHash('sha256')
      .update(JSON.stringify(planned.map((plan) => plan.id)))
      .digest('hex');
    const wrongId = await cpf(['apply', array, '--yes', '--plan-id', planned[0]!.id]);
    expect(wrongId.code).toBe(4);
    expect(jsonError(wrongId).code).toBe('rest_precondition_failed');
    const applied = await cpf(['apply', array, '--yes', '--plan-id', digest, '--actor', 'deploy']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(jsonOut(applied)).toEqual([
      { plan: planned[0], applied: 1 },
      { plan: planned[1], applied: 1 },
    ]);
    // The same plan again: the keys changed since it was made.
    const stale = await cpf(['apply', single, '--yes', '--plan-id', planned[0]!.id]);
    expect(stale.code).toBe(4);
    const noChange = await cpf(['apply', single, '--yes']);
    expect(noChange.code).toBe(0);
    expect(jsonOut(noChange)).toMatchObject({ applied: 0, plan: { changes: [] } });
    const unknownPlugin = await cpf([
      'apply',
      await writeJson('forum.json', { ...shopDocument, plugin: 'forum' }),
    ]);
    expect(unknownPlugin.code).toBe(2);
    const notJson = join(session.folder, 'not.json');
    await writeFile(notJson, '{ nope');
    expect((await cpf(['plan', notJson])).code).toBe(2);
    await session.library(async ({ shop, blog }) => {
      expect(await shop.getValue('title')).toBe('Applied');
      expect(await blog.getValue('per_page')).toBe(30);
      expect((await shop.getHistory({ settingId: 'title', limit: 1 }))[0]).toMatchObject({
        via: 'import',
        actor: { id: 'deploy' },
      });
    });
  });

  it('restores to a history entry (5 for an unknown target), migrates (dry run first) and rotates secrets', async () => {
    const unknown = await cpf(['restore', 'shop', '--to', 'not-a-time', '--yes']);
    expect(unknown.code).toBe(5);
    expect(jsonError(unknown).code).toBe('rest_history_not_found');
    const restored = await cpf(['restore', 'shop', 'title', '--to', firstEntry, '--yes']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(jsonOut(restored)).toMatchObject({
      applied: 1,
      plan: { changes: [{ scope: null, id: 'title', action: 'set', old: 'Applied', new: 'Before' }] },
    });

    const dryRun = await cpf(['migrate', '--dry-run'], '2');
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(jsonOut(dryRun)).toEqual([
      {
        plugin: 'shop',
        from: 1,
        to: expect.any(Number),
        dry_run: true,
        // note and title both stored globally: the rename deletes note, keeps title.
        steps: [{ version: 2, name: 'note becomes title', levels: expect.any(Number), changed: 1 }],
      },
      { plugin: 'blog', from: 1, to: 1, dry_run: true, steps: [] },
    ]);
    const rotated = await cpf(['rotate-secrets', 'shop']);
    expect(rotated.code, rotated.stderr).toBe(0);
    await session.library(async ({ shop }) => {
      expect(await shop.getValue('title')).toBe('Before');
      expect(await shop.getValue('api_key')).toBe(SECRET);
      expect(await shop.getSchemaVersion()).toBe(1);
      expect(jsonOut(rotated)).toEqual({
        rotated: expect.any(Number),
        plugins: [{ id: 'shop', rotated: expect.any(Number) }],
      });
    });
    const noCipher = await cpf(['rotate-secrets', 'blog']);
    expect(noCipher.code).toBe(3);
  });
});
