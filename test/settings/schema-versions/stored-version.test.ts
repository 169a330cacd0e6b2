import { MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { GatewayV3 } from './support/gateway-versions';

/** A memory store counting its reads of several keys (how the schema record is read). */
class CountingStore extends MemoryOptionStore {
  reads = 0;
  override getMany(keys: readonly string[]) {
    this.reads++;
    return super.getMany(keys);
  }
}

/** Lets the memory store deliver its change reports (asynchronous, like a real feed). */
const delivered = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('getSchemaVersion (the status report asks on every request)', () => {
  it('takes the record the change feed keeps current: no read while nothing changed, the new one after another instance wrote it', async () => {
    const store = new CountingStore();
    const settings = new GatewayV3('acme', store);
    await settings.load();
    store.reads = 0;
    expect(await settings.getSchemaVersion()).toBe(3);
    expect(await settings.getSchemaVersion()).toBe(3);
    expect(store.reads).toBe(0);
    await store.share().set('framework_acme:schema', '4');
    await delivered();
    expect(await settings.getSchemaVersion()).toBe(4);
    settings.dispose();
  });

  it('reads the record each time from a store without a change feed', async () => {
    const store = new CountingStore();
    Object.defineProperty(store, 'watch', { value: undefined });
    const settings = new GatewayV3('acme', store);
    await settings.load();
    store.reads = 0;
    expect(await settings.getSchemaVersion()).toBe(3);
    expect(store.reads).toBe(1);
    await store.set('framework_acme:schema', '4');
    expect(await settings.getSchemaVersion()).toBe(4);
  });
});
