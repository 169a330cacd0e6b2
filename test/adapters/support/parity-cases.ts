import { createCsrfToken } from 'commerce-plugin-framework/admin';
import { ADMIN_TOKEN, ADMIN_USER, CLERK_TOKEN, CSRF_SECRET, MAX_BODY_BYTES, SESSION } from './fixture-server';

/** How a case sends its body. */
export type CaseBody =
  /** JSON text, `Content-Type: application/json`, with a `Content-Length`. */
  | { readonly json: unknown }
  /** Raw text with a `Content-Length` (and the given content type, if any). */
  | { readonly text: string; readonly type?: string }
  /** Chunked (no `Content-Length`), in these pieces. */
  | { readonly chunks: readonly string[]; readonly type?: string }
  /** A `Content-Length` claiming `declared` bytes, then these pieces, and the request never ends. */
  | { readonly declared: number; readonly chunks: readonly string[]; readonly type?: string }
  /** An admin form post with the admin's CSRF token. */
  | { readonly form: Readonly<Record<string, string>> };

/** One request of the parity comparison. */
export interface ParityCase {
  readonly name: string;
  readonly method: string;
  /** Path and query, exactly as sent on the request line. */
  readonly path: string;
  /** Bearer token of the admin or of a clerk without the management capability, or the admin's session cookie. */
  readonly as?: 'admin' | 'clerk' | 'session';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: CaseBody;
  /**
   * Set on cases a body parser mounted before the adapter answers itself (`express.json()`
   * on invalid JSON, or past its own limit): the status it gives, or `'waits'` when it answers
   * only once the client finished sending (body-parser drains a refused body first).
   */
  readonly hostParserStatus?: number | 'waits';
}

/** The request headers of a case (authorization, cookie, content type), without length. */
export function caseHeaders(testCase: ParityCase): Record<string, string> {
  const headers: Record<string, string> = { ...testCase.headers };
  if (testCase.as === 'admin') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (testCase.as === 'clerk') headers.authorization = `Bearer ${CLERK_TOKEN}`;
  if (testCase.as === 'session') headers.cookie = `theme=dark; session=${SESSION}`;
  const body = testCase.body;
  if (body === undefined) return headers;
  if ('json' in body) headers['content-type'] = 'application/json';
  else if ('form' in body) headers['content-type'] = 'application/x-www-form-urlencoded';
  else if (body.type !== undefined) headers['content-type'] = body.type;
  return headers;
}

/** The body pieces of a case (form fields get the admin's CSRF token). */
export async function casePieces(body: CaseBody): Promise<string[]> {
  if ('json' in body) return [JSON.stringify(body.json)];
  if ('text' in body) return [body.text];
  if ('chunks' in body) return [...body.chunks];
  const form = new URLSearchParams({
    _csrf: await createCsrfToken(CSRF_SECRET, ADMIN_USER.id),
    ...body.form,
  });
  return [form.toString()];
}

const SETTINGS = '/api/commerce/v3/shop/settings';
const ITEMS = '/api/acme/v1/items';
const overLimit = (size: number) => JSON.stringify({ value: 'x'.repeat(size) });
const bigJson = overLimit(2 * MAX_BODY_BYTES);

/** The requests every adapter must answer exactly as `server.fetch` does, in this order. */
export const PARITY_CASES: readonly ParityCase[] = [
  { name: 'root index', method: 'GET', path: '/api' },
  { name: 'namespace index', method: 'GET', path: '/api/acme/v1' },
  { name: 'list settings', method: 'GET', path: SETTINGS, as: 'admin' },
  { name: 'one setting', method: 'GET', path: `${SETTINGS}/retries`, as: 'admin' },
  {
    name: 'PUT an integer',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { json: { value: 5 } },
  },
  { name: 'read it back', method: 'GET', path: `${SETTINGS}/retries`, as: 'admin' },
  {
    name: 'PATCH a boolean',
    method: 'PATCH',
    path: `${SETTINGS}/enabled`,
    as: 'admin',
    body: { json: { value: true } },
  },
  {
    name: 'POST an object, chunked',
    method: 'POST',
    path: `${SETTINGS}/meta`,
    as: 'admin',
    body: { chunks: ['{"value":', '{"a":[1,2,{"b":null}]}', '}'], type: 'application/json; charset=utf-8' },
  },
  {
    name: 'PUT a secret',
    method: 'PUT',
    path: `${SETTINGS}/api_key`,
    as: 'admin',
    body: { json: { value: 'sk_1' } },
  },
  { name: 'status report masks it', method: 'GET', path: '/api/commerce/v3/system_status', as: 'admin' },
  {
    name: 'wrong value type',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { json: { value: '7' } },
  },
  { name: 'value missing', method: 'PUT', path: `${SETTINGS}/retries`, as: 'admin', body: { json: {} } },
  {
    name: 'value null',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { json: { value: null } },
  },
  { name: 'unknown setting', method: 'GET', path: `${SETTINGS}/nope`, as: 'admin' },
  { name: 'no route', method: 'GET', path: '/api/acme/v1/nothing' },
  { name: 'no route under the root', method: 'POST', path: '/api/x', body: { json: { value: 1 } } },
  { name: 'trailing slash', method: 'GET', path: `${SETTINGS}/`, as: 'admin' },
  { name: 'dot segments', method: 'GET', path: `/api/acme/v1/x/../items` },
  { name: 'case-sensitive path', method: 'GET', path: '/api/acme/v1/ITEMS' },
  { name: '405 with Allow', method: 'DELETE', path: SETTINGS, as: 'admin' },
  { name: '405 on an index', method: 'POST', path: '/api', body: { json: { a: 1 } } },
  { name: '405 for an unknown method', method: 'PROPFIND', path: SETTINGS, as: 'admin' },
  {
    name: '415 text/plain',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { text: 'value=5', type: 'text/plain' },
  },
  {
    name: '415 without Content-Type',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { text: '{"value":5}' },
  },
  {
    name: '415 for a non-UTF-8 charset',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { text: '{"value":5}', type: 'application/json; charset=latin1' },
    hostParserStatus: 415,
  },
  {
    name: 'JSON with a +json type',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { text: '{"value":6}', type: 'application/merge-patch+json' },
  },
  {
    name: 'invalid JSON',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { text: '{"value":', type: 'application/json' },
    hostParserStatus: 400,
  },
  {
    name: 'JSON that is not an object',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { json: [5] },
  },
  {
    name: 'JSON nested too deep',
    method: 'PUT',
    path: `${SETTINGS}/meta`,
    as: 'admin',
    body: { text: `{"value":${'['.repeat(70)}${']'.repeat(70)}}`, type: 'application/json' },
  },
  {
    name: '__proto__ key',
    method: 'PUT',
    path: `${SETTINGS}/meta`,
    as: 'admin',
    body: { text: '{"value":{"__proto__":{"x":1}}}', type: 'application/json' },
  },
  {
    name: 'blank body counts as none',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { text: ' \n ', type: 'application/json' },
    hostParserStatus: 400,
  },
  {
    name: 'empty body (Content-Length: 0)',
    method: 'PUT',
    path: `${SETTINGS}/retries`,
    as: 'admin',
    body: { text: '', type: 'application/json' },
  },
  { name: 'empty POST without a type', method: 'POST', path: '/api/acme/v1', body: { text: '' } },
  {
    name: '413 with Content-Length',
    method: 'PUT',
    path: `${SETTINGS}/title`,
    as: 'admin',
    body: { text: bigJson, type: 'application/json' },
  },
  {
    name: '413 chunked',
    method: 'PUT',
    path: `${SETTINGS}/title`,
    as: 'admin',
    body: {
      chunks: [bigJson.slice(0, 700), bigJson.slice(700, 1400), bigJson.slice(1400)],
      type: 'application/json',
    },
  },
  {
    name: '413 with a lying Content-Length, body never ends',
    method: 'PUT',
    path: `${SETTINGS}/title`,
    as: 'admin',
    body: { declared: 50_000_000, chunks: [bigJson], type: 'application/json' },
    hostParserStatus: 'waits',
  },
  {
    name: 'exactly at the limit',
    method: 'PUT',
    path: `${SETTINGS}/title`,
    as: 'admin',
    body: { text: overLimit(MAX_BODY_BYTES - 12), type: 'application/json' },
  },
  { name: '401 without a user', method: 'GET', path: SETTINGS },
  { name: '403 without the capability', method: 'GET', path: SETTINGS, as: 'clerk' },
  { name: 'argument errors come before 401', method: 'PUT', path: `${SETTINGS}/retries`, body: { json: {} } },
  { name: 'HEAD', method: 'HEAD', path: SETTINGS, as: 'admin' },
  { name: 'HEAD of a missing path', method: 'HEAD', path: '/api/nope' },
  { name: 'OPTIONS', method: 'OPTIONS', path: `${SETTINGS}/retries` },
  { name: 'OPTIONS of an index', method: 'OPTIONS', path: '/api' },
  {
    name: 'create items',
    method: 'POST',
    path: ITEMS,
    as: 'admin',
    body: { json: { name: 'Café crème', price: 3.5 } },
  },
  {
    name: 'create another',
    method: 'POST',
    path: ITEMS,
    as: 'admin',
    body: { json: { name: 'Tea', price: 2 } },
  },
  {
    name: 'query coercion and paging headers',
    method: 'GET',
    path: `${ITEMS}?per_page=1&page=2&orderby=name&order=ASC`,
  },
  { name: 'query: invalid integer', method: 'GET', path: `${ITEMS}?per_page=abc` },
  { name: 'query: percent-encoded search', method: 'GET', path: `${ITEMS}?search=caf%C3%A9` },
  {
    name: 'query: + is a space',
    method: 'GET',
    path: `${ITEMS}?search=caf%C3%A9+cr%C3%A8me&context=edit`,
    as: 'admin',
  },
  { name: 'integer path parameter', method: 'GET', path: `${ITEMS}/2` },
  { name: 'non-digit path parameter', method: 'GET', path: `${ITEMS}/abc` },
  { name: 'envelope 404', method: 'GET', path: `${ITEMS}/99` },
  { name: 'boolean query coercion', method: 'DELETE', path: `${ITEMS}/1?force=1`, as: 'admin' },
  { name: 'admin status page', method: 'GET', path: '/admin/status', as: 'session' },
  { name: 'admin settings page', method: 'GET', path: '/admin/settings/shop', as: 'session' },
  { name: 'admin page needs a user', method: 'GET', path: '/admin/settings/shop' },
  {
    name: 'admin form post',
    method: 'POST',
    path: '/admin/settings/shop',
    as: 'session',
    body: { form: { framework_shop_title: 'Pay by card', framework_shop_retries: '4' } },
  },
  {
    name: 'admin page after the post',
    method: 'GET',
    path: '/admin/settings/shop?settings-updated=true',
    as: 'session',
  },
  { name: 'the post reached the store', method: 'GET', path: `${SETTINGS}/title`, as: 'admin' },
];
