import {
  allowPublic,
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  Framework_Plugin_Exception,
  Framework_REST_API,
  Framework_REST_API_Settings,
  MemoryOptionStore,
  type RouteRegistry,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  authenticate,
  call,
  GatewayPlugin,
  GatewaySettings,
  PlainPlugin,
} from './support/fixtures';

describe('Framework_Plugin', () => {
  it('has an id, name, version and payment-gateway flag', () => {
    const plugin = new GatewayPlugin();
    expect([plugin.getId(), plugin.getName(), plugin.getVersion(), plugin.isPaymentGateway()]).toEqual([
      'acme',
      'Acme Payments',
      '1.2.3',
      true,
    ]);
    expect(new PlainPlugin().isPaymentGateway()).toBe(false);
    expect(new PlainPlugin().getSettingsHandler()).toBeNull();
  });

  it('refuses ids that cannot be a path segment', () => {
    for (const id of ['', 'a/b', 'a b', '..', 'é']) {
      expect(() => new PlainPlugin(id), id).toThrow(Framework_Plugin_Exception);
    }
  });

  it('runs initRestApiHandler once, lazily, and returns the same handler', () => {
    let runs = 0;
    class Counting extends Framework_Plugin {
      constructor() {
        super({ id: 'counting', name: 'Counting', version: '1' });
      }
      protected override initRestApiHandler(): void {
        runs++;
        super.initRestApiHandler();
      }
    }
    const plugin = new Counting();
    expect(plugin.restApiHandler).toBeNull();
    expect(runs).toBe(0);
    const handler = plugin.getRestApiHandler();
    expect(handler).toBeInstanceOf(Framework_REST_API);
    expect(handler.getPlugin()).toBe(plugin);
    expect(plugin.getRestApiHandler()).toBe(handler);
    expect(plugin.restApiHandler).toBe(handler);
    expect(runs).toBe(1);
  });

  it('complains when initRestApiHandler assigns nothing', () => {
    class Broken extends Framework_Plugin {
      constructor() {
        super({ id: 'broken', name: 'Broken', version: '1' });
      }
      protected override initRestApiHandler(): void {}
    }
    expect(() => new Broken().getRestApiHandler()).toThrow(/did not assign/);
  });
});

describe('Framework_REST_API', () => {
  it('registers the settings routes only when the plugin has settings', () => {
    expect(
      createRestServer({ plugins: [new PlainPlugin()] })
        .getRoutes()
        .map((route) => route.path),
    ).toEqual(['/api/commerce/v3/system_status']);
    const withSettings = createRestServer({ plugins: [new GatewayPlugin()] });
    expect(withSettings.getRoutes().map((route) => [route.path, route.methods])).toEqual([
      ['/api/commerce/v3/system_status', ['GET']],
      ['/api/commerce/v3/acme/settings', ['GET']],
      ['/api/commerce/v3/acme/settings/batch', ['POST']],
      ['/api/commerce/v3/acme/settings/export', ['GET']],
      ['/api/commerce/v3/acme/settings/import', ['POST']],
      ['/api/commerce/v3/acme/settings/restore', ['POST']],
      ['/api/commerce/v3/acme/settings/history', ['GET']],
      ['/api/commerce/v3/acme/settings/{setting_id}', ['GET', 'PUT', 'POST', 'PATCH', 'DELETE']],
      ['/api/commerce/v3/acme/settings/{setting_id}/history', ['GET']],
    ]);
  });

  it('lets a subclass add routes after calling super.registerRoutes', async () => {
    class ExtendedApi extends Framework_REST_API {
      override registerRoutes(routes: RouteRegistry): void {
        super.registerRoutes(routes);
        routes.register('acme/v1', '/ping', {
          methods: 'GET',
          permission: allowPublic(),
          handler: () => 'pong',
        });
      }
      override getSystemStatusData() {
        return Promise.resolve({ extended: true });
      }
    }
    class ExtendedPlugin extends GatewayPlugin {
      protected override initRestApiHandler(): void {
        this.restApiHandler = new ExtendedApi(this);
      }
    }
    const server = createRestServer({ plugins: [new ExtendedPlugin()], authenticate });
    expect((await call(server, 'GET', '/api/acme/v1/ping')).json).toBe('pong');
    expect(
      (await call(server, 'GET', '/api/commerce/v3/acme/settings/mode', { token: ADMIN_TOKEN })).status,
    ).toBe(200);
    expect(((await server.getSystemStatus()).commerce_acme as Record<string, unknown>).extended).toBe(true);
  });

  it('defaults getSystemStatusData to {}', () => {
    expect(new PlainPlugin().getRestApiHandler().getSystemStatusData()).toEqual({});
  });
});

describe('createRestServer', () => {
  it('throws when a settings handler id differs from its plugin id', () => {
    class Mismatched extends Framework_Plugin {
      readonly #settings = new GatewaySettings('other', new MemoryOptionStore());
      constructor() {
        super({ id: 'acme', name: 'Acme', version: '1' });
      }
      override getSettingsHandler() {
        return this.#settings;
      }
    }
    expect(() => createRestServer({ plugins: [new Mismatched()] })).toThrow(
      /settings handler with the id "other"/,
    );
  });

  it('throws for duplicate plugin ids and things that are not plugins', () => {
    expect(() => createRestServer({ plugins: [new PlainPlugin('x'), new PlainPlugin('x')] })).toThrow(
      /two plugins/,
    );
    expect(() => createRestServer({ plugins: [{}] as never })).toThrow(/Framework_Plugin/);
    expect(() => createRestServer({ plugins: 'x' as never })).toThrow(/array/);
  });

  it('throws when two settings of its plugins share a storage key, naming both', () => {
    class KeyedSettings extends Framework_Abstract_Settings {
      readonly #ids: readonly string[];
      constructor(id: string, ids: readonly string[]) {
        super(id, new MemoryOptionStore());
        this.#ids = ids;
      }
      protected registerSettings(): void {
        for (const id of this.#ids) this.registerSetting(id, 'string');
      }
    }
    class KeyedPlugin extends Framework_Plugin {
      readonly #settings: KeyedSettings;
      constructor(id: string, ids: readonly string[]) {
        super({ id, name: id, version: '1' });
        this.#settings = new KeyedSettings(id, ids);
      }
      override getSettingsHandler() {
        return this.#settings;
      }
    }
    const build = () =>
      createRestServer({
        plugins: [new KeyedPlugin('acme', ['mode', 'pay_key']), new KeyedPlugin('acme_pay', ['key'])],
      });
    expect(build).toThrow(Framework_Plugin_Exception);
    expect(build).toThrow(
      'plugin "acme" setting "pay_key" and plugin "acme_pay" setting "key" share the storage key "framework_acme_pay_key"',
    );
    expect(() =>
      createRestServer({
        plugins: [new KeyedPlugin('acme', ['mode', 'pay_secret']), new KeyedPlugin('acme_pay', ['key'])],
      }),
    ).not.toThrow();
  });

  it('checks its options', () => {
    const plugins = [new PlainPlugin()];
    expect(() => createRestServer({ plugins, maxBodyBytes: -1 })).toThrow(/maxBodyBytes/);
    expect(() => createRestServer({ plugins, maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes/);
    expect(() => createRestServer({ plugins, managementCapability: '' })).toThrow(/managementCapability/);
    expect(() => createRestServer({ plugins, commercePrefix: 'a b' })).toThrow(/commercePrefix/);
    expect(() => createRestServer({ plugins, hostNamespace: 'nope' })).toThrow(/namespace/);
    expect(() => createRestServer({ plugins, admin: { pages: [{}] as never, csrfSecret: 'x' } })).toThrow(
      /admin.pages/,
    );
    expect(() => createRestServer({ plugins, admin: { pages: [], csrfSecret: '' } })).toThrow(/csrfSecret/);
  });

  it('exposes its settings and defaults', () => {
    expect(createRestServer({ plugins: [] }).info).toEqual({
      restRoot: '/api',
      hostNamespace: 'commerce/v3',
      managementCapability: 'manage_commerce',
      maxBatchItems: 100,
    });
  });
});

describe('Framework_REST_API_Settings', () => {
  it('prepares the Setting object and describes it in JSON Schema draft-04 with value writable', () => {
    const settings = new GatewaySettings('acme', new MemoryOptionStore());
    const controller = new Framework_REST_API_Settings(settings);
    expect(controller.prepareSettingItem(settings.getSetting('retries')!)).toEqual({
      id: 'retries',
      type: 'integer',
      name: 'Retries',
      description: '',
      is_multi: false,
      options: [],
      default: 3,
      value: 3,
      control: null,
    });
    const schema = controller.getItemSchema() as {
      $schema: string;
      title: string;
      type: string;
      properties: Record<string, { readonly?: boolean; type?: unknown }>;
    };
    expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual([
      'id',
      'type',
      'name',
      'description',
      'is_multi',
      'options',
      'default',
      'value',
      'scope',
      'origin',
      'control',
    ]);
    const writable = Object.entries(schema.properties).filter(([, property]) => property.readonly !== true);
    expect(writable.map(([name]) => name)).toEqual(['value']);
    expect(schema.properties.value!.type).toEqual([
      'string',
      'number',
      'integer',
      'boolean',
      'object',
      'array',
      'null',
    ]);
  });
});
