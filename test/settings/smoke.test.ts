import {
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

class Demo extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('debug', 'boolean', { name: 'Debug', default: false });
    this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
    this.registerSetting('tags', 'string', { is_multi: true });
    this.registerSetting('meta', 'object');
    this.registerControl('mode', 'select', { options: { live: 'Live', test: 'Test' } });
  }
}

describe('settings smoke', () => {
  it('round-trips values through a store', async () => {
    const store = new MemoryOptionStore();
    const a = new Demo('acme', store);
    expect(await a.getValue('debug')).toBe(false);
    await a.updateValue('debug', true);
    await a.updateValue('tags', ['b', 'a']);
    await a.updateValue('meta', { z: 1, a: [1, 'x'] });
    expect(await store.get('framework_acme_debug')).toBe('yes');
    expect(await store.get('framework_acme_meta')).toBe('{"a":[1,"x"],"z":1}');
    const b = new Demo('acme', store);
    expect(await b.getValue('tags')).toEqual(['b', 'a']);
    expect(await b.getValue('meta')).toEqual({ z: 1, a: [1, 'x'] });
    await expect(a.updateValue('mode', 'other')).rejects.toBeInstanceOf(Framework_Plugin_Exception);
    await expect(a.getValue('nope')).rejects.toMatchObject({ code: 404 });
  });

  it('follows changes made through a sibling store', async () => {
    const store = new MemoryOptionStore();
    const a = new Demo('acme', store);
    const b = new Demo('acme', store.share());
    await b.load();
    await a.updateValue('debug', true);
    await new Promise((r) => setTimeout(r, 10));
    expect(b.getSetting('debug')?.getValue()).toBe(true);
  });
});
