import {
  allowPublic,
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  OptionStoreError,
  RestError,
  RestResponse,
  requireCapability,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { echoServer, tableServer } from './support/echo-plugin';
import { ADMIN_TOKEN, CLERK_TOKEN, call, makeServer, NOBODY_TOKEN } from './support/fixtures';

const ok = { methods: 'GET' as const, permission: allowPublic(), handler: () => ({ ok: true }) };

describe('routing', () => {
  const server = tableServer([
    [
      'test/v1',
      '/things',
      [ok, { methods: 'POST', permission: allowPublic(), handler: () => ({ created: true }) }],
    ],
    [
      'test/v1',
      '/things/{id}',
      {
        methods: 'GET',
        permission: allowPublic(),
        args: { id: { type: 'integer', required: true } },
        handler: (request) => ({ id: request.get('id') }),
      },
    ],
    [
      'test/v1',
      '/things/{id}/notes/{note}',
      { methods: 'DELETE', permission: allowPublic(), handler: (request) => request.params },
    ],
    ['test/v1', '/things/featured', { ...ok, handler: () => 'featured' }],
  ]);

  it('answers 404 rest_no_route for an unknown path', async () => {
    const res = await call(server, 'GET', '/api/test/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'rest_no_route', message: expect.any(String), data: { status: 404 } });
    expect((await call(server, 'GET', '/elsewhere')).json.code).toBe('rest_no_route');
  });

  it('answers 405 rest_method_not_allowed with Allow', async () => {
    const res = await call(server, 'DELETE', '/api/test/v1/things');
    expect(res.status).toBe(405);
    expect(res.json.code).toBe('rest_method_not_allowed');
    expect(res.json.data.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const single = await call(server, 'PUT', '/api/test/v1/things/1/notes/x');
    expect(single.headers.get('allow')).toBe('DELETE, OPTIONS');
  });

  it("says in a 405's message which method the route does not accept, in upper case", async () => {
    const res = await call(server, 'DELETE', '/api/test/v1/things');
    expect(res.json.message).toBe('The route exists but does not accept DELETE.');
    // Fetch keeps an unusual method's case (`patch`); the message names it in upper case.
    const lower = await call(server, 'patch', '/api/test/v1/things');
    expect([lower.status, lower.json.message]).toEqual([405, 'The route exists but does not accept PATCH.']);
    const index = await call(server, 'PUT', '/api/test/v1');
    expect([index.status, index.json.code, index.json.message]).toEqual([
      405,
      'rest_method_not_allowed',
      'The route exists but does not accept PUT.',
    ]);
  });

  it('coerces an integer path parameter and matches digits only', async () => {
    expect((await call(server, 'GET', '/api/test/v1/things/7')).json).toEqual({ id: 7 });
    expect((await call(server, 'GET', '/api/test/v1/things/-7')).status).toBe(404);
    expect((await call(server, 'GET', '/api/test/v1/things/7a')).status).toBe(404);
    expect((await call(server, 'GET', '/api/test/v1/things/featured')).json).toBe('featured');
  });

  it('decodes path parameters without an argument as text', async () => {
    const res = await call(server, 'DELETE', '/api/test/v1/things/a%20b/notes/%E2%9C%93%2F..');
    expect(res.json).toEqual({ id: 'a b', note: '✓/..' });
    const bad = await call(server, 'DELETE', '/api/test/v1/things/x/notes/%E2%9C');
    expect([bad.status, bad.json.code, Object.keys(bad.json.data.params)]).toEqual([
      400,
      'rest_invalid_param',
      ['note'],
    ]);
  });

  it('ignores one trailing slash, not two', async () => {
    expect((await call(server, 'GET', '/api/test/v1/things/')).json).toEqual({ ok: true });
    expect((await call(server, 'GET', '/api/test/v1/things/7/')).json).toEqual({ id: 7 });
    expect((await call(server, 'GET', '/api/test/v1/things//')).status).toBe(404);
  });

  it('is case-sensitive', async () => {
    expect((await call(server, 'GET', '/api/test/v1/Things')).status).toBe(404);
    expect((await call(server, 'GET', '/API/test/v1/things')).status).toBe(404);
  });

  it('serves HEAD through GET without a body', async () => {
    const res = await call(server, 'HEAD', '/api/test/v1/things/7');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect((await call(server, 'HEAD', '/api/test/v1/things/1/notes/2')).status).toBe(405);
    const missing = await call(server, 'HEAD', '/api/test/v1/nothing');
    expect([missing.status, missing.text]).toEqual([404, '']);
  });

  it('answers OPTIONS with the methods and argument schemas', async () => {
    const res = await call(server, 'OPTIONS', '/api/test/v1/things/3');
    expect(res.status).toBe(200);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.json).toEqual({
      namespace: 'test/v1',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { id: { type: 'integer', required: true } } }],
    });
  });

  it('lists a namespace at GET {restRoot}/{namespace} and namespaces at the root', async () => {
    const res = await call(server, 'GET', '/api/test/v1');
    expect(res.status).toBe(200);
    expect(res.json.namespace).toBe('test/v1');
    expect(Object.keys(res.json.routes)).toEqual([
      '/api/test/v1/things',
      '/api/test/v1/things/{id}',
      '/api/test/v1/things/{id}/notes/{note}',
      '/api/test/v1/things/featured',
    ]);
    expect(res.json.routes['/api/test/v1/things'].methods).toEqual(['GET', 'POST']);
    expect((await call(server, 'GET', '/api/test/v1/')).status).toBe(200);
    expect((await call(server, 'POST', '/api/test/v1')).status).toBe(405);
    const root = await call(server, 'GET', '/api');
    expect(root.json.namespaces).toEqual(['commerce/v3', 'test/v1']);
    const host = await call(server, 'GET', '/api/commerce/v3');
    expect(Object.keys(host.json.routes)).toEqual(['/api/commerce/v3/system_status']);
  });

  it('exposes getRoutes with full paths, namespaces, methods and args', () => {
    const routes = server.getRoutes();
    expect(routes.map((route) => route.path)).toContain('/api/test/v1/things/{id}');
    const route = routes.find((candidate) => candidate.path === '/api/test/v1/things/{id}')!;
    expect(route).toMatchObject({ namespace: 'test/v1', route: '/things/{id}', methods: ['GET'] });
    expect(route.args.id).toEqual({ type: 'integer', required: true });
  });

  it('works when fetch is passed on alone', async () => {
    const { fetch } = server;
    const res = await fetch(new Request('http://localhost/api/test/v1/things'));
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('request bodies', () => {
  const server = echoServer({ a: { type: 'integer' } }, { maxBodyBytes: 64 });
  const post = (rawBody: BodyInit | null, contentType?: string) =>
    call(server, 'POST', '/api/test/v1/echo', {
      rawBody: rawBody ?? undefined,
      headers: contentType ? { 'content-type': contentType } : {},
    });

  it('accepts application/json and */*+json, with a UTF-8 charset', async () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=UTF-8',
      'application/merge-patch+json',
    ]) {
      const res = await post('{"a": 1}', type);
      expect(res.json).toEqual({ params: { a: 1 } });
    }
  });

  it('answers 415 for another content type, or none, when there is a body', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      undefined,
    ]) {
      const res = await post('{"a": 1}', type);
      expect(res.status).toBe(415);
      expect(res.json).toMatchObject({ code: 'rest_unsupported_media_type', data: { status: 415 } });
    }
  });

  it('treats an empty or blank body as no body, whatever its type', async () => {
    expect((await post('', 'text/plain')).json).toEqual({ params: {} });
    expect((await post(' \r\n\t', 'text/plain')).json).toEqual({ params: {} });
  });

  it('answers 400 rest_invalid_json for malformed JSON, non-objects, bad UTF-8, deep nesting, __proto__', async () => {
    const bodies: (string | Uint8Array)[] = [
      '{"a": ',
      '[1, 2]',
      'null',
      '"text"',
      '42',
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      '{"__proto__": {"polluted": true}}',
      '{"x": {"\\u005f_proto__": {"polluted": true}}}',
    ];
    for (const body of bodies) {
      const res = await post(body as BodyInit, 'application/json');
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('rest_invalid_json');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('limits nesting to 64 levels', async () => {
    const big = echoServer({}, { maxBodyBytes: 10_000 });
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    const send = (text: string) =>
      call(big, 'POST', '/api/test/v1/echo', {
        rawBody: text,
        headers: { 'content-type': 'application/json' },
      });
    expect((await send(nested(64))).status).toBe(200);
    const deep = await send(nested(65));
    expect([deep.status, deep.json.code]).toEqual([400, 'rest_invalid_json']);
    expect(deep.json.message).toContain('64');
    const arrays = await send(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`);
    expect(arrays.json.code).toBe('rest_invalid_json');
  });

  it('answers 413 rest_body_too_large past maxBodyBytes, counting bytes while reading', async () => {
    const exact = `{"a": 1, "pad": "${'x'.repeat(64 - 19)}"}`;
    expect(new TextEncoder().encode(exact).length).toBe(64);
    expect((await post(exact, 'application/json')).status).toBe(200);
    const over = await post(`${exact} `, 'application/json');
    expect([over.status, over.json.code, over.json.data.status]).toEqual([413, 'rest_body_too_large', 413]);
    // Multi-byte characters count as bytes, not characters.
    expect((await post(`{"p": "${'é'.repeat(30)}"}`, 'application/json')).status).toBe(413);
  });

  it('stops reading a streamed body once over the limit', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) controller.close();
        else controller.enqueue(new Uint8Array(32).fill(0x20));
      },
    });
    const res = await server.fetch(
      new Request('http://localhost/api/test/v1/echo', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json', 'content-length': '10' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('passes the parsed body to the handler as request.body', async () => {
    const bodyServer = tableServer([
      [
        'test/v1',
        '/raw',
        {
          methods: 'POST',
          permission: allowPublic(),
          handler: (request) => ({ body: request.body ?? 'none' }),
        },
      ],
    ]);
    const send = (rawBody?: string) =>
      call(bodyServer, 'POST', '/api/test/v1/raw', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
    expect((await send('{"x": [1, {"y": null}]}')).json).toEqual({ body: { x: [1, { y: null }] } });
    expect((await send()).json).toEqual({ body: 'none' });
  });
});

describe('errors and handler results', () => {
  const throwing = (error: unknown) => ({
    methods: 'GET' as const,
    permission: allowPublic(),
    handler: () => {
      throw error;
    },
  });
  const reported: unknown[] = [];
  const server = tableServer(
    [
      ['test/v1', '/rest-error', throwing(new RestError('acme_conflict', 'Already there.', 409, { id: 3 }))],
      [
        'test/v1',
        '/not-found',
        throwing(new Framework_Plugin_Exception('Setting "x" is not registered', 404)),
      ],
      ['test/v1', '/unprocessable', throwing(new Framework_Plugin_Exception('Value too odd', 422))],
      ['test/v1', '/plugin-500', throwing(new Framework_Plugin_Exception('internal detail /srv/app.ts', 0))],
      [
        'test/v1',
        '/store',
        throwing(new OptionStoreError('get', { cause: new Error('ECONNREFUSED 10.1.1.1') })),
      ],
      ['test/v1', '/crash', throwing(new TypeError('Cannot read properties of undefined (secret_column)'))],
      ['test/v1', '/string', throwing('a thrown string')],
      [
        'test/v1',
        '/custom',
        {
          methods: ['GET', 'POST'],
          permission: allowPublic(),
          handler: (request) =>
            request.method === 'POST'
              ? new RestResponse(null, 204)
              : new RestResponse({ made: true }, 202, { 'X-Extra': 'yes' }),
        },
      ],
      ['test/v1', '/nothing', { methods: 'GET', permission: allowPublic(), handler: () => undefined }],
      [
        'test/v1',
        '/raw-response',
        { methods: 'GET', permission: allowPublic(), handler: () => new Response('plain', { status: 299 }) },
      ],
      ['test/v1', '/bigint', { methods: 'GET', permission: allowPublic(), handler: () => ({ n: 1n }) }],
      [
        'test/v1',
        '/async',
        { methods: 'GET', permission: async () => true, handler: async () => ({ later: true }) },
      ],
    ],
    { onError: (error) => reported.push(error) },
  );

  it('answers a thrown RestError as it is', async () => {
    const res = await call(server, 'GET', '/api/test/v1/rest-error');
    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      code: 'acme_conflict',
      message: 'Already there.',
      data: { status: 409, id: 3 },
    });
  });

  it('answers a Framework_Plugin_Exception outside the settings routes as 500, reporting where it came from', async () => {
    reported.length = 0;
    for (const path of ['/not-found', '/unprocessable']) {
      const res = await call(server, 'GET', `/api/test/v1${path}`);
      expect(res.status).toBe(500);
      expect(res.json).toEqual({
        code: 'rest_internal_error',
        message: 'The server could not complete the request because of an internal error.',
        data: { status: 500 },
      });
    }
    expect(reported).toHaveLength(2);
    const [notFound] = reported as Error[];
    expect(notFound!.name).toBe('UnmappedPluginException');
    expect(notFound!.message).toContain('Setting "x" is not registered');
    expect(notFound!.message).toContain('outside the settings routes');
    expect(notFound!.cause).toBeInstanceOf(Framework_Plugin_Exception);
  });

  it('answers 500, not 404, when an item handler reads a setting id that does not exist', async () => {
    const errors: unknown[] = [];
    class Settings extends Framework_Abstract_Settings {
      protected registerSettings(): void {
        this.registerSetting('mode', 'string', { default: 'test' });
      }
    }
    const settings = new Settings('shop', new MemoryOptionStore());
    const typo = tableServer(
      [
        [
          'shop/v1',
          '/mode',
          { methods: 'GET', permission: allowPublic(), handler: () => settings.getValue('mdoe') },
        ],
      ],
      { onError: (error) => errors.push(error) },
    );
    const res = await call(typo, 'GET', '/api/shop/v1/mode');
    expect([res.status, res.json.code]).toEqual([500, 'rest_internal_error']);
    expect(res.text).not.toContain('mdoe');
    expect((errors[0] as Error).message).toMatch(/code 404.*mdoe/);
  });

  it('answers 503 for OptionStoreError and 500 for anything else, without internals, reporting to onError', async () => {
    reported.length = 0;
    const store = await call(server, 'GET', '/api/test/v1/store');
    expect([store.status, store.json.code]).toEqual([503, 'rest_store_unavailable']);
    expect(store.text).not.toContain('ECONNREFUSED');
    for (const path of ['/crash', '/string', '/plugin-500', '/bigint']) {
      const res = await call(server, 'GET', `/api/test/v1${path}`);
      expect(res.status).toBe(500);
      expect(res.json).toEqual({
        code: 'rest_internal_error',
        message: expect.any(String),
        data: { status: 500 },
      });
      expect(res.text).not.toMatch(/secret_column|thrown string|srv|at |\.ts/);
    }
    expect(reported).toHaveLength(5);
    expect(reported[1]).toBeInstanceOf(TypeError);
    expect((reported[3] as Error).cause).toBeInstanceOf(Framework_Plugin_Exception);
  });

  it('answers 500 when a handler sets a header Fetch refuses', async () => {
    const errors: unknown[] = [];
    const bad = tableServer(
      [
        [
          'test/v1',
          '/header',
          {
            methods: 'GET',
            permission: allowPublic(),
            handler: () => new RestResponse(1, 200, { 'X-Bad': 'a\r\nb' }),
          },
        ],
      ],
      { onError: (error) => errors.push(error) },
    );
    const res = await call(bad, 'GET', '/api/test/v1/header');
    expect([res.status, res.json.code]).toEqual([500, 'rest_internal_error']);
    expect(errors).toHaveLength(1);
  });

  it('survives an onError that throws', async () => {
    const fragile = tableServer([['test/v1', '/crash', throwing(new Error('x'))]], {
      onError: () => {
        throw new Error('logger down');
      },
    });
    expect((await call(fragile, 'GET', '/api/test/v1/crash')).status).toBe(500);
  });

  it('sends RestResponse status and headers, 204 without body', async () => {
    const res = await call(server, 'GET', '/api/test/v1/custom');
    expect([res.status, res.json, res.headers.get('x-extra')]).toEqual([202, { made: true }, 'yes']);
    const empty = await call(server, 'POST', '/api/test/v1/custom');
    expect([empty.status, empty.text]).toEqual([204, '']);
  });

  it('sends undefined as null, passes a Response on, awaits async handlers and permissions', async () => {
    expect((await call(server, 'GET', '/api/test/v1/nothing')).text).toBe('null');
    const raw = await call(server, 'GET', '/api/test/v1/raw-response');
    expect([raw.status, raw.text]).toEqual([299, 'plain']);
    expect((await call(server, 'GET', '/api/test/v1/async')).json).toEqual({ later: true });
  });
});

describe('authentication, permission and the order of checks', () => {
  const server = tableServer([
    [
      'test/v1',
      '/guarded/{id}',
      {
        methods: ['GET', 'POST'],
        permission: requireCapability('edit_shop_orders'),
        args: { id: { type: 'integer', required: true }, n: { type: 'integer', required: true } },
        handler: (request) => ({
          user: request.user?.id ?? null,
          id: request.get('id'),
          n: request.get('n'),
        }),
      },
    ],
    [
      'test/v1',
      '/throws',
      {
        methods: 'GET',
        permission: () => {
          throw new RestError('acme_locked', 'Locked.', 423);
        },
        handler: () => 'never',
      },
    ],
    ['test/v1', '/truthy', { methods: 'GET', permission: (() => 'yes') as never, handler: () => 'never' }],
  ]);

  it('answers 401 without a user and 403 with one, both rest_forbidden', async () => {
    const anonymous = await call(server, 'GET', '/api/test/v1/guarded/1?n=1');
    expect([anonymous.status, anonymous.json.code, anonymous.json.data.status]).toEqual([
      401,
      'rest_forbidden',
      401,
    ]);
    const wrongToken = await call(server, 'GET', '/api/test/v1/guarded/1?n=1', {
      token: 'not-a-known-token',
    });
    expect(wrongToken.status).toBe(401);
    const lacking = await call(server, 'GET', '/api/test/v1/guarded/1?n=1', { token: NOBODY_TOKEN });
    expect([lacking.status, lacking.json.code]).toEqual([403, 'rest_forbidden']);
    const allowed = await call(server, 'GET', '/api/test/v1/guarded/1?n=1', { token: CLERK_TOKEN });
    expect(allowed.json).toEqual({ user: 2, id: 1, n: 1 });
  });

  it('checks arguments before permission: a bad argument without auth is 400, not 401', async () => {
    const missing = await call(server, 'GET', '/api/test/v1/guarded/1');
    expect([missing.status, missing.json.code]).toEqual([400, 'rest_missing_callback_param']);
    const invalid = await call(server, 'GET', '/api/test/v1/guarded/1?n=x');
    expect([invalid.status, invalid.json.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('checks the body before arguments, and the method before the body', async () => {
    const badBody = await call(server, 'POST', '/api/test/v1/guarded/1', {
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(badBody.json.code).toBe('rest_invalid_json');
    const wrongMethod = await call(server, 'PUT', '/api/test/v1/guarded/1', {
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrongMethod.status).toBe(405);
    const noRoute = await call(server, 'PUT', '/api/test/v1/guarded/x', { rawBody: '{' });
    expect(noRoute.status).toBe(404);
  });

  it('checks permission before the handler resolves a setting: unknown id is 401/403 without permission', async () => {
    const settings = makeServer();
    expect((await call(settings, 'GET', '/api/commerce/v3/acme/settings/nope')).status).toBe(401);
    expect(
      (await call(settings, 'GET', '/api/commerce/v3/acme/settings/nope', { token: CLERK_TOKEN })).status,
    ).toBe(403);
    expect(
      (await call(settings, 'GET', '/api/commerce/v3/acme/settings/nope', { token: ADMIN_TOKEN })).status,
    ).toBe(404);
  });

  it('answers a RestError thrown by a permission callback as it is', async () => {
    expect((await call(server, 'GET', '/api/test/v1/throws')).status).toBe(423);
  });

  it('allows only a permission result of true', async () => {
    expect((await call(server, 'GET', '/api/test/v1/truthy')).status).toBe(401);
  });

  it('reports a RestError thrown by authenticate at the permission step, after argument errors', async () => {
    const strict = tableServer(
      [
        [
          'test/v1',
          '/x',
          {
            methods: 'GET',
            permission: allowPublic(),
            args: { n: { type: 'integer', required: true } },
            handler: () => 1,
          },
        ],
      ],
      {
        authenticate: () => {
          throw new RestError('rest_invalid_token', 'The token has expired.', 401);
        },
      },
    );
    expect((await call(strict, 'GET', '/api/test/v1/x')).json.code).toBe('rest_missing_callback_param');
    expect((await call(strict, 'GET', '/api/test/v1/x?n=1')).json.code).toBe('rest_invalid_token');
  });

  it('answers 500 when authenticate returns something that is not a user', async () => {
    const odd = tableServer([['test/v1', '/x', ok]], { authenticate: () => 'admin' as never });
    expect((await call(odd, 'GET', '/api/test/v1/x')).status).toBe(500);
  });

  it('lets custom argument steps see the authenticated user', async () => {
    const seen: unknown[] = [];
    const aware = tableServer([
      [
        'test/v1',
        '/x',
        {
          methods: 'GET',
          permission: allowPublic(),
          args: {
            q: {
              type: 'string',
              sanitize: (value, request) => {
                seen.push(request.user?.id ?? null);
                return value;
              },
            },
          },
          handler: () => 1,
        },
      ],
    ]);
    await call(aware, 'GET', '/api/test/v1/x?q=a', { token: CLERK_TOKEN });
    await call(aware, 'GET', '/api/test/v1/x?q=a');
    expect(seen).toEqual([2, null]);
  });
});

describe('response headers', () => {
  const server = tableServer([
    ['test/v1', '/plain', ok],
    [
      'test/v1',
      '/cached',
      {
        methods: 'GET',
        permission: allowPublic(),
        handler: () => new RestResponse({ public: true }, 200, { 'Cache-Control': 'public, max-age=60' }),
      },
    ],
    [
      'test/v1',
      '/raw',
      { methods: 'GET', permission: allowPublic(), handler: () => new Response('plain text') },
    ],
    ['test/v1', '/deny', { methods: 'POST', permission: () => false, handler: () => null }],
  ]);

  it('carries Cache-Control: no-store and X-Content-Type-Options: nosniff on every answer', async () => {
    const answers = [
      await call(server, 'GET', '/api/test/v1/plain'),
      await call(server, 'HEAD', '/api/test/v1/plain'),
      await call(server, 'OPTIONS', '/api/test/v1/plain'),
      await call(server, 'GET', '/api'),
      await call(server, 'GET', '/api/test/v1'),
      await call(server, 'OPTIONS', '/api'),
      await call(server, 'GET', '/api/test/v1/nothing'),
      await call(server, 'DELETE', '/api/test/v1/plain'),
      await call(server, 'POST', '/api/test/v1/deny'),
      await call(server, 'POST', '/api/test/v1/deny', {
        rawBody: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
      await call(server, 'GET', '/api/test/v1/raw'),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('cache-control'), String(answer.status)).toBe('no-store');
      expect(answer.headers.get('x-content-type-options'), String(answer.status)).toBe('nosniff');
    }
    expect(answers.map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200, 200, 404, 405, 401, 415, 200,
    ]);
  });

  it("keeps a handler's own Cache-Control", async () => {
    const answer = await call(server, 'GET', '/api/test/v1/cached');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
