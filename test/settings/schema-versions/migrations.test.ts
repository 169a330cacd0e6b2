import {
  createAesGcmCipher,
  defineMigration,
  MigrationFailedError,
  type OptionStore,
  SchemaOutdatedError,
  type SettingsMigration,
} from 'commerce-plugin-framework';
import { afterEach, expect, it } from 'vitest';
import type { StorePair } from '../../reliability/support/real-stores';
import { describeOnEveryStore } from '../support/every-store';
import { GATEWAY_MIGRATIONS, GatewayV1, GatewayV3 } from './support/gateway-versions';

const KEY = { id: 'k1', key: btoa(String.fromCharCode(...new Uint8Array(32).fill(3))) };
const cipher = () => createAesGcmCipher([KEY]);

/** Stores version-1 values as the first release would: global, and scopes holding only some settings. */
async function seedVersion1(store: OptionStore): Promise<void> {
  const v1 = new GatewayV1('acme', store, { secrets: cipher() });
  await v1.updateValue('api_key', 'sk_live_global');
  await v1.updateValue('mode', 'live');
  await v1.updateValue('retries', '5');
  await v1.scope('eu').updateValue('mode', 'test');
  await v1.scope('eu/de').updateValue('retries', '7');
  await v1.scope('us').updateValue('api_key', 'sk_live_us');
  await v1.scope('us').updateValue('title', 'US card');
  await v1.scope('broken').updateValue('retries', 'many');
  v1.dispose();
}

describeOnEveryStore('migrations', (open) => {
  let pair: StorePair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('a step that declares what it touches sees only those ids; every level holding a value still counts', async () => {
    pair = await open();
    const v1 = new GatewayV1('acme', pair.first);
    await v1.updateValue('mode', 'live');
    await v1.updateValue('title', 'Global card');
    await v1.scope('eu').updateValue('mode', 'test');
    await v1.scope('us').updateValue('title', 'US card'); // holds nothing the step touches
    v1.dispose();
    const seen: string[] = [];
    const step = (touches: readonly string[] | undefined): SettingsMigration => ({
      version: 2,
      name: 'remap mode',
      ...(touches === undefined ? {} : { touches }),
      up(level) {
        seen.push(`${level.scope ?? ''}:${level.text('title') ?? '-'}`);
        if (level.text('mode') === 'live') level.set('mode', 'test');
      },
    });
    const settings = (touches: readonly string[] | undefined) =>
      new (class extends GatewayV1 {})('acme', pair!.second, {
        schemaVersion: 2,
        migrations: [step(touches)],
        migrateOnLoad: false,
      });
    // A dry run without `touches` hands the step every text of the level.
    const whole = settings(undefined);
    const dry = await whole.migrate({ dryRun: true });
    whole.dispose();
    expect(seen.sort()).toEqual([':Global card', 'eu:-', 'us:US card']);
    seen.length = 0;
    const touched = settings(['mode']);
    const report = await touched.migrate();
    expect(seen.sort()).toEqual([':-', 'eu:-', 'us:-']);
    expect(report.steps).toEqual(dry.steps);
    expect(report.steps).toEqual([{ version: 2, name: 'remap mode', levels: 3, changed: 1 }]);
    expect(await touched.getValue('mode')).toBe('test');
    expect(await touched.getValue('title')).toBe('Global card');
    expect(await touched.scope('us').getValue('title')).toBe('US card');
    touched.dispose();
  });

  it('bring every level to the code’s version: rename (secrets re-encrypted), remap, convert; scopes holding only some settings', async () => {
    pair = await open();
    await seedVersion1(pair.first);
    const v3 = new GatewayV3('acme', pair.second, { secrets: cipher(), migrateOnLoad: false });
    expect(await v3.getSchemaVersion()).toBe(1);
    const dry = await v3.migrate({ dryRun: true });
    expect(await v3.getSchemaVersion()).toBe(1);
    const progress: number[] = [];
    const report = await v3.migrate({
      actor: { id: 'deploy' },
      onProgress: ({ levels }) => {
        progress.push(levels);
        throw new Error('a broken progress display changes nothing');
      },
    });
    expect(report).toEqual({ ...dry, dry_run: false, to: 3 });
    // The global level, then each batch of scopes (4 scopes, each at least once).
    expect(progress[0]).toBe(1);
    expect(progress.at(-1)).toBeGreaterThanOrEqual(5);
    expect(report.from).toBe(1);
    expect(report.steps).toEqual([
      // global and us hold api_key: renamed (2 texts each); eu, eu/de and broken hold no api_key.
      { version: 2, name: 'api_key is now secret_key', levels: 5, changed: 4 },
      // global and eu remap mode (1 text each); broken's retries cannot convert (deleted).
      { version: 3, name: 'sandbox naming, numeric retries', levels: 5, changed: 3 },
    ]);
    expect(await v3.getSchemaVersion()).toBe(3);
    expect(await v3.getValue('secret_key')).toBe('sk_live_global');
    expect(await v3.getValue('mode')).toBe('production');
    expect(await v3.getValue('retries')).toBe(5);
    expect(await v3.scope('eu').getValue('mode')).toBe('sandbox');
    expect(await v3.scope('eu/de').getValue('retries')).toBe(7);
    expect(await v3.scope('eu/de').getValue('mode')).toBe('sandbox');
    expect(await v3.scope('us').getValue('secret_key')).toBe('sk_live_us');
    expect(await v3.scope('us').getValue('title')).toBe('US card');
    expect(await v3.scope('broken').getOwnValue('retries')).toBeNull();
    // Renamed secrets are encrypted for their new key, and the old keys are gone.
    const texts = await pair.first.getMany([
      'framework_acme_secret_key',
      'framework_acme_secret_key@us',
      'framework_acme_api_key',
      'framework_acme_api_key@us',
    ]);
    expect([...texts.keys()].sort()).toEqual(['framework_acme_secret_key', 'framework_acme_secret_key@us']);
    for (const text of texts.values()) expect(text).toMatch(/^enc:v1:k1:/);
    // Every changed value has its history entry, via migration, secrets masked.
    const history = await v3.getHistory({ limit: 20 });
    const migration = history.filter((entry) => entry.via === 'migration');
    expect(migration.map((entry) => [entry.setting_id, entry.action, entry.old, entry.new]).sort()).toEqual(
      [
        ['api_key', 'delete', '********', null],
        ['mode', 'update', 'live', 'production'],
        ['secret_key', 'update', null, '********'],
      ].sort(),
    );
    for (const entry of migration) expect(entry.actor).toEqual({ id: 'deploy' });
    expect(JSON.stringify(await v3.scope('us').getHistory())).not.toContain('sk_live');
    // Run again: nothing to do.
    expect(await v3.migrate()).toEqual({ from: 3, to: 3, dry_run: false, steps: [] });
    v3.dispose();
  });

  it('migrateOnLoad: the first read migrates first; an older instance then reads and refuses every write (409)', async () => {
    pair = await open();
    await seedVersion1(pair.first);
    const v3 = new GatewayV3('acme', pair.second, { secrets: cipher() });
    expect(await v3.scope('eu').getValue('mode')).toBe('sandbox');
    expect(await v3.getValue('secret_key')).toBe('sk_live_global');
    const old = new GatewayV1('acme', pair.first, { secrets: cipher() });
    expect(await old.getValue('title')).toBe('Card');
    for (const write of [
      () => old.updateValue('title', 'Old'),
      () => old.deleteValue('title'),
      () => old.scope('eu').updateValue('title', 'Old'),
      () => old.updateValues([{ id: 'title', value: 'Old' }]),
      () => old.migrate(),
      () => old.rotateSecrets(),
    ]) {
      const error = await write().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SchemaOutdatedError);
      expect(error).toMatchObject({ code: 409, stored: 3, schemaVersion: 1 });
    }
    expect(await v3.getValue('title')).toBe('Card');
    v3.dispose();
    old.dispose();
  });

  it('a fresh install runs no step and records its version at the first load; its writes carry on', async () => {
    pair = await open();
    const v3 = new GatewayV3('acme', pair.first);
    await v3.load();
    expect(await v3.getSchemaVersion()).toBe(3);
    expect(await pair.first.get('framework_acme:schema')).toBe('3');
    await v3.updateValue('retries', 4);
    expect(await v3.migrate()).toEqual({ from: 3, to: 3, dry_run: false, steps: [] });
    // An older release now sees a newer version: read only.
    const old = new GatewayV1('acme', pair.second);
    await expect(old.updateValue('title', 'x')).rejects.toMatchObject({ code: 409 });
    v3.dispose();
  });

  it('a step failing at one scope leaves that level as it was, names version, step and scope, keeps the stored version below; a fixed release finishes', async () => {
    pair = await open();
    await seedVersion1(pair.first);
    const failing: SettingsMigration[] = [
      GATEWAY_MIGRATIONS[0]!,
      {
        version: 3,
        name: 'picky step',
        up(level) {
          if (level.scope === 'eu/de') throw new Error('not this one');
          return GATEWAY_MIGRATIONS[1]!.up(level);
        },
      },
    ];
    const broken = new GatewayV3('acme', pair.second, {
      secrets: cipher(),
      migrations: failing,
      migrateOnLoad: false,
    });
    const error = await broken.migrate().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationFailedError);
    expect(error).toMatchObject({ code: 500, version: 3, step: 'picky step', scope: 'eu/de' });
    expect((error as Error).message).toBe(
      'Migration 3 "picky step" failed at scope "eu/de": its up() threw (see the cause)',
    );
    expect(await broken.getSchemaVersion()).toBe(1);
    expect(await pair.first.get('framework_acme_retries@eu/de')).toBe('7');
    // Writes are refused while the migration is unfinished.
    await expect(broken.updateValue('title', 'x')).rejects.toMatchObject({ code: 409 });
    broken.dispose();
    const fixed = new GatewayV3('acme', pair.second, { secrets: cipher(), migrateOnLoad: false });
    const report = await fixed.migrate();
    expect(report.from).toBe(1);
    expect(await fixed.getSchemaVersion()).toBe(3);
    expect(await fixed.scope('eu/de').getValue('retries')).toBe(7);
    expect(await fixed.scope('eu').getValue('mode')).toBe('sandbox');
    fixed.dispose();
  });

  it('a result that breaks a value rule or a rule across settings fails with 500 and stores nothing at that level', async () => {
    pair = await open();
    await seedVersion1(pair.first);
    const titleIntoRetries = new GatewayV3('acme', pair.second, {
      secrets: cipher(),
      migrateOnLoad: false,
      schemaVersion: 4,
      migrations: [
        ...GATEWAY_MIGRATIONS,
        defineMigration(4, 'title into retries', { apply: (level) => level.rename('title', 'retries') }),
      ],
    });
    const typeError = await titleIntoRetries.migrate().catch((caught: unknown) => caught);
    expect(typeError).toBeInstanceOf(MigrationFailedError);
    expect(typeError).toMatchObject({ code: 500, version: 4, step: 'title into retries', scope: 'us' });
    expect((typeError as Error).message).toContain('setting "retries"');
    expect((typeError as Error).message).not.toContain('US card');
    expect(await pair.first.get('framework_acme_title@us')).toBe('US card');
    expect(await pair.first.get('framework_acme_api_key@us')).toMatch(/^enc:/);
    titleIntoRetries.dispose();

    const strict = new GatewayV3('acme', pair.second, {
      secrets: cipher(),
      migrateOnLoad: false,
      schemaVersion: 4,
      migrations: [
        ...GATEWAY_MIGRATIONS,
        defineMigration(4, 'production everywhere', { apply: (level) => level.set('mode', 'production') }),
      ],
      rules: [
        (values) =>
          values.mode === 'production' && Number(values.retries) > 6
            ? [{ id: 'retries', message: 'Production allows at most 6 retries.' }]
            : [],
      ],
    });
    const ruleError = await strict.migrate().catch((caught: unknown) => caught);
    expect(ruleError).toBeInstanceOf(MigrationFailedError);
    expect(ruleError).toMatchObject({ code: 500, version: 4, scope: 'eu/de' });
    expect((ruleError as Error).message).toContain('Production allows at most 6 retries.');
    expect(await strict.getSchemaVersion()).toBeLessThan(4);
    expect(await pair.first.get('framework_acme_mode@eu/de')).toBeUndefined();
    strict.dispose();
  });
});
