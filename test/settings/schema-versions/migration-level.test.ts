import {
  convertSetting,
  defineMigration,
  Framework_Abstract_Settings,
  MemoryOptionStore,
  type MigrationLevel,
  remapOptions,
  removeSetting,
  renameSetting,
  type SettingsMigration,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

class Shop extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string');
    this.registerSetting('retries', 'integer', { default: 3 });
    this.registerSetting('tags', 'string', { is_multi: true });
    this.registerSetting('mode', 'string', { options: ['production', 'sandbox'] });
  }
}

/** Runs one step on a store holding `stored`, and answers the resulting store texts (the record aside). */
async function migrated(
  stored: Record<string, string>,
  up: SettingsMigration['up'],
  reads: readonly string[] = [],
): Promise<Record<string, string>> {
  const store = new MemoryOptionStore({ ...stored, 'framework_acme:schema': '1' });
  const settings = new Shop('acme', store, {
    schemaVersion: 2,
    migrations: [{ version: 2, name: 'step', reads, up }],
    migrateOnLoad: false,
  });
  await settings.migrate();
  const all = Object.fromEntries(await store.getMany(await store.listKeys('framework_acme_')));
  return all;
}

describe('MigrationLevel', () => {
  it('text, value, set, delete and rename work on the level’s stored texts', async () => {
    const seen: unknown[] = [];
    const result = await migrated(
      {
        framework_acme_title: 'Shop',
        framework_acme_retries: 'three',
        framework_acme_old_name: 'Legacy',
        'framework_acme_title@eu': 'EU',
      },
      (level) => {
        seen.push([level.scope, level.text('title'), level.value('title'), level.value('retries')]);
        seen.push([level.text('old_name'), level.value('old_name')]);
        if (level.scope === null) {
          level.set('retries', 5);
          level.set('tags', ['a', 'b']);
          level.delete('title');
          level.rename('old_name', 'title');
        } else {
          level.rename('title', 'old_name');
        }
      },
      ['old_name'],
    );
    expect(seen).toEqual([
      [null, 'Shop', 'Shop', undefined],
      ['Legacy', undefined],
      ['eu', 'EU', 'EU', undefined],
      [undefined, undefined],
    ]);
    expect(result).toEqual({
      framework_acme_title: 'Legacy',
      framework_acme_retries: '5',
      framework_acme_tags: '["a","b"]',
      'framework_acme_old_name@eu': 'EU',
    });
  });

  it('rename keeps an existing target and deletes the source; nothing when the source holds nothing', async () => {
    const result = await migrated(
      { framework_acme_title: 'Old', framework_acme_old_name: 'Legacy', 'framework_acme_old_name@eu': 'EU' },
      (level) => {
        level.rename('old_name', 'title');
        level.rename('nothing_here', 'title');
      },
      ['old_name', 'nothing_here'],
    );
    expect(result).toEqual({ framework_acme_title: 'Old', 'framework_acme_title@eu': 'EU' });
  });

  it('throws for an id that is neither registered nor read, and for a value set that the type refuses', async () => {
    const errors: string[] = [];
    const attempt = (fn: () => void) => {
      try {
        fn();
      } catch (error) {
        errors.push((error as Error).message);
      }
    };
    await migrated(
      { framework_acme_title: 'x' },
      (level: MigrationLevel) => {
        attempt(() => level.text('unknown'));
        attempt(() => level.value('unknown'));
        attempt(() => level.delete('unknown'));
        attempt(() => level.rename('unknown', 'title'));
        attempt(() => level.rename('title', 'unknown'));
        attempt(() => level.set('retries', 'five'));
        attempt(() => level.set('mode', 'live'));
        attempt(() => level.set('legacy', 'x'));
      },
      ['legacy'],
    );
    expect(errors).toHaveLength(8);
    expect(
      errors.slice(0, 5).every((message) => message.includes('neither a registered setting nor among')),
    ).toBe(true);
    expect(errors[5]).toContain('Invalid value for setting "retries"');
    expect(errors[6]).toContain('Invalid value for setting "mode"');
    expect(errors[7]).toContain('only registered settings can be set');
  });
});

describe('the migration helpers', () => {
  const run = (stored: Record<string, string>, migration: SettingsMigration) =>
    migrated(stored, migration.up, migration.reads ?? []);

  it('renameSetting moves a value at every level', async () => {
    expect(
      await run(
        { framework_acme_name: 'A', 'framework_acme_name@eu': 'B' },
        defineMigration(2, 'rename', renameSetting('name', 'title')),
      ),
    ).toEqual({ framework_acme_title: 'A', 'framework_acme_title@eu': 'B' });
  });

  it('remapOptions maps stored texts to new values and leaves the others', async () => {
    expect(
      await run(
        {
          framework_acme_mode: 'live',
          'framework_acme_mode@eu': 'test',
          'framework_acme_mode@us': 'production',
        },
        defineMigration(2, 'remap', remapOptions('mode', { live: 'production', test: 'sandbox' })),
      ),
    ).toEqual({
      framework_acme_mode: 'production',
      'framework_acme_mode@eu': 'sandbox',
      'framework_acme_mode@us': 'production',
    });
  });

  it('convertSetting stores the converted value, removes what converts to undefined', async () => {
    expect(
      await run(
        { framework_acme_retries: ' 4 ', 'framework_acme_retries@eu': 'none' },
        defineMigration(
          2,
          'convert',
          convertSetting('retries', (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : undefined)),
        ),
      ),
    ).toEqual({ framework_acme_retries: '4' });
  });

  it('removeSetting deletes a setting the plugin no longer has', async () => {
    expect(
      await run(
        { framework_acme_gone: 'x', 'framework_acme_gone@eu': 'y', framework_acme_title: 'T' },
        defineMigration(2, 'remove', removeSetting('gone')),
      ),
    ).toEqual({ framework_acme_title: 'T' });
  });
});

describe('the schema options', () => {
  const make = (options: SettingsOptions) => () => new Shop('acme', new MemoryOptionStore(), options);
  const step = (version: number): SettingsMigration => ({ version, name: `step ${version}`, up: () => {} });

  it('migrations must be exactly 2…schemaVersion, in order, each with a name and up', () => {
    expect(make({ schemaVersion: 3, migrations: [step(2), step(3)] })).not.toThrow();
    expect(make({ schemaVersion: 1 })).not.toThrow();
    for (const options of [
      { schemaVersion: 3, migrations: [step(2)] },
      { schemaVersion: 3, migrations: [step(3), step(2)] },
      { schemaVersion: 2, migrations: [step(2), step(3)] },
      { schemaVersion: 2, migrations: [{ version: 2, name: 'x' } as unknown as SettingsMigration] },
      { schemaVersion: 0 },
      { schemaVersion: 1.5 },
      { schemaVersion: 2, migrations: [{ ...step(2), reads: 'x' as unknown as string[] }] },
      { migrateOnLoad: 'yes' as unknown as boolean },
      { historyMaxBytes: 0 },
      { historyMaxBytes: 1.5 },
    ]) {
      expect(make(options), JSON.stringify(options)).toThrow(expect.objectContaining({ code: 400 }));
    }
  });
});
