import { allowPublic, bearerTokenAuth } from 'commerce-plugin-framework';
import { type RestExchange, readChunksWithin, splitRequestUrl } from 'commerce-plugin-framework/adapter-kit';
import { describe, expect, it } from 'vitest';
import { tableServer } from './support/echo-plugin';
import { ADMIN_TOKEN, call } from './support/fixtures';

/** An exchange as a host adapter would build it, without a Fetch Request until one is asked for. */
function exchangeOf(method: string, url: string, headers: Record<string, string>, chunks: Uint8Array[] = []) {
  let requestsBuilt = 0;
  const { pathname, search } = splitRequestUrl(url);
  const headerMap = new Headers(headers);
  const exchange: RestExchange = {
    method,
    url,
    pathname,
    search,
    header: (name) => headerMap.get(name),
    headers: headerMap,
    readBody: async (maxBytes) =>
      chunks.length === 0
        ? null
        : readChunksWithin(
            (async function* () {
              yield* chunks;
            })(),
            maxBytes,
          ),
    toRequest: () => {
      requestsBuilt++;
      return new Request(url, { method, headers });
    },
  };
  return { exchange, built: () => requestsBuilt };
}

describe('the adapter entry handleExchange', () => {
  const server = tableServer(
    [
      [
        'test/v1',
        '/echo/{id}',
        {
          methods: ['GET', 'POST'],
          permission: allowPublic(),
          args: { id: { type: 'integer' }, q: { type: 'array' } },
          handler: (request) => ({ params: request.params, body: request.body ?? null }),
        },
      ],
    ],
    { authenticate: undefined, maxBodyBytes: 16 },
  );

  it('answers unserialised JSON results and builds no Fetch Request when not needed', async () => {
    const { exchange, built } = exchangeOf('GET', 'http://host/api/test/v1/echo/5?q=a,b', {});
    const result = await server.handleExchange(exchange);
    expect(result.kind).toBe('json');
    if (result.kind !== 'json') return;
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(result.body!)).toEqual({ params: { id: 5, q: ['a', 'b'] }, body: null });
    expect(built()).toBe(0);
  });

  it('reads chunked bodies within the limit', async () => {
    const encoder = new TextEncoder();
    const { exchange } = exchangeOf(
      'POST',
      'http://host/api/test/v1/echo/1',
      { 'content-type': 'application/json' },
      [encoder.encode('{"a":'), encoder.encode('1}')],
    );
    const result = await server.handleExchange(exchange);
    expect(result.kind === 'json' && JSON.parse(result.body!)).toEqual({ params: { id: 1 }, body: { a: 1 } });
    const big = exchangeOf('POST', 'http://host/api/test/v1/echo/1', { 'content-type': 'application/json' }, [
      encoder.encode('{"a":"0123456789'),
      encoder.encode('0123456789"}'),
    ]);
    const tooLarge = await server.handleExchange(big.exchange);
    expect(tooLarge.kind === 'json' && tooLarge.status).toBe(413);
  });

  it('splits URLs into path and query without a URL object', () => {
    expect(splitRequestUrl('http://h:8080/a/b?x=1&y=2#frag')).toEqual({
      pathname: '/a/b',
      search: 'x=1&y=2',
    });
    expect(splitRequestUrl('https://h')).toEqual({ pathname: '/', search: '' });
    expect(splitRequestUrl('http://h/?')).toEqual({ pathname: '/', search: '' });
    expect(splitRequestUrl('http://h/a#x?y')).toEqual({ pathname: '/a', search: '' });
  });

  it('authenticates bearer tokens from the headers alone, building no Fetch Request', async () => {
    const authServer = tableServer(
      [
        [
          'test/v1',
          '/me',
          { methods: 'GET', permission: allowPublic(), handler: (request) => request.user?.id ?? null },
        ],
      ],
      { authenticate: bearerTokenAuth({ [ADMIN_TOKEN]: { id: 7, capabilities: [] } }) },
    );
    const { exchange, built } = exchangeOf('GET', 'http://host/api/test/v1/me', {
      authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    const result = await authServer.handleExchange(exchange);
    expect(result.kind === 'json' && result.body).toBe('7');
    expect(built()).toBe(0);
  });

  it('calls a custom authenticator through fromHeader when it has one, with its this', async () => {
    const authenticator = Object.assign((_request: Request) => null, {
      prefix: 'user-',
      fromHeader(this: { prefix: string }, header: (name: string) => string | null) {
        const name = header('x-user');
        return name === null ? null : { id: `${this.prefix}${name}`, capabilities: [] };
      },
    });
    const authServer = tableServer(
      [
        [
          'test/v1',
          '/me',
          { methods: 'GET', permission: allowPublic(), handler: (request) => request.user?.id ?? null },
        ],
      ],
      { authenticate: authenticator },
    );
    const res = await call(authServer, 'GET', '/api/test/v1/me', { headers: { 'x-user': 'ann' } });
    expect(res.json).toBe('user-ann');
  });

  it('hands the token-carrying Request to authenticate', async () => {
    const seen: string[] = [];
    const authServer = tableServer(
      [['test/v1', '/x', { methods: 'GET', permission: allowPublic(), handler: () => 1 }]],
      {
        authenticate: (request) => {
          seen.push(request.headers.get('authorization') ?? '');
          return null;
        },
      },
    );
    await authServer.handleExchange(
      exchangeOf('GET', 'http://host/api/test/v1/x', { authorization: `Bearer ${ADMIN_TOKEN}` }).exchange,
    );
    expect(seen).toEqual([`Bearer ${ADMIN_TOKEN}`]);
  });
});
