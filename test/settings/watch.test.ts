import { Framework_Abstract_Settings, MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it, vi } from 'vitest';
import { gate, RecordingStore, settle } from './support/stores';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Card' });
    this.registerSetting('retries', 'integer');
  }
}

const TITLE = 'framework_acme_title';
const RETRIES = 'framework_acme_retries';

/** Two app instances on one database: `mine` over a recording wrapper, `theirs` on a sibling store. */
function twoInstances(initial: Record<string, string> = {}, interceptors = {}) {
  // The schema record is there already: the first writes only check it (not create it).
  const data = new MemoryOptionStore({ 'framework_acme:schema': '1', ...initial });
  const store = new RecordingStore(data, interceptors);
  const mine = new ShopSettings('acme', store);
  const theirs = new ShopSettings('acme', data.share());
  return { data, store, mine, theirs };
}

describe('watch', () => {
  it('an instance whose first use is a write or a delete follows other writers too', async () => {
    for (const firstUse of ['update', 'delete'] as const) {
      const { mine, theirs } = twoInstances();
      if (firstUse === 'update') await mine.updateValue('title', 'Mine');
      else await mine.deleteValue('title');
      await theirs.updateValue('title', 'Theirs');
      await vi.waitFor(() => expect(mine.getSetting('title')!.getValue()).toBe('Theirs'));
    }
  });

  it('another writer’s change updates memory without load()', async () => {
    const { store, mine, theirs } = twoInstances();
    await mine.load();
    await theirs.updateValue('title', 'Visa');
    await vi.waitFor(() => expect(mine.getSetting('title')!.getValue()).toBe('Visa'));
    expect(await mine.getValue('title')).toBe('Visa');
    await theirs.deleteValue('title');
    await vi.waitFor(() => expect(mine.getSetting('title')!.getValue()).toBeNull());
    expect(await mine.getValue('title')).toBe('Card');
    // Each notification re-read just the changed setting.
    expect(store.calls.slice(1)).toEqual([
      { operation: 'getMany', keys: [TITLE] },
      { operation: 'getMany', keys: [TITLE] },
    ]);
  });

  it('subscribes at the first getValue too', async () => {
    const { mine, theirs } = twoInstances();
    expect(await mine.getValue('retries')).toBeNull();
    await theirs.updateValue('retries', 4);
    await vi.waitFor(() => expect(mine.getSetting('retries')!.getValue()).toBe(4));
  });

  it('a burst of changes is re-read in one getMany', async () => {
    const { store, mine, theirs } = twoInstances();
    await mine.load();
    await Promise.all([theirs.updateValue('title', 'Visa'), theirs.updateValue('retries', 2)]);
    await vi.waitFor(() => expect(mine.getSetting('retries')!.getValue()).toBe(2));
    expect(mine.getSetting('title')!.getValue()).toBe('Visa');
    expect(store.count('getMany')).toBe(2);
  });

  it('does not re-read its own writes', async () => {
    const { store, mine } = twoInstances();
    await mine.load();
    await mine.updateValue('title', 'Visa');
    await mine.deleteValue('retries');
    await settle();
    expect(store.count('getMany')).toBe(1);
  });

  it('ignores changes to keys it does not hold', async () => {
    const { data, store, mine } = twoInstances();
    await mine.load();
    await data.share().set('framework_other_title', 'x');
    await settle();
    expect(store.count('getMany')).toBe(1);
  });

  it('onResync re-reads every setting', async () => {
    const { data, store, mine } = twoInstances({ [TITLE]: 'Visa' });
    await mine.load();
    // Written through the same store instance: no notification reaches the watcher.
    await data.set(TITLE, 'Amex');
    await data.set(RETRIES, '9');
    await settle();
    expect(mine.getSetting('title')!.getValue()).toBe('Visa');
    store.resync();
    await vi.waitFor(() => expect(mine.getSetting('title')!.getValue()).toBe('Amex'));
    expect(mine.getSetting('retries')!.getValue()).toBe(9);
    // A resync may have missed a change of the schema record too: it is read again along.
    expect(store.calls.at(-1)).toEqual({
      operation: 'getMany',
      keys: [TITLE, RETRIES, 'framework_acme:schema'],
    });
  });

  it('a change reported during an in-flight read is not lost', async () => {
    const held = gate();
    let holdNext = false;
    const { store, mine, theirs } = twoInstances(
      { [TITLE]: 'Visa' },
      {
        getMany: async (next: () => Promise<Map<string, string>>) => {
          const hold = holdNext;
          holdNext = false;
          const found = await next(); // what the store held when the read was answered…
          if (hold) await held.promise; // …arrives late, after another writer's change
          return found;
        },
      },
    );
    await mine.load();
    holdNext = true;
    const reading = mine.load();
    await settle();
    await theirs.updateValue('title', 'Amex');
    await settle();
    held.open();
    await reading;
    await vi.waitFor(() => expect(mine.getSetting('title')!.getValue()).toBe('Amex'));
    expect(await mine.getValue('title')).toBe('Amex');
    expect(store.count('getMany')).toBe(3);
  });

  it('a change reported during an in-flight read leaves the setting stale until a read succeeds', async () => {
    const held = gate();
    let holdNext = false;
    let failing = false;
    const { mine, theirs } = twoInstances(
      { [TITLE]: 'Visa' },
      {
        getMany: async (next: () => Promise<Map<string, string>>) => {
          if (failing) throw new Error('connection lost');
          const hold = holdNext;
          holdNext = false;
          const found = await next();
          if (hold) await held.promise;
          return found;
        },
      },
    );
    await mine.load();
    holdNext = true;
    const reading = mine.load();
    await settle();
    await theirs.updateValue('title', 'Amex');
    await settle();
    failing = true; // the re-read of the change fails…
    held.open();
    await reading; // …and the late answer of the first read must not count as current
    await settle();
    await expect(mine.getValue('title')).rejects.toMatchObject({ name: 'OptionStoreError' });
    failing = false;
    expect(await mine.getValue('title')).toBe('Amex');
  });

  it('a change reported during an in-flight write is not lost', async () => {
    const held = gate();
    const { data, mine, theirs } = twoInstances(
      {},
      {
        set: async (next: () => Promise<void>) => {
          await next(); // the store has the value…
          await held.promise; // …but the acknowledgement arrives after another writer's change
        },
      },
    );
    await mine.load();
    const writing = mine.updateValue('title', 'Visa');
    await settle();
    await theirs.updateValue('title', 'Amex');
    await settle();
    held.open();
    await writing;
    await vi.waitFor(() => expect(mine.getSetting('title')!.getValue()).toBe('Amex'));
    expect(await data.get(TITLE)).toBe('Amex');
    expect(await mine.getValue('title')).toBe('Amex');
  });

  it('a stale setting is read again by getValue when the re-read failed', async () => {
    let failing = false;
    const { mine, theirs } = twoInstances(
      {},
      {
        getMany: (next: () => Promise<Map<string, string>>) =>
          failing ? Promise.reject(new Error('down')) : next(),
      },
    );
    await mine.load();
    failing = true;
    await theirs.updateValue('title', 'Visa');
    await settle();
    await settle();
    await expect(mine.getValue('title')).rejects.toMatchObject({ name: 'OptionStoreError' });
    failing = false;
    expect(await mine.getValue('title')).toBe('Visa');
  });

  it('dispose() stops following changes', async () => {
    const { store, mine, theirs } = twoInstances();
    await mine.load();
    mine.dispose();
    await theirs.updateValue('title', 'Visa');
    await settle();
    expect(mine.getSetting('title')!.getValue()).toBeNull();
    expect(store.count('getMany')).toBe(1);
    expect(await mine.getValue('title')).toBe('Card');
    await mine.load();
    expect(await mine.getValue('title')).toBe('Visa');
  });

  it('a store whose watch throws reports an OptionStoreError and is retried at the next read', async () => {
    let attempts = 0;
    const data = new MemoryOptionStore({ [TITLE]: 'Visa' });
    const store = {
      get: (key: string) => data.get(key),
      getMany: (keys: readonly string[]) => data.getMany(keys),
      set: (key: string, value: string) => data.set(key, value),
      delete: (key: string) => data.delete(key),
      watch: (onChange: (key: string) => void) => {
        attempts++;
        if (attempts === 1) throw new Error('no change feed yet');
        return data.watch(onChange);
      },
    };
    const settings = new ShopSettings('acme', store);
    await expect(settings.load()).rejects.toMatchObject({ name: 'OptionStoreError', operation: 'watch' });
    await settings.load();
    expect(attempts).toBe(2);
    await data.share().set(TITLE, 'Amex');
    await vi.waitFor(() => expect(settings.getSetting('title')!.getValue()).toBe('Amex'));
  });
});
