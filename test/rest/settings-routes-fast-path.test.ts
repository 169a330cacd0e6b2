import {
  createRestServer,
  definePlugin,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type RestServer,
  type RestUser,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

// A warm GET of one setting is answered without waiting for anything: `server.fetch` then
// returns an already-settled promise. These count the microtask turns until the response is
// there (an ordering check, not a timing one) for the ways applications build a plugin.
const URL_TEXT = 'http://localhost/api/commerce/v3/acme/settings/mode';
const USER: RestUser = { id: 1, capabilities: ['manage_commerce'] };

class ShopSettings extends Framework_Abstract_Settings {
  constructor(store: MemoryOptionStore) {
    super('acme', store);
  }

  protected registerSettings(): void {
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
    this.registerControl('mode', 'select');
    this.registerSetting('limit', 'integer', { name: 'Limit', default: 3 });
  }

  override async updateValue(id: string, value: unknown): Promise<void> {
    if (value === 'forbidden') throw new Error('refused');
    return super.updateValue(id, value);
  }
}

class ShopPlugin extends Framework_Plugin {
  readonly settings = new ShopSettings(new MemoryOptionStore({ framework_acme_mode: 'live' }));

  constructor() {
    super({ id: 'acme', name: 'Acme Shop', version: '1.0.0' });
  }

  override getSettingsHandler(): ShopSettings {
    return this.settings;
  }
}

/** A plain `authenticate` function returning a new user object per request. */
function authenticate(request: Request): RestUser | null {
  return request.headers.get('authorization') === 'Bearer shop' ? { ...USER } : null;
}

/** The microtask turns until `server.fetch`'s promise settles (stops counting at 50). */
async function turnsUntilAnswered(server: RestServer): Promise<{ turns: number; response: Response }> {
  let response: Response | undefined;
  void server.fetch(new Request(URL_TEXT, { headers: { authorization: 'Bearer shop' } })).then((settled) => {
    response = settled;
  });
  let turns = 0;
  while (response === undefined && turns < 50) {
    await Promise.resolve();
    turns++;
  }
  if (response === undefined) throw new Error('no answer within 50 turns');
  return { turns, response };
}

async function put(server: RestServer, value: unknown): Promise<void> {
  const response = await server.fetch(
    new Request(URL_TEXT, {
      method: 'PUT',
      headers: { authorization: 'Bearer shop', 'content-type': 'application/json' },
      body: JSON.stringify({ value }),
    }),
  );
  expect(response.status).toBe(200);
}

describe('GET one setting: the synchronous answer', () => {
  it('is taken for a Framework_Plugin subclass with its own settings class and a plain authenticate', async () => {
    const server = createRestServer({ plugins: [new ShopPlugin()], authenticate });
    await server.fetch(new Request(URL_TEXT, { headers: { authorization: 'Bearer shop' } }));
    const { turns, response } = await turnsUntilAnswered(server);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { value: unknown }).value).toBe('live');
    expect(turns).toBe(1);
  });

  it('is taken again after a PUT through the server and after a write through the settings', async () => {
    const plugin = new ShopPlugin();
    const server = createRestServer({ plugins: [plugin], authenticate });
    await put(server, 'test');
    // The PUT answered with the new entity tag and kept it: the first GET after it answers at once.
    const afterPut = await turnsUntilAnswered(server);
    expect(((await afterPut.response.json()) as { value: unknown }).value).toBe('test');
    expect(afterPut.turns).toBe(1);
    await plugin.settings.updateValue('mode', 'live');
    // A write through the settings computes no tag: the first GET after it does, the next ones answer at once.
    await server.fetch(new Request(URL_TEXT, { headers: { authorization: 'Bearer shop' } }));
    const afterWrite = await turnsUntilAnswered(server);
    expect(((await afterWrite.response.json()) as { value: unknown }).value).toBe('live');
    expect(afterWrite.turns).toBe(1);
  });

  it('is taken for a plugin made by definePlugin', async () => {
    const plugin = definePlugin({
      id: 'acme',
      name: 'Acme Shop',
      version: '1.0.0',
      store: new MemoryOptionStore(),
      settings: { mode: { type: 'string', options: ['live', 'test'], default: 'test' } },
    });
    const server = createRestServer({ plugins: [plugin], authenticate });
    await put(server, 'live');
    await server.fetch(new Request(URL_TEXT, { headers: { authorization: 'Bearer shop' } }));
    const { turns, response } = await turnsUntilAnswered(server);
    expect(((await response.json()) as { value: unknown }).value).toBe('live');
    expect(turns).toBe(1);
  });
});
