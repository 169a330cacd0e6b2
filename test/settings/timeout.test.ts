import { Framework_Abstract_Settings, MemoryOptionStore, OptionStoreError } from 'commerce-plugin-framework';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordingStore } from './support/stores';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Card' });
    this.registerSetting('retries', 'integer');
  }
}

const never = () => new Promise<never>(() => {});

describe('store timeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rejects a write the store never answers with a timed-out OptionStoreError; other settings still work', async () => {
    const store = new RecordingStore(new MemoryOptionStore(), {
      set: (next, key) => (key === 'framework_acme_title' ? never() : next()),
    });
    const settings = new ShopSettings('acme', store, { storeTimeoutMs: 30 });
    await settings.load();
    const error = await settings.updateValue('title', 'Visa').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionStoreError);
    expect(error).toMatchObject({ operation: 'set', timedOut: true, store: 'RecordingStore' });
    expect((error as Error).message).toBe('RecordingStore.set timed out after 30 ms');
    expect(settings.getSetting('title')!.getValue()).toBeNull();
    await settings.updateValue('retries', 3);
    expect(await settings.getValue('retries')).toBe(3);
    expect(await store.inner.get('framework_acme_retries')).toBe('3');
  });

  it('rejects a load the store never answers, and memory stays as it was', async () => {
    let hang = false;
    const store = new RecordingStore(new MemoryOptionStore({ framework_acme_title: 'Visa' }), {
      getMany: (next) => (hang ? never() : next()),
    });
    const settings = new ShopSettings('acme', store, { storeTimeoutMs: 30 });
    await settings.load();
    hang = true;
    await expect(settings.load()).rejects.toMatchObject({
      name: 'OptionStoreError',
      operation: 'getMany',
      timedOut: true,
    });
    expect(settings.getSetting('title')!.getValue()).toBe('Visa');
  });

  it('rejects a delete the store never answers', async () => {
    const store = new RecordingStore(new MemoryOptionStore({ framework_acme_title: 'Visa' }), {
      delete: () => never(),
    });
    const settings = new ShopSettings('acme', store, { storeTimeoutMs: 30 });
    await settings.load();
    await expect(settings.deleteValue('title')).rejects.toMatchObject({
      operation: 'delete',
      timedOut: true,
    });
    expect(settings.getSetting('title')!.getValue()).toBe('Visa');
  });

  it('gives up after 10 s by default', async () => {
    vi.useFakeTimers();
    const store = new RecordingStore(new MemoryOptionStore(), { set: () => never() });
    const settings = new ShopSettings('acme', store);
    let outcome: unknown = 'pending';
    settings.updateValue('title', 'Visa').catch((caught: unknown) => {
      outcome = caught;
    });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toMatchObject({ name: 'OptionStoreError', timedOut: true });
    expect((outcome as Error).message).toContain('10000 ms');
  });

  it('waits without limit when storeTimeoutMs is 0', async () => {
    let release!: () => void;
    const store = new RecordingStore(new MemoryOptionStore(), {
      set: async (next) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        await next();
      },
    });
    const settings = new ShopSettings('acme', store, { storeTimeoutMs: 0 });
    const writing = settings.updateValue('title', 'Visa');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await writing;
    expect(await settings.getValue('title')).toBe('Visa');
  });
});
