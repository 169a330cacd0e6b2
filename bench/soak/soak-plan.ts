/**
 * What `npm run soak` sends: a fixed mix of reads, writes and requests that must fail, each
 * with the one status it must get. Every connection cycles through the mix in order.
 */

/** The bearer token the soak server is started with (token68 characters). */
export const SOAK_TOKEN = 'soak-token-3b9f1c7a5e2d4086';

const SETTINGS = '/api/commerce/v3/acme_pay/settings';
const MANAGER = { authorization: `Bearer ${SOAK_TOKEN}` };
const JSON_MANAGER = { ...MANAGER, 'content-type': 'application/json' };

/** One kind of request in the mix. */
export interface SoakRequest {
  /** A short name for the report. */
  readonly name: string;
  readonly method: 'GET' | 'PUT';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body of request number `n` (so that writes change the value every time). */
  body?(n: number): string;
  /** The only status this request may get. */
  readonly expected: number;
}

/** The mix: 5 reads, 3 writes, 4 requests that must be refused. */
export const SOAK_MIX: readonly SoakRequest[] = [
  { name: 'list settings', method: 'GET', path: SETTINGS, headers: MANAGER, expected: 200 },
  { name: 'read a setting', method: 'GET', path: `${SETTINGS}/title`, headers: MANAGER, expected: 200 },
  {
    name: 'write a string',
    method: 'PUT',
    path: `${SETTINGS}/title`,
    headers: JSON_MANAGER,
    body: (n) => JSON.stringify({ value: `Acme Pay ${n}` }),
    expected: 200,
  },
  {
    name: 'write an integer',
    method: 'PUT',
    path: `${SETTINGS}/max_retries`,
    headers: JSON_MANAGER,
    body: (n) => JSON.stringify({ value: n % 10 }),
    expected: 200,
  },
  {
    name: 'write a password',
    method: 'PUT',
    path: `${SETTINGS}/api_key`,
    headers: JSON_MANAGER,
    body: (n) => JSON.stringify({ value: `sk_test_${n}` }),
    expected: 200,
  },
  {
    name: 'system status',
    method: 'GET',
    path: '/api/commerce/v3/system_status',
    headers: MANAGER,
    expected: 200,
  },
  {
    name: 'list items',
    method: 'GET',
    path: '/api/acme/v1/items?per_page=5',
    headers: MANAGER,
    expected: 200,
  },
  { name: 'read a setting again', method: 'GET', path: `${SETTINGS}/mode`, headers: MANAGER, expected: 200 },
  {
    name: 'invalid value',
    method: 'PUT',
    path: `${SETTINGS}/max_retries`,
    headers: JSON_MANAGER,
    body: () => '{"value":"three"}',
    expected: 400,
  },
  {
    name: 'broken JSON',
    method: 'PUT',
    path: `${SETTINGS}/title`,
    headers: JSON_MANAGER,
    body: () => '{"value":',
    expected: 400,
  },
  {
    name: 'unknown setting',
    method: 'GET',
    path: `${SETTINGS}/no_such_setting`,
    headers: MANAGER,
    expected: 404,
  },
  { name: 'no token', method: 'GET', path: SETTINGS, headers: {}, expected: 401 },
];
