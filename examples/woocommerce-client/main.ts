/**
 * `npx tsx examples/woocommerce-client/main.ts`: a WordPress-style REST API (`/wp-json`,
 * `wc/v3`) for the official WooCommerce JavaScript client, with a fresh key pair (PORT, HOST).
 */
import { portFromEnv, runUntilSignal } from '../demo/run-until-signal';
import { startWooCommerceExample } from './app';

const example = await startWooCommerceExample({
  port: portFromEnv(process.env.PORT, 8080),
  host: process.env.HOST || '127.0.0.1',
});
console.log(`WooCommerce-style API listening on ${example.url}
Consumer key:    ${example.consumerKey}
Consumer secret: ${example.consumerSecret}

  import WooCommerceRestApi from '@woocommerce/woocommerce-rest-api';
  const api = new WooCommerceRestApi({ url: '${example.url}', consumerKey: '${example.consumerKey}',
    consumerSecret: '${example.consumerSecret}', version: 'wc/v3' });
  await api.get('acme_pay/settings');
  await api.put('acme_pay/settings/max_retries', { value: 5 });

Press Ctrl+C to stop.`);
runUntilSignal(() => example.close());
