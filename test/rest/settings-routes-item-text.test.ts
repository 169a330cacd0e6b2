import {
  createRestServer,
  Framework_REST_API,
  Framework_REST_API_Settings,
  MemoryOptionStore,
  type RouteRegistry,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, authenticate, call, GatewayPlugin } from './support/fixtures';

// GET of one setting answers JSON text kept per value (serialised once): these check that the
// kept text never outlives what it was made from.
const BASE = '/api/commerce/v3/acme/settings';

describe('GET one setting: the kept JSON text', () => {
  it('follows the value through writes in this instance and another one', async () => {
    const plugin = new GatewayPlugin();
    const server = createRestServer({ plugins: [plugin], authenticate });
    const first = await call(server, 'GET', `${BASE}/mode`, { token: ADMIN_TOKEN });
    expect(first.json.value).toBe('test');
    await plugin.settings.updateValue('mode', 'live');
    const second = await call(server, 'GET', `${BASE}/mode`, { token: ADMIN_TOKEN });
    expect(second.json.value).toBe('live');
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
    await plugin.settings.deleteValue('mode');
    expect((await call(server, 'GET', `${BASE}/mode`, { token: ADMIN_TOKEN })).json.value).toBe('test');
  });

  it('follows object values replaced by equal-looking ones', async () => {
    const plugin = new GatewayPlugin();
    const server = createRestServer({ plugins: [plugin], authenticate });
    await plugin.settings.updateValue('meta', { a: 1 });
    expect((await call(server, 'GET', `${BASE}/meta`, { token: ADMIN_TOKEN })).json.value).toEqual({ a: 1 });
    await plugin.settings.updateValue('meta', { a: 2 });
    expect((await call(server, 'GET', `${BASE}/meta`, { token: ADMIN_TOKEN })).json.value).toEqual({ a: 2 });
  });

  it('follows a control changed through its setters after registration', async () => {
    const plugin = new GatewayPlugin();
    const server = createRestServer({ plugins: [plugin], authenticate });
    expect((await call(server, 'GET', `${BASE}/mode`, { token: ADMIN_TOKEN })).json.control.name).toBe(
      'Mode',
    );
    plugin.settings.getSetting('mode')?.getControl()?.setName('Gateway mode');
    expect((await call(server, 'GET', `${BASE}/mode`, { token: ADMIN_TOKEN })).json.control.name).toBe(
      'Gateway mode',
    );
  });

  it('is not used when a subclass shapes the item itself', async () => {
    class LabelledSettingsApi extends Framework_REST_API_Settings {
      override prepareSettingItem(...args: Parameters<Framework_REST_API_Settings['prepareSettingItem']>) {
        return { ...super.prepareSettingItem(...args), name: 'Shaped' };
      }
    }
    class ShapedApi extends Framework_REST_API {
      override registerRoutes(routes: RouteRegistry): void {
        new LabelledSettingsApi(this.getPlugin().getSettingsHandler()!).registerRoutes(routes);
      }
    }
    class ShapedPlugin extends GatewayPlugin {
      protected override initRestApiHandler(): void {
        this.restApiHandler = new ShapedApi(this);
      }
    }
    const server = createRestServer({ plugins: [new ShapedPlugin()], authenticate });
    const twice = [
      await call(server, 'GET', `${BASE}/mode`, { token: ADMIN_TOKEN }),
      await call(server, 'GET', `${BASE}/mode`, { token: ADMIN_TOKEN }),
    ];
    expect(twice.map((answer) => answer.json.name)).toEqual(['Shaped', 'Shaped']);
  });

  it('keeps a secret masked and HEAD and 304 answers without a body', async () => {
    const plugin = new GatewayPlugin();
    const server = createRestServer({ plugins: [plugin], authenticate });
    await plugin.settings.updateValue('api_key', 'sk_live_123');
    const read = await call(server, 'GET', `${BASE}/api_key`, { token: ADMIN_TOKEN });
    expect(read.json.value).toBe('********');
    expect(read.text).not.toContain('sk_live_123');
    const head = await call(server, 'HEAD', `${BASE}/api_key`, { token: ADMIN_TOKEN });
    expect([head.status, head.text]).toEqual([200, '']);
    const unchanged = await call(server, 'GET', `${BASE}/api_key`, {
      token: ADMIN_TOKEN,
      headers: { 'if-none-match': read.headers.get('etag')! },
    });
    expect([unchanged.status, unchanged.text]).toEqual([304, '']);
  });

  it('answers a warm read without the store and follows the changes of another instance', async () => {
    const data = new MemoryOptionStore();
    const reads: string[] = [];
    const counted = data.share();
    const { get, getMany } = counted;
    counted.get = (key) => {
      reads.push(key);
      return get.call(counted, key);
    };
    counted.getMany = (keys) => {
      reads.push(...keys);
      return getMany.call(counted, keys);
    };
    const reader = createRestServer({ plugins: [new GatewayPlugin(counted)], authenticate });
    const writer = new GatewayPlugin(data);
    const first = await call(reader, 'GET', `${BASE}/title`, { token: ADMIN_TOKEN });
    reads.length = 0;
    const again = await call(reader, 'GET', `${BASE}/title`, { token: ADMIN_TOKEN });
    expect([again.text, again.headers.get('etag'), reads]).toEqual([
      first.text,
      first.headers.get('etag'),
      [],
    ]);
    await writer.settings.updateValue('title', 'Card payments');
    const changed = await call(reader, 'GET', `${BASE}/title`, { token: ADMIN_TOKEN });
    expect(changed.json.value).toBe('Card payments');
    expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(reads).toContain('framework_acme_title');
  });
});
