/** The examples of docs/rest.md, run as written. */
import {
  allowPublic,
  bearerTokenAuth,
  createRestServer,
  definePlugin,
  Framework_Abstract_Settings,
  Framework_Plugin,
  Framework_REST_API,
  MemoryOptionStore,
  RestResponse,
  type RouteRegistry,
  requireCapability,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

class GatewaySettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('enabled', 'boolean', { name: 'Enabled', default: false });
    this.registerSetting('api_key', 'string', { name: 'API key' });
    this.registerControl('api_key', 'password');
  }
}

class AcmeRestApi extends Framework_REST_API {
  override registerRoutes(routes: RouteRegistry): void {
    super.registerRoutes(routes); // the settings routes
    routes.register('acme/v1', '/ping', { methods: 'GET', permission: allowPublic(), handler: () => 'pong' });
    routes.register('acme/v1', '/refunds/{order_id}', {
      methods: 'POST',
      permission: requireCapability('edit_shop_orders'),
      args: {
        order_id: { type: 'integer', required: true, minimum: 1 },
        amount: { type: 'number', required: true, exclusiveMinimum: true, minimum: 0 },
        reason: { type: 'string', maxLength: 200, sanitize: (value) => String(value).trim() },
      },
      handler: (request) => new RestResponse({ refunded: request.get('amount') }, 201),
    });
  }
}

class GatewayPlugin extends Framework_Plugin {
  readonly #settings = new GatewaySettings('acme', new MemoryOptionStore());
  constructor() {
    super({ id: 'acme', name: 'Acme Payments', version: '1.0.0', isPaymentGateway: true });
  }
  override getSettingsHandler() {
    return this.#settings;
  }
  protected override initRestApiHandler() {
    this.restApiHandler = new AcmeRestApi(this);
  }
}

describe('docs/rest.md examples', () => {
  it('run as written', async () => {
    const server = createRestServer({
      plugins: [new GatewayPlugin()],
      authenticate: bearerTokenAuth({
        'dev-token-0123456789': { id: 1, capabilities: ['manage_commerce', 'edit_shop_orders'] },
      }),
    });
    const response = await server.fetch(
      new Request('http://localhost/api/commerce/v3/acme/settings/enabled', {
        method: 'PUT',
        headers: { authorization: 'Bearer dev-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ value: true }),
      }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).value).toBe(true);
    expect(await (await server.fetch(new Request('http://localhost/api/acme/v1/ping'))).json()).toBe('pong');
    const refund = await server.fetch(
      new Request('http://localhost/api/acme/v1/refunds/12', {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 5.5, reason: '  damaged ' }),
      }),
    );
    expect([refund.status, await refund.json()]).toEqual([201, { refunded: 5.5 }]);
    const zero = await server.fetch(
      new Request('http://localhost/api/acme/v1/refunds/12', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 0 }),
      }),
    );
    expect(zero.status).toBe(400);
  });
});

// The definePlugin form of the same routes (docs/rest.md, "Registering routes").
const refunds = definePlugin({
  id: 'acme_refunds',
  name: 'Refunds',
  version: '1.0.0',
  namespace: 'acme/v1',
  routes(r) {
    r.get('/ping', { permission: allowPublic(), handler: () => 'pong' });
    r.post('/refunds/{order_id}', {
      args: {
        order_id: { type: 'integer', required: true, minimum: 1 },
        amount: { type: 'number', required: true, exclusiveMinimum: true, minimum: 0 },
        reason: { type: 'string', maxLength: 200, sanitize: (value) => String(value).trim() },
      },
      permission: requireCapability('edit_shop_orders'),
      handler: ({ params }) => new RestResponse({ refunded: params.amount }, 201),
    });
  },
});

describe('docs/rest.md definePlugin example', () => {
  it('answers as the class-based one', async () => {
    const server = createRestServer({
      plugins: [refunds],
      authenticate: bearerTokenAuth({
        'dev-token-0123456789': { id: 1, capabilities: ['edit_shop_orders'] },
      }),
    });
    const refund = await server.fetch(
      new Request('http://localhost/api/acme/v1/refunds/12', {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 5.5 }),
      }),
    );
    expect([refund.status, await refund.json()]).toEqual([201, { refunded: 5.5 }]);
  });
});
