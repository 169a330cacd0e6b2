import {
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  OptionStoreError,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { gate, RecordingStore, snapshot } from './support/stores';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Card' });
    this.registerSetting('retries', 'integer');
    this.registerSetting('extra', 'object');
  }
}

const TITLE = 'framework_acme_title';
const KEYS = [TITLE, 'framework_acme_retries', 'framework_acme_extra'];
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('updateValue', () => {
  it('resolves only after the store has the value', async () => {
    const held = gate();
    const store = new RecordingStore(new MemoryOptionStore(), {
      set: async (next) => {
        await held.promise;
        await next();
      },
    });
    const settings = new ShopSettings('acme', store);
    let done = false;
    const writing = settings.updateValue('title', 'Visa').then(() => {
      done = true;
    });
    await delay(5);
    expect(done).toBe(false);
    expect(settings.getSetting('title')!.getValue()).toBeNull();
    held.open();
    await writing;
    expect(await store.inner.get(TITLE)).toBe('Visa');
    expect(settings.getSetting('title')!.getValue()).toBe('Visa');
  });

  it('writes the store first and memory only when the store succeeded', async () => {
    const cause = new Error('disk full');
    const store = new RecordingStore(
      new MemoryOptionStore({ [TITLE]: 'Visa', framework_acme_extra: '{"a":1}' }),
      {
        set: () => Promise.reject(cause),
      },
    );
    const settings = new ShopSettings('acme', store);
    await settings.load();
    const before = await snapshot(store.inner, KEYS);
    for (const [id, value] of [
      ['title', 'Amex'],
      ['retries', 3],
      ['extra', { b: 2 }],
    ] as const) {
      const error = await settings.updateValue(id, value).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OptionStoreError);
      expect(error).not.toBeInstanceOf(Framework_Plugin_Exception);
      expect((error as OptionStoreError).cause).toBe(cause);
      expect((error as OptionStoreError).operation).toBe('set');
      expect((error as OptionStoreError).timedOut).toBe(false);
      expect((error as Error).message).toContain('set');
      expect((error as Error).message).toContain('disk full');
    }
    expect(settings.getSetting('title')!.getValue()).toBe('Visa');
    expect(settings.getSetting('retries')!.getValue()).toBeNull();
    expect(settings.getSetting('extra')!.getValue()).toEqual({ a: 1 });
    expect(await snapshot(store.inner, KEYS)).toEqual(before);
  });

  it('leaves store and memory unchanged for a rejected value, without calling the store', async () => {
    const store = new RecordingStore(new MemoryOptionStore({ [TITLE]: 'Visa' }));
    const settings = new ShopSettings('acme', store);
    await settings.load();
    await expect(settings.updateValue('title', 42)).rejects.toMatchObject({ code: 400 });
    await expect(settings.updateValue('retries', 1.5)).rejects.toMatchObject({ code: 400 });
    expect(store.count('set')).toBe(0);
    expect(settings.getSetting('title')!.getValue()).toBe('Visa');
    expect(await store.inner.get(TITLE)).toBe('Visa');
  });

  it('keeps in memory exactly what a fresh instance reads back', async () => {
    const store = new MemoryOptionStore();
    const settings = new ShopSettings('acme', store);
    await settings.updateValue('retries', -0);
    await settings.updateValue('extra', { z: [-0, 1], a: 'x' });
    expect(Object.is(settings.getSetting('retries')!.getValue(), 0)).toBe(true);
    const fresh = new ShopSettings('acme', store);
    await fresh.load();
    expect(settings.getSetting('extra')!.getValue()).toEqual(fresh.getSetting('extra')!.getValue());
    expect(Object.is((fresh.getSetting('extra')!.getValue() as { z: number[] }).z[0], 0)).toBe(true);
  });

  it('serialises concurrent writes of one setting: memory and store agree on the last call', async () => {
    // Each set waits less than the one before, so without the queue they would land in reverse order.
    const store = new RecordingStore(new MemoryOptionStore(), {
      set: async (next, _key, _value, index) => {
        await delay(Math.max(0, 20 - index * 5));
        await next();
      },
    });
    const settings = new ShopSettings('acme', store);
    await Promise.all(['a', 'b', 'c', 'd'].map((title) => settings.updateValue('title', title)));
    expect(store.calls.filter((call) => call.operation === 'set').map((call) => call.value)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(await store.inner.get(TITLE)).toBe('d');
    expect(settings.getSetting('title')!.getValue()).toBe('d');
    expect(await settings.getValue('title')).toBe('d');
  });

  it('serialises a write and a delete of one setting in call order', async () => {
    const store = new RecordingStore(new MemoryOptionStore(), {
      set: async (next) => {
        await delay(10);
        await next();
      },
    });
    const settings = new ShopSettings('acme', store);
    const [, removed] = await Promise.all([
      settings.updateValue('title', 'Visa'),
      settings.deleteValue('title'),
    ]);
    expect(removed).toBe(true);
    expect(await store.inner.get(TITLE)).toBeUndefined();
    expect(await settings.getValue('title')).toBe('Card');
  });

  it('a failed write does not block the writes queued behind it', async () => {
    const store = new RecordingStore(new MemoryOptionStore(), {
      set: async (next, _key, value) => {
        if (value === 'bad') throw new Error('rejected by the store');
        await next();
      },
    });
    const settings = new ShopSettings('acme', store);
    const results = await Promise.allSettled([
      settings.updateValue('title', 'bad'),
      settings.updateValue('title', 'good'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect(settings.getSetting('title')!.getValue()).toBe('good');
  });

  it('can be overridden with checks of its own that run before super.updateValue', async () => {
    class Checked extends ShopSettings {
      override async updateValue(id: string, value: unknown): Promise<void> {
        if (id === 'retries' && typeof value === 'number' && value > 5) {
          throw new Framework_Plugin_Exception('Setting "retries": at most 5 retries', 400);
        }
        return super.updateValue(id, value);
      }
    }
    const store = new RecordingStore();
    const settings = new Checked('acme', store);
    await expect(settings.updateValue('retries', 6)).rejects.toMatchObject({
      code: 400,
      message: 'Setting "retries": at most 5 retries',
    });
    await expect(settings.updateValue('retries', 'x')).rejects.toMatchObject({ code: 400 });
    await settings.updateValue('retries', 5);
    expect(await settings.getValue('retries')).toBe(5);
    expect(store.count('set')).toBe(1);
  });
});
