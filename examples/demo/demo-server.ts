import {
  createRestServer,
  type Framework_Plugin,
  type RestServer,
  type RestServerOptions,
} from 'commerce-plugin-framework';
import { generateOpenApiDocument, type OpenApiDocument } from 'commerce-plugin-framework/openapi';
import { itemsPlugin } from '../items-plugin/index';
import { ordersPlugin } from '../orders-plugin/index';
import type { AcmePayGateway } from './gateway-plugin';
import { seededItems, seededOrders } from './seed';

/** The demo's plugins: the gateway given (and `others`), and the item and order routes with a few seeded entries. */
export function demoPlugins(
  gateway: AcmePayGateway,
  others: readonly Framework_Plugin[] = [],
): Framework_Plugin[] {
  return [
    gateway,
    ...others,
    itemsPlugin({ items: seededItems() }),
    ordersPlugin({ orders: seededOrders() }),
  ];
}

/** The demo's REST server: its plugins around `gateway` (and `others`), with the options given (authenticate, admin…). */
export function createDemoServer(
  gateway: AcmePayGateway,
  options: Omit<RestServerOptions, 'plugins'> = {},
  others: readonly Framework_Plugin[] = [],
): RestServer {
  return createRestServer({ ...options, plugins: demoPlugins(gateway, others) });
}

/** The demo's OpenAPI document, served at `/openapi.json`. */
export function demoOpenApiDocument(server: RestServer): OpenApiDocument {
  return generateOpenApiDocument(server, {
    title: 'Acme Pay demo',
    version: '1.0.0',
    description: 'The commerce-plugin-framework demo: gateway settings, items, orders, system status.',
    license: { name: 'MIT', identifier: 'MIT' },
  });
}
