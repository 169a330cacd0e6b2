import { GATEWAY_ID } from './gateway-plugin';
import type { RunningDemo } from './start-demo';

/** What `npm start` prints: where the demo listens, the token, curl commands, the admin pages. */
export function banner(demo: RunningDemo, tokenFromEnv: boolean): string {
  const { url, token } = demo;
  const auth = `-H "Authorization: Bearer ${token}"`;
  const settings = `${url}/api/commerce/v3/${GATEWAY_ID}/settings`;
  return `
Acme Pay demo listening on ${url}
Store: ${demo.store.description}
Secrets encrypted at rest with the key from ${demo.settingsKey.source}${demo.settingsKey.warning ? `\nWARNING: ${demo.settingsKey.warning}` : ''}
Development token${tokenFromEnv ? ' (from DEMO_TOKEN)' : ' (new on every start; set DEMO_TOKEN to keep one)'}: ${token}
  (capabilities manage_commerce and edit_shop_orders)

Try it:
  # every setting of the gateway
  curl ${auth} ${settings}
  # change one (integer), then another (boolean)
  curl -X PUT ${auth} -H "Content-Type: application/json" -d '{"value": 5}' ${settings}/max_retries
  curl -X PUT ${auth} -H "Content-Type: application/json" -d '{"value": true}' ${settings}/enabled
  # store a secret: the status report masks it
  curl -X PUT ${auth} -H "Content-Type: application/json" -d '{"value": "sk_test_123"}' ${settings}/api_key
  curl ${auth} ${url}/api/commerce/v3/system_status
  # sales channels: eu/de inherits from eu, eu from the global values (origin says where)
  curl ${auth} "${settings}/title?scope=eu/de"
  curl -X PUT ${auth} -H "Content-Type: application/json" -d '{"value": 2}' "${settings}/max_retries?scope=eu"
  curl -X DELETE ${auth} "${settings}/fee_percent?scope=eu/de"
  # conditional writes, atomic batches, history
  curl -i ${auth} ${settings}/mode          # note the ETag, then send it as If-Match
  curl -X POST ${auth} -H "Content-Type: application/json" -d '{"update": [{"id": "mode", "value": "live"}, {"id": "enabled", "value": true}]}' ${settings}/batch
  curl ${auth} ${settings}/history
  # items (public) and orders (need the token)
  curl "${url}/api/acme/v1/items?per_page=2&orderby=name&order=ASC"
  curl ${auth} ${url}/api/acme/v1/orders

Admin pages (in a browser; sign in once, the token becomes an HttpOnly session cookie):
  ${url}/login?token=${token}
  ${url}/admin/settings/${GATEWAY_ID}
  ${url}/admin/settings/${GATEWAY_ID}?scope=eu/de
  ${url}/admin/status

OpenAPI 3.1 document: ${url}/openapi.json
Press Ctrl+C to stop.
`;
}
