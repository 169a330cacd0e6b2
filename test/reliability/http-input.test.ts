/**
 * Hostile HTTP over `server.fetch`: content types, lying `Content-Length`, bodies over the
 * limit sent as streams, huge URLs, encoded slashes and dot segments in setting ids, repeated
 * query keys, and header values that must never come back in response headers.
 */
import { allowPublic, createRestServer } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ExtraRoutesPlugin } from './support/extra-routes-plugin';
import {
  ADMIN_TOKEN,
  type Answer,
  expectRestError,
  freshShopForEachTest,
  SETTINGS_PATH,
  send,
  shopServer,
  snapshotStore,
  utf8,
} from './support/shop';

const shop = freshShopForEachTest();
const { expectStoreUnchanged } = shop;

describe('Content-Type', () => {
  const refused = [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-16',
    'application/jsonp',
    'application/json-seq',
    'text/json',
    'json',
    '',
    '*/*',
  ];

  it.each(refused)('a JSON body sent as %j is 415 rest_unsupported_media_type', async (contentType) => {
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: '{"value":"changed"}',
      headers: { 'content-type': contentType },
    });
    expectRestError(answer, 415, 'rest_unsupported_media_type');
    await expectStoreUnchanged();
  });

  it('a body without any Content-Type is 415', async () => {
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: utf8('{"value":"changed"}'),
    });
    expectRestError(answer, 415, 'rest_unsupported_media_type');
    await expectStoreUnchanged();
  });

  const accepted = [
    'application/json',
    'APPLICATION/JSON',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/merge-patch+json',
    'application/vnd.shop.settings+json; version=2',
  ];

  it.each(accepted)('%j is JSON', async (contentType) => {
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: '{"value":"changed"}',
      headers: { 'content-type': contentType },
    });
    expect(answer.status).toBe(200);
  });
});

describe('Content-Length', () => {
  it('a Content-Length smaller than the body does not let an oversized body through', async () => {
    const small = shopServer({ maxBodyBytes: 64 });
    const body = JSON.stringify({ value: 'x'.repeat(200) });
    const answer = await send(small.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body,
      headers: { 'content-type': 'application/json', 'content-length': '5' },
    });
    expectRestError(answer, 413, 'rest_body_too_large');
    expect(small.store.count('set')).toBe(0);
  });

  it('a Content-Length larger than the limit is not trusted either: the bytes read count', async () => {
    const small = shopServer({ maxBodyBytes: 64 });
    const answer = await send(small.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: '{"value":"short"}',
      headers: { 'content-type': 'application/json', 'content-length': '999999999' },
    });
    expect(answer.status).toBe(200);
    expect(await small.data.get('framework_shop_title')).toBe('short');
  });

  it('a body of exactly maxBodyBytes is read; one byte more is 413', async () => {
    const body = '{"value":"exact"}';
    const exact = shopServer({ maxBodyBytes: utf8(body).length });
    const ok = await send(exact.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(200);
    const over = await send(exact.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: `${body} `,
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(over, 413, 'rest_body_too_large');
    expect((over.json as { data: { max_bytes?: unknown } }).data.max_bytes).toBe(utf8(body).length);
  });

  it('the default limit is 1 MiB', async () => {
    const padding = ' '.repeat(1024 * 1024);
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: `{"value":"x"}${padding}`,
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(answer, 413, 'rest_body_too_large');
    await expectStoreUnchanged();
  });
});

/** An endless body stream that counts what was pulled and whether it was cancelled. */
function endlessStream(chunk: Uint8Array): {
  stream: ReadableStream<Uint8Array>;
  pulledBytes: () => number;
  cancelled: () => boolean;
} {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk.slice());
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulledBytes: () => pulled, cancelled: () => cancelled };
}

describe('chunked bodies over the limit', () => {
  it('an endless stream is cut off with 413 after about maxBodyBytes, and cancelled', async () => {
    const small = shopServer({ maxBodyBytes: 4096 });
    const { stream, pulledBytes, cancelled } = endlessStream(utf8('{"value":"'.padEnd(256, 'x')));
    const answer = await send(small.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: stream,
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(answer, 413, 'rest_body_too_large');
    // Read up to the limit plus the chunk that crossed it (and what the stream buffered), no more.
    expect(pulledBytes()).toBeLessThanOrEqual(4096 + 4 * 256);
    expect(cancelled()).toBe(true);
    expect(small.store.count('set')).toBe(0);
  });

  it('an endless stream of white space is not "no body": 413', async () => {
    const small = shopServer({ maxBodyBytes: 1024 });
    const { stream, cancelled } = endlessStream(utf8(' '.repeat(100)));
    const answer = await send(small.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: stream,
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(answer, 413, 'rest_body_too_large');
    expect(cancelled()).toBe(true);
  });

  it('a body over the limit is refused before authentication, so strangers cannot make the server buffer it', async () => {
    const small = shopServer({ maxBodyBytes: 1024 });
    const { stream } = endlessStream(utf8('x'.repeat(512)));
    const answer = await send(small.server, 'PUT', `${SETTINGS_PATH}/title`, {
      body: stream,
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(answer, 413, 'rest_body_too_large');
  });

  it('a stream under the limit, in many small chunks, is read whole', async () => {
    const text = JSON.stringify({ value: 'chunked 😀' });
    const encoded = utf8(text);
    let index = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (index >= encoded.length) controller.close();
        else controller.enqueue(encoded.slice(index, ++index));
      },
    });
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      body: stream,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect(await shop.data.get('framework_shop_title')).toBe('chunked 😀');
  });
});

describe('long URLs', () => {
  it('a 100 kB path is 404 rest_no_route', async () => {
    const answer = await send(shop.server, 'GET', `/api/${'a/'.repeat(50_000)}`, { token: ADMIN_TOKEN });
    expectRestError(answer, 404, 'rest_no_route');
  });

  it('a 100 kB setting id is 404 rest_setting_not_found', async () => {
    const answer = await send(shop.server, 'GET', `${SETTINGS_PATH}/${'t'.repeat(100_000)}`, {
      token: ADMIN_TOKEN,
    });
    expectRestError(answer, 404, 'rest_setting_not_found');
  });

  it('a 100 kB query string of 10 000 pairs is ignored where no argument names it', async () => {
    const query = Array.from({ length: 10_000 }, (_, index) => `k${index}=${'v'.repeat(5)}`).join('&');
    const answer = await send(shop.server, 'GET', `${SETTINGS_PATH}/title?${query}`, { token: ADMIN_TOKEN });
    expect(answer.status).toBe(200);
    expect((answer.json as { value: unknown }).value).toBe('Original title');
  });
});

describe('encoded slashes and dot segments in setting ids', () => {
  const ids = [
    'title%2F',
    'title%2Fx',
    '..%2Fretries',
    '%2E%2E%2Fretries',
    '%2e%2e%2f..%2fshop%2fsettings%2fretries',
    '..%5Cretries',
    '%252e%252e%252fretries',
    'title%00',
    'title%0d%0aX-Injected:%201',
    'TITLE',
    'title;retries',
    'title%20',
    '%20title',
    'retries%23',
    '%E2%80%AEtitle',
  ];

  it.each(ids)('%s reaches no setting: 404 rest_setting_not_found', async (id) => {
    const read = await send(shop.server, 'GET', `${SETTINGS_PATH}/${id}`, { token: ADMIN_TOKEN });
    expectRestError(read, 404, 'rest_setting_not_found');
    const write = await send(shop.server, 'PUT', `${SETTINGS_PATH}/${id}`, {
      token: ADMIN_TOKEN,
      json: { value: 'changed' },
    });
    expectRestError(write, 404, 'rest_setting_not_found');
    await expectStoreUnchanged();
  });

  it('invalid percent-encoding in an id is 400 rest_invalid_param', async () => {
    for (const id of ['%E2%80', '%ff', '%C0%AF']) {
      const answer = await send(shop.server, 'GET', `${SETTINGS_PATH}/${id}`, { token: ADMIN_TOKEN });
      expectRestError(answer, 400, 'rest_invalid_param');
    }
  });

  it('dot segments are resolved by the URL before routing: the answer is the route the resolved URL names, or 404', async () => {
    const cases: Array<[string, number, string | null]> = [
      // [path, status, the one setting the answer may be about (null: none)]
      [`${SETTINGS_PATH}/retries/../title`, 200, 'title'],
      [`${SETTINGS_PATH}/retries/%2e%2e/title`, 200, 'title'],
      [`${SETTINGS_PATH}/%2e%2e`, 404, null],
      [`${SETTINGS_PATH}/%2e%2e/%2e%2e/other/settings/title`, 404, null],
      [`${SETTINGS_PATH}/title/..%2F..%2Fretries`, 404, null],
      [`/api/commerce/v3/shop%2Fsettings/title`, 404, null],
      [`/api/commerce%2Fv3/shop/settings/title`, 404, null],
    ];
    for (const [path, status, settingId] of cases) {
      const answer = await send(shop.server, 'GET', path, { token: ADMIN_TOKEN });
      expect([path, answer.status]).toEqual([path, status]);
      if (settingId === null)
        expect(['rest_no_route', 'rest_setting_not_found']).toContain((answer.json as { code: string }).code);
      else expect((answer.json as { id: string }).id).toBe(settingId);
    }
  });
});

/** A plugin with a public echo route whose arguments show how repeated query keys are read. */
class EchoPlugin extends ExtraRoutesPlugin {
  constructor() {
    super({ id: 'echo', name: 'Echo', version: '1.0.0' }, (routes) =>
      routes.register('echo/v1', '/args', {
        methods: 'GET',
        permission: allowPublic(),
        args: {
          n: { type: 'integer' },
          s: { type: 'string' },
          list: { type: 'array', items: { type: 'string' } },
          any: {},
        },
        handler: (request) => request.params,
      }),
    );
  }
}

describe('repeated query keys', () => {
  const server = createRestServer({ plugins: [new EchoPlugin()] });
  const echo = async (query: string): Promise<Answer> => send(server, 'GET', `/api/echo/v1/args?${query}`);

  it('a scalar argument repeated with different values is 400 rest_invalid_param ("given more than once")', async () => {
    for (const query of ['n=1&n=2', 's=a&s=b', 'n=1&n=01', 's=a&s=a&s=b']) {
      const answer = await echo(query);
      expectRestError(answer, 400, 'rest_invalid_param');
      expect(JSON.stringify((answer.json as { data: unknown }).data)).toContain('more than once');
    }
  });

  it('a scalar argument repeated with the same value counts once (clients that send every key twice)', async () => {
    expect((await echo('n=1&n=1')).json).toEqual({ n: 1 });
    expect((await echo('s=a%20b&s=a+b&s=a%20b')).json).toEqual({ s: 'a b' });
  });

  it('a repeated array argument collects every occurrence, each possibly a comma list', async () => {
    expect((await echo('list=a&list=b,c')).json).toEqual({ list: ['a', 'b', 'c'] });
    expect((await echo('list=a,b')).json).toEqual({ list: ['a', 'b'] });
  });

  it('an untyped argument receives the list; unknown repeated keys are ignored', async () => {
    expect((await echo('any=1&any=2&zzz=1&zzz=2')).json).toEqual({ any: ['1', '2'] });
  });

  it('a path parameter is never overridden by the query (path > body > query)', async () => {
    const answer = await send(
      shop.server,
      'GET',
      `${SETTINGS_PATH}/title?setting_id=api_key&setting_id=retries`,
      {
        token: ADMIN_TOKEN,
      },
    );
    expect((answer.json as { id: string }).id).toBe('title');
  });

  it('a body value is never overridden by the query', async () => {
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title?value=from-query`, {
      token: ADMIN_TOKEN,
      json: { value: 'from-body' },
    });
    expect((answer.json as { value: unknown }).value).toBe('from-body');
  });
});

describe('writes come only from a JSON body', () => {
  // A browser sends a cross-site HTML form POST with an empty body and a form content type as a
  // "simple request": no CORS preflight, and the site's cookies attached. When the host's
  // `authenticate` reads a session cookie (as the admin pages invite it to), a value taken from
  // the query string lets any web page the manager visits change a setting:
  //   <form method="POST" action="https://shop.example/api/commerce/v3/shop/settings/webhook?value=https://evil.example"></form>
  it('a cross-site form POST (cookie session, empty body, value in the query) changes nothing', async () => {
    const cookieShop = shopServer({
      authenticate: (request) =>
        request.headers.get('cookie') === 'session=manager'
          ? { id: 1, capabilities: ['manage_commerce'] }
          : null,
    });
    const stored = await snapshotStore(cookieShop.data);
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const answer = await send(
        cookieShop.server,
        method,
        `${SETTINGS_PATH}/webhook?value=https://evil.example`,
        {
          body: '',
          headers: { cookie: 'session=manager', 'content-type': 'application/x-www-form-urlencoded' },
        },
      );
      expect([method, answer.status]).toEqual([
        method,
        expect.toSatisfy((status: number) => status === 400 || status === 415),
      ]);
    }
    expect(cookieShop.store.count('set')).toBe(0);
    expect(await snapshotStore(cookieShop.data)).toEqual(stored);
  });
});

describe('header input is never reflected into response headers', () => {
  const marker = 'reflectmarker';
  const hostileHeaders = {
    origin: `https://${marker}.example`,
    'x-forwarded-host': `${marker}.example`,
    'x-forwarded-proto': marker,
    'x-request-id': marker,
    'x-http-method-override': 'DELETE',
    accept: `text/${marker}`,
    'accept-language': marker,
    cookie: `session=${marker}`,
    'user-agent': marker,
    referer: `https://${marker}.example/`,
  };

  it('Headers refuses CR/LF in values, so injection has to come through the URL', () => {
    expect(() => new Headers({ 'x-evil': 'a\r\nSet-Cookie: x=1' })).toThrow();
    expect(() => new Headers({ 'x-evil': 'a\nb' })).toThrow();
  });

  it('no response header carries request input, for every kind of answer', async () => {
    const requests: Array<[string, string, string | undefined]> = [
      ['GET', SETTINGS_PATH, undefined],
      ['GET', `${SETTINGS_PATH}/title`, undefined],
      ['PUT', `${SETTINGS_PATH}/retries`, `{"value":"${marker}"}`],
      ['PUT', `${SETTINGS_PATH}/title`, '{"value":'],
      ['GET', `${SETTINGS_PATH}/${marker}%0d%0aSet-Cookie:%20x=${marker}`, undefined],
      ['DELETE', `${SETTINGS_PATH}/${marker}`, undefined],
      ['OPTIONS', `${SETTINGS_PATH}/title`, undefined],
      ['HEAD', `${SETTINGS_PATH}/title`, undefined],
      ['GET', `/api/${marker}%0d%0aLocation:%20x`, undefined],
      ['GET', `/api/commerce/v3/system_status?${marker}=${marker}%0d%0a`, undefined],
    ];
    for (const [method, path, body] of requests) {
      for (const token of [ADMIN_TOKEN, undefined]) {
        const answer = await send(shop.server, method, path, {
          ...(token ? { token } : {}),
          ...(body === undefined ? {} : { body }),
          headers: {
            ...hostileHeaders,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
        });
        const headerText = [...answer.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
        expect(headerText, `${method} ${path}`).not.toContain(marker);
        expect(headerText.toLowerCase()).not.toContain('set-cookie');
        expect(headerText.toLowerCase()).not.toContain('location');
        expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    await expectStoreUnchanged();
  });
});
