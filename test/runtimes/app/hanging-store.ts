/**
 * The store-timeout scenario of the runtime self-test: a REST server over a store whose
 * `getMany` never settles once told to hang. Its settings container outlives requests (as it
 * does in a worker), so a deadline armed in one request must still be enforced in the next.
 */
import { MemoryOptionStore, type RestServer } from 'commerce-plugin-framework';
import { acmeServer, TOKEN } from './self-test';

/** The scenario's `storeTimeoutMs`. */
export const STORE_TIMEOUT_MS = 400;

/** A memory store whose `getMany` never settles while `hang` is set. */
export class HangingStore extends MemoryOptionStore {
  hang = false;
  override getMany(keys: readonly string[]): Promise<Map<string, string>> {
    return this.hang ? new Promise<Map<string, string>>(() => {}) : super.getMany(keys);
  }
}

/** The store and the server of one scenario. */
export interface HangScenario {
  readonly store: HangingStore;
  readonly server: RestServer;
}

/** A new scenario: a healthy store for now, the server's store calls limited to {@link STORE_TIMEOUT_MS}. */
export function hangScenario(): HangScenario {
  const store = new HangingStore();
  return { store, server: acmeServer(store, STORE_TIMEOUT_MS) };
}

/** A GET of the global settings (the store is read while healthy: a deadline is armed). */
export function warmRequest(): Request {
  return new Request('http://shop.test/api/commerce/v3/acme/settings', {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
}

/** A GET of a scope not read yet: it reads the store. */
export function scopeRequest(scope: string): Request {
  return new Request(`http://shop.test/api/commerce/v3/acme/settings?scope=${scope}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
}
