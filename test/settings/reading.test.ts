import { Framework_Abstract_Settings, MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { AdhocSettings } from './support/adhoc-settings';
import { RecordingStore, UnwatchedStore } from './support/stores';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('enabled', 'boolean', { default: false });
    this.registerSetting('title', 'string', { default: 'Card' });
    this.registerSetting('retries', 'integer');
    this.registerSetting('tags', 'string', { is_multi: true });
  }
}

/** The first read brings the schema record along (CONTRACT §11): still one round trip. */
const RECORD = 'framework_acme:schema';
const KEYS = [
  'framework_acme_enabled',
  'framework_acme_title',
  'framework_acme_retries',
  'framework_acme_tags',
];
const FIRST_READ = [...KEYS, RECORD];

function storeWith(values: Record<string, string> = {}): RecordingStore {
  return new RecordingStore(new MemoryOptionStore(values));
}

describe('getValue', () => {
  it('returns the stored value converted to the type, else the default, else null', async () => {
    const settings = new ShopSettings('acme', storeWith({ framework_acme_enabled: 'yes' }));
    expect(await settings.getValue('enabled')).toBe(true);
    expect(await settings.getValue('title')).toBe('Card');
    expect(await settings.getValue('retries')).toBeNull();
    expect(await settings.getValue('tags')).toBeNull();
  });

  it('withDefault false gives null when nothing is stored', async () => {
    const settings = new ShopSettings('acme', storeWith({ framework_acme_enabled: 'no' }));
    expect(await settings.getValue('title', false)).toBeNull();
    expect(await settings.getValue('title', true)).toBe('Card');
    expect(await settings.getValue('enabled', false)).toBe(false);
  });

  it('Framework_Setting.getValue() is the in-memory value, null when nothing is stored; toJSON applies the default', async () => {
    const settings = new ShopSettings('acme', storeWith({ framework_acme_retries: '3' }));
    await settings.load();
    const title = settings.getSetting('title')!;
    expect(title.getValue()).toBeNull();
    expect(title.toJSON().value).toBe('Card');
    expect(title.toJSON()).toEqual({
      id: 'title',
      type: 'string',
      name: '',
      description: '',
      is_multi: false,
      options: [],
      default: 'Card',
      value: 'Card',
      control: null,
    });
    expect(settings.getSetting('retries')!.getValue()).toBe(3);
    expect(settings.getSetting('retries')!.toJSON().value).toBe(3);
    expect(settings.getSetting('tags')!.toJSON()).toMatchObject({
      is_multi: true,
      default: null,
      value: null,
    });
  });
});

describe('load', () => {
  it('reads every registered setting in exactly one getMany, and later reads make no store call', async () => {
    const store = storeWith({ framework_acme_title: 'Visa' });
    const settings = new ShopSettings('acme', store);
    await settings.load();
    expect(store.calls).toEqual([{ operation: 'getMany', keys: FIRST_READ }]);
    for (const id of ['enabled', 'title', 'retries', 'tags']) await settings.getValue(id);
    expect(await settings.getValue('title')).toBe('Visa');
    expect(store.calls).toHaveLength(1);
  });

  it('getValue before load loads everything once', async () => {
    const store = storeWith({ framework_acme_retries: '2' });
    const settings = new ShopSettings('acme', store);
    expect(await settings.getValue('retries')).toBe(2);
    expect(store.calls).toEqual([{ operation: 'getMany', keys: FIRST_READ }]);
    expect(await settings.getValue('enabled')).toBe(false);
    expect(await settings.getValue('tags')).toBeNull();
    expect(store.count('getMany')).toBe(1);
  });

  it('concurrent first reads share one getMany', async () => {
    const store = storeWith({ framework_acme_title: 'Visa' });
    const settings = new ShopSettings('acme', store);
    const values = await Promise.all([
      settings.getValue('title'),
      settings.getValue('enabled'),
      settings.getValue('title'),
      settings.getValue('tags'),
    ]);
    expect(values).toEqual(['Visa', false, 'Visa', null]);
    expect(store.calls).toEqual([{ operation: 'getMany', keys: FIRST_READ }]);
  });

  it('reads made while a load is in flight share its getMany', async () => {
    const store = storeWith({ framework_acme_title: 'Visa' });
    const settings = new ShopSettings('acme', store);
    const loading = settings.load();
    const values = await Promise.all([settings.getValue('title'), settings.getValue('retries'), loading]);
    expect(values).toEqual(['Visa', null, undefined]);
    expect(store.count('getMany')).toBe(1);
  });

  it('load() reads again, showing values written by another writer', async () => {
    const inner = new MemoryOptionStore();
    const settings = new ShopSettings('acme', new UnwatchedStore(inner));
    expect(await settings.getValue('title')).toBe('Card');
    await inner.set('framework_acme_title', 'Amex');
    expect(await settings.getValue('title')).toBe('Card');
    await settings.load();
    expect(await settings.getValue('title')).toBe('Amex');
  });

  it('settings registered after load() read their stored value', async () => {
    const store = storeWith({ framework_acme_late: '42', framework_acme_later: 'yes' });
    const settings = new ShopSettings('acme', store);
    await settings.load();
    settings.registerSetting('late', 'integer');
    settings.registerSetting('later', 'boolean', { default: false });
    expect(await settings.getValue('late')).toBe(42);
    expect(await settings.getValue('later')).toBe(true);
    expect(store.count('getMany')).toBe(2);
    expect(store.calls[1]).toEqual({
      operation: 'getMany',
      keys: ['framework_acme_late', 'framework_acme_later'],
    });
    expect(settings.getSetting('late')!.getValue()).toBe(42);
  });

  it('a setting registered after load() is read by the next load() too', async () => {
    const store = storeWith({ framework_acme_late: '42' });
    const settings = new ShopSettings('acme', store);
    await settings.load();
    settings.registerSetting('late', 'integer');
    await settings.load();
    expect(settings.getSetting('late')!.getValue()).toBe(42);
  });

  it('re-registering a setting reads it again', async () => {
    const store = storeWith({ framework_acme_x: '7' });
    const settings = new AdhocSettings('acme', store);
    settings.registerSetting('x', 'string');
    expect(await settings.getValue('x')).toBe('7');
    settings.unregisterSetting('x');
    settings.registerSetting('x', 'integer');
    expect(await settings.getValue('x')).toBe(7);
  });

  it('a failed load leaves memory as it was and is retried by the next read', async () => {
    let failing = true;
    const store = new RecordingStore(new MemoryOptionStore({ framework_acme_title: 'Visa' }), {
      getMany: (next) => (failing ? Promise.reject(new Error('connection refused')) : next()),
    });
    const settings = new ShopSettings('acme', store);
    const error = await settings.load().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'OptionStoreError', operation: 'getMany' });
    expect((error as Error).message).toContain('getMany');
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(settings.getSetting('title')!.getValue()).toBeNull();
    await expect(settings.getValue('title')).rejects.toMatchObject({ name: 'OptionStoreError' });
    failing = false;
    expect(await settings.getValue('title')).toBe('Visa');
  });

  it('a load with nothing registered makes no store call', async () => {
    const store = storeWith();
    await new AdhocSettings('acme', store).load();
    expect(store.calls).toEqual([]);
  });
});

describe('deleteValue', () => {
  it('resolves true when a value was removed, false when none was stored; the setting then reads as its default', async () => {
    const store = storeWith({ framework_acme_title: 'Visa' });
    const settings = new ShopSettings('acme', store);
    expect(await settings.getValue('title')).toBe('Visa');
    expect(await settings.deleteValue('title')).toBe(true);
    expect(await store.inner.get('framework_acme_title')).toBeUndefined();
    expect(await settings.getValue('title')).toBe('Card');
    expect(settings.getSetting('title')!.getValue()).toBeNull();
    expect(await settings.deleteValue('title')).toBe(false);
    expect(await settings.deleteValue('retries')).toBe(false);
  });

  it('a failed delete leaves memory and store as they were', async () => {
    const store = new RecordingStore(new MemoryOptionStore({ framework_acme_title: 'Visa' }), {
      delete: () => Promise.reject(new Error('read-only')),
    });
    const settings = new ShopSettings('acme', store);
    await settings.load();
    await expect(settings.deleteValue('title')).rejects.toMatchObject({
      name: 'OptionStoreError',
      operation: 'delete',
    });
    expect(settings.getSetting('title')!.getValue()).toBe('Visa');
    expect(await store.inner.get('framework_acme_title')).toBe('Visa');
  });
});
