import {
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  isScopePath,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import { describe, expect, it, vi } from 'vitest';
import { RecordingStore, settle } from './support/stores';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Shop' });
    this.registerSetting('retries', 'integer');
    this.registerSetting('enabled', 'boolean', { default: false });
  }
}

describe('scope paths', () => {
  it('accepts 1 to 8 segments of [A-Za-z0-9_.-]{1,64}, not "." or ".."', () => {
    for (const path of ['eu', 'eu/de', 'a.b/c-d/e_f', 'x'.repeat(64), Array(8).fill('s').join('/')]) {
      expect(isScopePath(path)).toBe(true);
    }
    for (const path of [
      '',
      '/eu',
      'eu/',
      'eu//de',
      '.',
      '..',
      'eu/..',
      'e u',
      'eü',
      'x'.repeat(65),
      Array(9).fill('s').join('/'),
      7,
      null,
      undefined,
      ['eu'],
    ]) {
      expect(isScopePath(path)).toBe(false);
    }
  });

  it('settings.scope() throws Framework_Plugin_Exception 400 for anything else', () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    for (const path of ['', 'eu//de', '..', 'a/b/c/d/e/f/g/h/i', 5]) {
      expect(() => settings.scope(path as string)).toThrow(Framework_Plugin_Exception);
      try {
        settings.scope(path as string);
      } catch (error) {
        expect((error as Framework_Plugin_Exception).code).toBe(400);
      }
    }
  });
});

describe('scoped values', () => {
  it('resolve scope → parents → global → default, with their origin', async () => {
    const store = new MemoryOptionStore();
    const settings = new ShopSettings('acme', store);
    const de = settings.scope('eu/de');
    expect(await de.getValue('title')).toBe('Shop');
    expect(await de.getOrigin('title')).toBeNull();
    expect(await de.getValue('retries')).toBeNull();
    expect(await de.getValue('title', false)).toBeNull();

    await settings.updateValue('title', 'Global');
    expect(await de.getValue('title')).toBe('Global');
    expect(await de.getOrigin('title')).toBe('');

    await settings.scope('eu').updateValue('title', 'Europe');
    expect(await de.getValue('title')).toBe('Europe');
    expect(await de.getOrigin('title')).toBe('eu');
    expect(await de.getOwnValue('title')).toBeNull();

    await de.updateValue('title', 'Deutschland');
    expect(await de.getValue('title')).toBe('Deutschland');
    expect(await de.getOrigin('title')).toBe('eu/de');
    expect(await de.getOwnValue('title')).toBe('Deutschland');
    expect(await store.get('framework_acme_title@eu/de')).toBe('Deutschland');
    expect(await settings.getValue('title')).toBe('Global');
    expect(await settings.scope('us').getValue('title')).toBe('Global');
  });

  it('a value stored at a scope overrides even when it equals the default or is the empty string; deleteValue inherits again', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.updateValue('title', 'Global');
    await settings.updateValue('enabled', true);
    const eu = settings.scope('eu');
    await eu.updateValue('title', '');
    await eu.updateValue('enabled', false);
    expect(await eu.getValue('title')).toBe('');
    expect(await eu.getOrigin('title')).toBe('eu');
    expect(await eu.getValue('enabled')).toBe(false);
    expect(await eu.deleteValue('title')).toBe(true);
    expect(await eu.deleteValue('title')).toBe(false);
    expect(await eu.getValue('title')).toBe('Global');
    expect(await eu.getOrigin('title')).toBe('');
  });

  it('checks values exactly as global ones, and answers 404 for an unknown id', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    const eu = settings.scope('eu');
    await expect(eu.updateValue('retries', 'three')).rejects.toMatchObject({ code: 400 });
    await expect(eu.updateValue('nope', 1)).rejects.toMatchObject({ code: 404 });
    await expect(eu.getValue('nope')).rejects.toMatchObject({ code: 404 });
    await expect(eu.getOrigin('nope')).rejects.toMatchObject({ code: 404 });
  });

  it('reads a cold scope in one getMany of its keys and all its parents’ keys; warm reads make no store call', async () => {
    const store = new RecordingStore(new MemoryOptionStore());
    const settings = new ShopSettings('acme', store);
    const de = settings.scope('eu/de');
    await de.getValue('title');
    expect(store.calls).toEqual([
      {
        operation: 'getMany',
        keys: [
          ...['title', 'retries', 'enabled'].flatMap((id) => [
            `framework_acme_${id}@eu/de`,
            `framework_acme_${id}@eu`,
            `framework_acme_${id}`,
          ]),
          // The first read brings the schema record along.
          'framework_acme:schema',
        ],
      },
    ]);
    await de.getValue('retries');
    await de.getOrigin('enabled');
    await settings.scope('eu/de').getOwnValue('title');
    expect(store.calls).toHaveLength(1);
  });

  it('a global read after a cold scoped read costs no second round trip (the scope read brought the global texts)', async () => {
    const store = new RecordingStore(new MemoryOptionStore({ framework_acme_title: 'Global' }));
    const settings = new ShopSettings('acme', store);
    expect(await settings.scope('eu').getValue('title')).toBe('Global');
    expect(await settings.getValue('title')).toBe('Global');
    expect(await settings.getValue('retries')).toBeNull();
    expect(settings.getSetting('title')?.getValue()).toBe('Global');
    expect(store.count('getMany')).toBe(1);
  });

  it('keeps at most maxCachedScopes scopes, least recently used going first', async () => {
    const store = new RecordingStore(new MemoryOptionStore());
    const settings = new ShopSettings('acme', store, { maxCachedScopes: 2 });
    await settings.scope('a').getValue('title');
    await settings.scope('b').getValue('title');
    await settings.scope('a').getValue('title'); // a is now the most recently used
    await settings.scope('c').getValue('title'); // evicts b
    const reads = store.count('getMany');
    await settings.scope('a').getValue('title');
    await settings.scope('c').getValue('title');
    expect(store.count('getMany')).toBe(reads);
    await settings.scope('b').getValue('title');
    expect(store.count('getMany')).toBe(reads + 1);
  });

  it('100,000 scopes touched in sequence keep the cache at maxCachedScopes', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore({ framework_acme_title: 'G' }), {
      maxCachedScopes: 1000,
    });
    const heapBefore = process.memoryUsage().heapUsed;
    for (let index = 0; index < 100_000; index++) {
      expect(await settings.scope(`tenant-${index}`).getValue('title')).toBe('G');
    }
    expect(settings.getCachedScopeCount()).toBe(1000);
    const grown = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    console.log(`[report] 100,000 scopes read, 1,000 cached: heap grew ${grown.toFixed(1)} MiB (before GC)`);
  }, 60_000);

  it('a change to a parent scope reaches a descendant’s readers in another instance; so does a global change', async () => {
    const data = new MemoryOptionStore();
    const mine = new ShopSettings('acme', data);
    const theirs = new ShopSettings('acme', data.share());
    expect(await mine.scope('eu/de').getValue('title')).toBe('Shop');
    await theirs.scope('eu').updateValue('title', 'Europe');
    await vi.waitFor(async () => expect(await mine.scope('eu/de').getValue('title')).toBe('Europe'));
    await theirs.updateValue('retries', 4);
    await vi.waitFor(async () => expect(await mine.scope('eu/de').getValue('retries')).toBe(4));
    await theirs.scope('eu').deleteValue('title');
    await vi.waitFor(async () => expect(await mine.scope('eu/de').getOrigin('title')).toBeNull());
  });

  it('a resync of the change feed makes every cached scope read again', async () => {
    const data = new MemoryOptionStore();
    const store = new RecordingStore(data);
    const settings = new ShopSettings('acme', store);
    await settings.scope('eu').getValue('title');
    await settings.scope('us').getValue('title');
    // Written behind the feed's back (as during an outage).
    await data.set('framework_acme_title@eu', 'Missed');
    await data.set('framework_acme_title@us', 'Missed too');
    store.resync();
    await settle();
    expect(await settings.scope('eu').getValue('title')).toBe('Missed');
    expect(await settings.scope('us').getValue('title')).toBe('Missed too');
  });

  it('the global level is the scope-less view: level() and level("") are it', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.level().updateValue('title', 'G');
    expect(settings.getSetting('title')!.getValue()).toBe('G');
    expect(settings.level('').path).toBe('');
    expect(await settings.level(null).getOrigin('title')).toBe('');
    expect(settings.level('eu').path).toBe('eu');
  });

  it('Setting objects of a scope carry scope and origin; global ones do not', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.scope('eu').updateValue('retries', 2);
    const [title, retries] = await settings.scope('eu/de').getSettingObjects();
    expect(title).toMatchObject({ id: 'title', value: 'Shop', scope: 'eu/de', origin: null });
    expect(retries).toMatchObject({ id: 'retries', value: 2, scope: 'eu/de', origin: 'eu' });
    const global = await settings.level().getSettingObject('retries');
    expect(global).not.toHaveProperty('scope');
    expect(global).not.toHaveProperty('origin');
    expect(global.value).toBeNull();
  });
});
