/** The demo's REST server on an in-memory store, and its OpenAPI document, for the OpenAPI tests. */
import {
  bearerTokenAuth,
  MemoryOptionStore,
  type OptionStore,
  type RestServer,
  type RestServerOptions,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import type { OpenApiDocument } from 'commerce-plugin-framework/openapi';
import { createDemoServer, demoOpenApiDocument } from '../../../examples/demo/demo-server';
import { AcmePayGateway, GATEWAY_ID } from '../../../examples/demo/gateway-plugin';
import { GatewaySettings, type GatewaySettingsHandler } from '../../../examples/demo/gateway-settings';

/** A manager who may also edit orders. */
export const MANAGER_TOKEN = 'openapi-manager-token';
/** An authenticated user without capabilities. */
export const NOBODY_TOKEN = 'openapi-nobody-token';

/** The tokens of the test servers. */
export const authenticate = bearerTokenAuth({
  [MANAGER_TOKEN]: { id: 1, capabilities: ['manage_commerce', 'edit_shop_orders'] },
  [NOBODY_TOKEN]: { id: 2, capabilities: [] },
});

/** The demo's server (gateway, items, orders) on `store`, with the test tokens. */
export function demoServer(
  store: OptionStore = new MemoryOptionStore(),
  options: Omit<RestServerOptions, 'plugins' | 'authenticate'> = {},
): RestServer {
  return createDemoServer(new AcmePayGateway(store), { authenticate, ...options });
}

/** The demo's gateway whose settings have options of their own (`scopeExists`, `rules`…). */
class ConfiguredGateway extends AcmePayGateway {
  readonly #configured: GatewaySettingsHandler;

  constructor(store: OptionStore, options: SettingsOptions) {
    super(store);
    this.#configured = new GatewaySettings(GATEWAY_ID, store, options);
  }

  override getSettingsHandler(): GatewaySettingsHandler {
    return this.#configured;
  }
}

/** The demo's server (gateway, items, orders) on `store`, its settings with `settingsOptions`. */
export function configuredDemoServer(
  store: OptionStore,
  settingsOptions: SettingsOptions,
  options: Omit<RestServerOptions, 'plugins' | 'authenticate'> = {},
): RestServer {
  return createDemoServer(new ConfiguredGateway(store, settingsOptions), { authenticate, ...options });
}

/** The demo's OpenAPI document, as `/openapi.json` serves it. */
export function demoDocument(): OpenApiDocument {
  return demoOpenApiDocument(demoServer());
}
