/**
 * A test plugin written only against the public API, and helpers to call a server over
 * `server.fetch` as a client would.
 */
import {
  bearerTokenAuth,
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type OptionStore,
  type RestServer,
  type RestServerOptions,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import { readAnswer } from '../../support/read-answer';

export const ADMIN_TOKEN = 'admin-token-0123456789';
export const CLERK_TOKEN = 'clerk-token-0123456789';
export const NOBODY_TOKEN = 'nobody-token-0123456789';

export const authenticate = bearerTokenAuth({
  [ADMIN_TOKEN]: { id: 1, capabilities: ['manage_commerce', 'edit_shop_orders'] },
  [CLERK_TOKEN]: { id: 2, capabilities: ['edit_shop_orders'] },
  [NOBODY_TOKEN]: { id: 3, capabilities: [] },
});

/** Settings of every type and a password control. */
export class GatewaySettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', {
      name: 'Title',
      description: 'Shown at checkout',
      default: 'Card',
    });
    this.registerSetting('webhook_url', 'url', { name: 'Webhook URL' });
    this.registerSetting('contact', 'email', { name: 'Contact' });
    this.registerSetting('retries', 'integer', { name: 'Retries', default: 3 });
    this.registerSetting('fee', 'float', { name: 'Fee', default: 0.5 });
    this.registerSetting('enabled', 'boolean', { name: 'Enabled', default: false });
    this.registerSetting('meta', 'object', { name: 'Meta' });
    this.registerSetting('methods', 'string', {
      name: 'Methods',
      is_multi: true,
      options: ['card', 'sepa', 'ideal'],
    });
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
    this.registerSetting('api_key', 'string', { name: 'API key' });
    this.registerSetting('secret', 'string', { name: 'Secret', default: 'preset' });
    this.registerControl('mode', 'select', { options: { live: 'Live', test: 'Test' } });
    this.registerControl('api_key', 'password');
    this.registerControl('secret', 'password');
  }
}

/** A payment-gateway plugin with settings. */
export class GatewayPlugin extends Framework_Plugin {
  readonly settings: GatewaySettings;
  constructor(store: OptionStore = new MemoryOptionStore(), id = 'acme', options: SettingsOptions = {}) {
    super({ id, name: 'Acme Payments', version: '1.2.3', isPaymentGateway: true });
    this.settings = new GatewaySettings(id, store, options);
  }
  override getSettingsHandler(): GatewaySettings {
    return this.settings;
  }
}

/** The memory store's plain calls only: a store without the optional capabilities (no commit, no log). */
export function plainStore(): OptionStore {
  const inner = new MemoryOptionStore();
  return {
    get: (key) => inner.get(key),
    getMany: (keys) => inner.getMany(keys),
    set: (key, value) => inner.set(key, value),
    delete: (key) => inner.delete(key),
  };
}

/** A plugin without settings. */
export class PlainPlugin extends Framework_Plugin {
  constructor(id = 'plain') {
    super({ id, name: 'Plain', version: '0.1.0' });
  }
}

export function makeServer(options: Partial<RestServerOptions> = {}): RestServer {
  return createRestServer({ plugins: [new GatewayPlugin()], authenticate, ...options });
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  json: any;
}

/** Calls `server.fetch` as a client: `path` may carry a query string. */
export async function call(
  server: RestServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return readAnswer(await server.fetch(new Request(`http://localhost${path}`, { method, headers, body })));
}
