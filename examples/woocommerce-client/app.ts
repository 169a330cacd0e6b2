import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRestServer, MemoryOptionStore, type RestServer } from 'commerce-plugin-framework';
import { toNodeHandler } from 'commerce-plugin-framework/node';
import { AcmePayGateway } from '../demo/gateway-plugin';
import { ordersPlugin } from '../orders-plugin/index';
import { type WooCommerceKey, wooCommerceAuthenticate } from './woocommerce-auth';

/** Where WordPress serves its REST API, and WooCommerce's namespace. */
export const WP_REST_ROOT = '/wp-json';
/** The namespace of the settings routes, as WooCommerce's own. */
export const WC_NAMESPACE = 'wc/v3';

/** A WooCommerce-style key pair: `ck_` and `cs_` followed by 40 hex digits. */
export function generateKeyPair(): { consumerKey: string; consumerSecret: string } {
  const hex = () =>
    [...crypto.getRandomValues(new Uint8Array(20))]
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join('');
  return { consumerKey: `ck_${hex()}`, consumerSecret: `cs_${hex()}` };
}

/** The REST server of the example: the Acme Pay settings and the order routes, WordPress-style paths. */
export function wooCommerceServer(keys: Readonly<Record<string, WooCommerceKey>>): RestServer {
  return createRestServer({
    plugins: [new AcmePayGateway(new MemoryOptionStore()), ordersPlugin()],
    restRoot: WP_REST_ROOT,
    hostNamespace: WC_NAMESPACE,
    authenticate: wooCommerceAuthenticate({ keys }),
  });
}

/** A running example. */
export interface RunningWooCommerceExample {
  /** E.g. `http://127.0.0.1:8080`: the client's `url`. */
  readonly url: string;
  /** The key pair the server accepts (a manager who may edit orders). */
  readonly consumerKey: string;
  readonly consumerSecret: string;
  close(): Promise<void>;
}

/**
 * Serves the Acme Pay settings under `/wp-json/wc/v3/acme_pay/settings` and the orders under
 * `/wp-json/acme/v1/orders`, for the official WooCommerce JavaScript client: over http it signs
 * with OAuth 1.0a; over https (give `tls`) it sends the key pair with Basic authentication.
 */
export async function startWooCommerceExample(
  options: { port?: number; host?: string; tls?: { key: string; cert: string } } = {},
): Promise<RunningWooCommerceExample> {
  const { consumerKey, consumerSecret } = generateKeyPair();
  const server = wooCommerceServer({
    [consumerKey]: { consumerSecret, user: { id: 1, capabilities: ['manage_commerce', 'edit_shop_orders'] } },
  });
  const handler = toNodeHandler(server);
  const listener: Server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 8080, host, () => resolve());
  });
  const { port } = listener.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    consumerKey,
    consumerSecret,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      }),
  };
}
