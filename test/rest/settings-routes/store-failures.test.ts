import {
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { FaultInjectingStore } from '../../support/fault-injecting-store';

/** An override of the form rule 7 of CONTRACT §3 prescribes, awaiting a check of its own first. */
class CheckedSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('fee', 'integer');
    this.registerSetting('mode', 'string');
  }
  override async updateValue(id: string, value: unknown): Promise<void> {
    await this.getValue('mode');
    return super.updateValue(id, value);
  }
}

/** A server over `store`, whose every `get` (the entity tags' salt is read with it) fails. */
function serverOverFailingGets(): ReturnType<typeof createRestServer> {
  const store = new FaultInjectingStore(
    new MemoryOptionStore(),
    (call) => (call.operation === 'get' ? { kind: 'fail' } : { kind: 'pass' }),
    { capabilities: true },
  );
  const settings = new CheckedSettings('acme', store);
  class Plugin extends Framework_Plugin {
    override getSettingsHandler(): Framework_Abstract_Settings {
      return settings;
    }
  }
  return createRestServer({
    plugins: [new Plugin({ id: 'acme', name: 'Acme', version: '1.0.0' })],
    authenticate: () => ({ id: 1, capabilities: ['manage_commerce'] }),
  });
}

function send(server: ReturnType<typeof createRestServer>, path: string, body: unknown): Promise<Response> {
  return server.fetch(
    new Request(`http://shop.test/api/commerce/v3/acme/settings/${path}`, {
      method: path === 'batch' ? 'POST' : 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

describe('a store failure inside a write through an updateValue override', () => {
  it('answers 503 rest_store_unavailable when the answer’s entity tag cannot be computed (single PUT and batch)', async () => {
    const server = serverOverFailingGets();
    for (const response of [
      await send(server, 'fee', { value: 3 }),
      await send(server, 'batch', { update: [{ id: 'fee', value: 4 }] }),
    ]) {
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'rest_store_unavailable', data: { status: 503 } });
    }
  });
});
