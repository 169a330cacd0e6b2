/**
 * The official WooCommerce JavaScript client against the example server (`/wp-json`, `wc/v3`):
 * over plain http it signs every request with OAuth 1.0a and sends every query parameter
 * twice; over https it sends the key pair with Basic authentication or in the query.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import WooCommerceRestApi from '@woocommerce/woocommerce-rest-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningWooCommerceExample,
  startWooCommerceExample,
  WP_REST_ROOT,
  wooCommerceServer,
} from '../../examples/woocommerce-client/app';
import { oauth1Signature, signatureBaseString } from '../../examples/woocommerce-client/oauth1-signature';
import { wooCommerceAuthenticate } from '../../examples/woocommerce-client/woocommerce-auth';

/** A self-signed certificate for 127.0.0.1, for these tests only. */
const TLS = {
  key: readFileSync(new URL('./fixtures/loopback-key.pem', import.meta.url), 'utf8'),
  cert: readFileSync(new URL('./fixtures/loopback-cert.pem', import.meta.url), 'utf8'),
};

type Client = InstanceType<typeof WooCommerceRestApi>;

function client(
  example: RunningWooCommerceExample,
  version: string,
  extra: Record<string, unknown> = {},
): Client {
  return new WooCommerceRestApi({
    url: example.url,
    consumerKey: example.consumerKey,
    consumerSecret: example.consumerSecret,
    version,
    ...extra,
  } as never);
}

/** The status and body of a call that may fail (axios rejects for 4xx). */
async function outcome(call: Promise<{ status: number; data: unknown }>): Promise<[number, unknown]> {
  try {
    const response = await call;
    return [response.status, response.data];
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (!response) throw error;
    return [response.status, response.data];
  }
}

describe('the WooCommerce client over plain http (OAuth 1.0a)', () => {
  let example: RunningWooCommerceExample;
  let settings: Client;
  let orders: Client;

  beforeAll(async () => {
    example = await startWooCommerceExample({ port: 0 });
    settings = client(example, 'wc/v3');
    orders = client(example, 'acme/v1');
  });
  afterAll(() => example?.close());

  it('reads and updates settings at /wp-json/wc/v3', async () => {
    const list = await settings.get('acme_pay/settings');
    expect(list.status).toBe(200);
    expect(list.data).toHaveLength(16);
    expect((await settings.get('acme_pay/settings/mode', { context: 'edit' })).data).toMatchObject({
      id: 'mode',
      value: 'test',
    });
    const updated = await settings.put(
      'acme_pay/settings/max_retries',
      { value: 5 },
      { _fields: 'id,value' },
    );
    expect(updated.data).toMatchObject({ id: 'max_retries', value: 5 });
    expect((await settings.post('acme_pay/settings/countries', { value: ['FR'] })).data.value).toEqual([
      'FR',
    ]);
    const [status, body] = await outcome(settings.put('acme_pay/settings/mode', { value: 'sandbox' }));
    expect([status, (body as { code: string }).code]).toEqual([400, 'rest_setting_value_invalid']);
  });

  it('passes query arguments, sent twice by the client, once to the routes', async () => {
    const line = { product_id: 1, name: 'Mug', quantity: 2, price: 4.5 };
    for (let index = 0; index < 3; index++) await orders.post('orders', { line_items: [line] });
    await orders.put('orders/2', { status: 'completed' });
    const page = await orders.get('orders', {
      per_page: 1,
      status: 'pending',
      order: 'ASC',
      search: 'mug cup',
    });
    expect(page.data.data.map((order: { id: number }) => order.id)).toEqual([]);
    const pending = await orders.get('orders', { per_page: 1, status: 'pending', order: 'ASC' });
    expect(pending.data.data.map((order: { id: number }) => order.id)).toEqual([1]);
    expect([pending.headers['x-total'], pending.headers['x-total-pages']]).toEqual(['2', '2']);
    const removed = await orders.delete('orders/3', { force: true });
    expect(removed.data).toEqual({ success: true, message: 'Order 3 was deleted for good.' });
    const [status] = await outcome(orders.get('orders', { per_page: 'many' }));
    expect(status).toBe(400);
  });

  it('refuses a wrong secret, an unknown key, a stale timestamp and a replayed nonce', async () => {
    const wrong = new WooCommerceRestApi({
      url: example.url,
      consumerKey: example.consumerKey,
      consumerSecret: 'cs_wrong',
      version: 'wc/v3',
    });
    const [status, body] = await outcome(wrong.get('acme_pay/settings'));
    expect([status, (body as { code: string }).code]).toEqual([401, 'woocommerce_rest_authentication_error']);
    const unknown = new WooCommerceRestApi({ url: example.url, consumerKey: 'ck_x', consumerSecret: 'cs_x' });
    expect((await outcome(unknown.get('acme_pay/settings')))[0]).toBe(401);

    const url = `${example.url}${WP_REST_ROOT}/wc/v3/acme_pay/settings/mode`;
    const signed = async (timestamp: number, nonce: string) => {
      const params: [string, string][] = [
        ['oauth_consumer_key', example.consumerKey],
        ['oauth_nonce', nonce],
        ['oauth_signature_method', 'HMAC-SHA1'],
        ['oauth_timestamp', String(timestamp)],
        ['context', 'view'],
      ];
      const signature = await oauth1Signature({
        method: 'GET',
        url,
        params,
        consumerSecret: example.consumerSecret,
        signatureMethod: 'HMAC-SHA1',
      });
      return `${url}?${new URLSearchParams([...params, ['oauth_signature', signature]])}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const once = await signed(now, 'nonce-1');
    expect((await fetch(once)).status).toBe(200);
    const replay = await fetch(once);
    expect([replay.status, ((await replay.json()) as { message: string }).message]).toEqual([
      401,
      'Invalid nonce: it has already been used.',
    ]);
    expect((await fetch(await signed(now - 3600, 'nonce-2'))).status).toBe(401);
    // Basic credentials are refused over plain http.
    const basic = btoa(`${example.consumerKey}:${example.consumerSecret}`);
    expect((await fetch(url, { headers: { authorization: `Basic ${basic}` } })).status).toBe(401);
  });
});

describe('the WooCommerce client over https (the key pair itself)', () => {
  let example: RunningWooCommerceExample;
  beforeAll(async () => {
    example = await startWooCommerceExample({ port: 0, tls: TLS });
  });
  afterAll(() => example?.close());

  it('authenticates with Basic authentication and with the key pair in the query', async () => {
    const httpsAgent = new Agent({ ca: TLS.cert });
    for (const queryStringAuth of [false, true]) {
      const api = client(example, 'wc/v3', { queryStringAuth, axiosConfig: { httpsAgent } });
      const updated = await api.put('acme_pay/settings/mode', { value: 'live' }, { context: 'edit' });
      expect(updated.data).toMatchObject({ id: 'mode', value: 'live' });
    }
    const wrong = new WooCommerceRestApi({
      url: example.url,
      consumerKey: example.consumerKey,
      consumerSecret: 'cs_wrong',
      axiosConfig: { httpsAgent },
    } as never);
    expect((await outcome(wrong.get('acme_pay/settings')))[0]).toBe(401);
    httpsAgent.destroy();
  });
});

describe('the OAuth 1.0a signature', () => {
  it('follows RFC 5849: sorted, encoded parameters; identical repeats count once', async () => {
    // RFC 5849 §3.4.1.1's example, reduced to its query parameters.
    const base = signatureBaseString({
      method: 'post',
      url: 'http://example.com/request?b5=x',
      params: [
        ['b5', '=%3D'],
        ['a3', 'a'],
        ['c@', ''],
        ['a2', 'r b'],
        ['a3', '2 q'],
        ['a3', 'a'],
      ],
    });
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D',
    );
  });

  it('is checked by an authenticate usable without a listener', async () => {
    const authenticate = wooCommerceAuthenticate({
      keys: () => ({ consumerSecret: 'cs_1', user: { id: 7, capabilities: [] } }),
      now: () => 1_700_000_000_000,
    });
    expect(await authenticate(new Request('http://shop.example/wp-json/wc/v3/x'))).toBeNull();
    const secure = new Request('https://shop.example/wp-json/wc/v3/x?consumer_key=ck_1&consumer_secret=cs_1');
    expect(await authenticate(secure)).toEqual({ id: 7, capabilities: [] });
    await expect(
      authenticate(new Request('https://shop.example/x?consumer_key=ck_1&consumer_secret=cs_2')),
    ).rejects.toMatchObject({ code: 'woocommerce_rest_authentication_error', status: 401 });
    expect(wooCommerceServer({}).info.restRoot).toBe('/wp-json');
  });
});
