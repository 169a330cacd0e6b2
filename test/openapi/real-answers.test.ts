/**
 * Every route of the demo, over a real listener (node adapter on 127.0.0.1), answers as its
 * OpenAPI document says: for every operation its success and each error the document lists
 * are produced and validated with Ajv (JSON Schema 2020-12): body, status, required headers.
 * The test ends by checking that no documented answer was left unproduced.
 */
import { createServer } from 'node:http';
import {
  allowPublic,
  createRestServer,
  Framework_Plugin,
  Framework_REST_API,
  MemoryOptionStore,
  type OptionStore,
  type RouteRegistry,
} from 'commerce-plugin-framework';
import { toNodeHandler } from 'commerce-plugin-framework/node';
import {
  generateOpenApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
} from 'commerce-plugin-framework/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOn } from '../adapters/support/listen';
import type { Listening } from '../adapters/support/parity-suite';
import { plainStore } from '../rest/support/fixtures';
import { AnswerChecker, type CheckedAnswer } from './support/answer-checker';
import { demoServer, MANAGER_TOKEN, NOBODY_TOKEN } from './support/demo-document';
import { sampleOf, wrongTypeOf } from './support/sample-value';

const MAX_BODY_BYTES = 4096;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A store that fails every call: the settings routes answer 503. */
const brokenStore: OptionStore = {
  get: () => Promise.reject(new Error('down')),
  getMany: () => Promise.reject(new Error('down')),
  set: () => Promise.reject(new Error('down')),
  delete: () => Promise.reject(new Error('down')),
  commit: () => Promise.reject(new Error('down')),
  readLog: () => Promise.reject(new Error('down')),
};

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query?: string;
  readonly token?: string | null;
  /** JSON-encoded unless a string. */
  readonly body?: unknown;
  readonly contentType?: string;
  /** More request headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

let document: OpenApiDocument;
let checker: AnswerChecker;
let demo: Listening;
let broken: Listening;
let plain: Listening;
let nextName = 0;

beforeAll(async () => {
  const server = demoServer(new MemoryOptionStore(), { maxBodyBytes: MAX_BODY_BYTES });
  document = generateOpenApiDocument(server, { title: 'Demo', version: '1.0.0' });
  checker = new AnswerChecker(document);
  demo = await listenOn(createServer(toNodeHandler(server)));
  broken = await listenOn(createServer(toNodeHandler(demoServer(brokenStore))));
  plain = await listenOn(createServer(toNodeHandler(demoServer(plainStore()))));
});

afterAll(async () => {
  await Promise.all([demo?.close(), broken?.close(), plain?.close()]);
});

async function send(origin: string, call: Call): Promise<CheckedAnswer> {
  const headers: Record<string, string> = { ...call.headers };
  const token = call.token === undefined ? MANAGER_TOKEN : call.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (call.body !== undefined) {
    body = typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    headers['content-type'] = call.contentType ?? 'application/json';
  }
  const url = `${origin}${call.path}${call.query ? `?${call.query}` : ''}`;
  const response = await fetch(url, { method: call.method, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Sends a call, checks the answer against the document, and expects `status` when given. */
async function checked(call: Call, status?: number, origin = demo.origin): Promise<CheckedAnswer> {
  const answer = await send(origin, call);
  expect(checker.check(call.method, call.path, answer), `${call.method} ${call.path}`).toEqual([]);
  if (status !== undefined) expect(answer.status, `${call.method} ${call.path} ${answer.text}`).toBe(status);
  return answer;
}

function operations(prefix: string): [string, string, OpenApiOperation][] {
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith(prefix))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]): [string, string, OpenApiOperation] => [
        path,
        method.toUpperCase(),
        operation,
      ]),
    );
}

function requestBodySchema(operation: OpenApiOperation): JsonSchema | undefined {
  return operation.requestBody?.content['application/json']?.schema;
}

/** An invalid query string for the operation: a bad value for its first typed query parameter. */
function invalidQuery(operation: OpenApiOperation): string | undefined {
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue;
    const { type, enum: options } = parameter.schema;
    if (type === 'integer' || type === 'boolean' || Array.isArray(options) || parameter.name === 'scope')
      return `${parameter.name}=%E2%9C%97`;
  }
  return undefined;
}

/**
 * The errors the pipeline gives, each produced from a valid call: without a token (401), with
 * a token without capabilities (403), with a bad body (400, 413, 415) or query (400), with an
 * integer path parameter that is not one (404).
 */
async function frameworkErrors(valid: Call, path: string, operation: OpenApiOperation): Promise<void> {
  const documented = (status: number) => String(status) in operation.responses;
  // A public route answers 401/403 only for a context that needs a manager.
  const guarded = operation.parameters?.some((parameter) => parameter.name === 'context') ?? false;
  const asking = guarded ? { query: 'context=edit' } : {};
  if (documented(401)) await checked({ ...valid, ...asking, token: null }, 401);
  if (documented(403)) await checked({ ...valid, ...asking, token: NOBODY_TOKEN }, 403);
  if (valid.method !== 'GET') {
    // No Authorization header (so cookies would be its credentials), sent from another site.
    const answer = await checked({ ...valid, token: null, headers: { 'sec-fetch-site': 'cross-site' } }, 403);
    expect(JSON.parse(answer.text).code).toBe('rest_cross_site_request');
  }
  if (BODY_METHODS.has(valid.method)) {
    await checked({ ...valid, body: '{"value":' }, 400);
    await checked({ ...valid, body: 'x'.repeat(MAX_BODY_BYTES + 1) }, 413);
    await checked({ ...valid, body: 'value=1', contentType: 'text/plain' }, 415);
  } else if (documented(400)) {
    // A bad query value, else an id below its minimum (1).
    const query = invalidQuery(operation);
    const call =
      query !== undefined ? { ...valid, query } : { ...valid, path: valid.path.replace(/\/\d+$/, '/0') };
    expect(call, `${valid.method} ${path}: something to make invalid`).not.toEqual(valid);
    await checked(call, 400);
  }
  if (documented(404) && path.includes('{id}')) {
    await checked({ ...valid, path: valid.path.replace(/\/\d+$/, '/abc') }, 404);
  }
}

/** A 405 for each documented path: the first method it does not have. */
async function methodNotAllowed(prefix: string): Promise<void> {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith(prefix)) continue;
    const method = METHODS.find((candidate) => !(candidate.toLowerCase() in item));
    if (method === undefined) continue; // every method answered: no 405 (nor documented)
    const answer = await checked({ method, path: path.replace('{id}', '1') }, 405);
    expect(answer.headers.get('allow')).toMatch(/OPTIONS$/);
  }
}

describe('the demo answers as its document says, over HTTP', () => {
  it('settings and status: each setting path, success and every error', async () => {
    for (const [path, method, operation] of operations('/api/commerce/v3/')) {
      // A valid body made from the documented body schema (a write of one setting: {value}).
      const schema = requestBodySchema(operation);
      const value = (schema?.properties as Record<string, JsonSchema> | undefined)?.value;
      const valid: Call = { method, path, ...(schema ? { body: sampleOf(schema, document) } : {}) };
      const ok = await checked(valid, 200);
      await frameworkErrors(valid, path, operation);
      const tag = ok.headers.get('etag');
      if ('304' in operation.responses) {
        await checked({ ...valid, headers: { 'if-none-match': tag! } }, 304);
      }
      if ('412' in operation.responses) {
        const answer = await checked({ ...valid, headers: { 'if-match': '"not-the-tag"' } }, 412);
        expect(JSON.parse(answer.text).data.etag).toMatch(/^"/);
      }
      if ('501' in operation.responses) {
        const conditional = '412' in operation.responses ? { headers: { 'if-match': '*' } } : {};
        await checked({ ...valid, ...conditional }, 501, plain.origin);
      }
      if (path.endsWith('/settings/batch')) {
        const answer = await checked({ ...valid, body: { update: [{ id: 'nope', value: 1 }] } }, 400);
        expect(JSON.parse(answer.text)).toMatchObject({
          code: 'rest_batch_rejected',
          data: { errors: [{ id: 'nope', code: 'rest_setting_not_found' }] },
        });
      }
      if (value !== undefined) {
        const wrong = wrongTypeOf(value, document);
        const answer = await checked({ ...valid, body: { value: wrong } }, 400);
        const code = wrong === null ? 'rest_missing_callback_param' : 'rest_setting_value_invalid';
        expect(JSON.parse(answer.text).code).toBe(code);
        await checked({ ...valid, body: {} }, 400);
      }
      await checked(valid, 503, broken.origin);
    }
    await methodNotAllowed('/api/commerce/v3/');
  });

  it('items: list, create, get, change, trash, delete, with their envelope errors', async () => {
    const create = async () =>
      JSON.parse(
        (
          await checked(
            { method: 'POST', path: '/api/acme/v1/items', body: { name: `Lamp ${nextName++}`, price: 5 } },
            201,
          )
        ).text,
      ).data.id as number;
    const one = (id: number | string) => `/api/acme/v1/items/${id}`;
    await checked({ method: 'GET', path: '/api/acme/v1/items', query: 'per_page=2', token: null }, 200);
    await checked({ method: 'GET', path: '/api/acme/v1/items', query: 'context=edit' }, 200);
    for (const [token, status] of [
      [null, 401],
      [NOBODY_TOKEN, 403],
    ] as const) {
      const answer = await checked(
        { method: 'GET', path: '/api/acme/v1/items', query: 'context=edit', token },
        status,
      );
      expect(JSON.parse(answer.text).code).toBe('rest_forbidden_context');
    }
    const id = await create();
    await checked({ method: 'GET', path: one(id), token: null }, 200);
    await checked({ method: 'PUT', path: one(id), body: { price: 6 } }, 200);
    await checked({ method: 'PATCH', path: one(id), body: { status: 'draft' } }, 200);
    await checked({ method: 'DELETE', path: one(id) }, 200);
    await checked({ method: 'DELETE', path: one(id) }, 410);
    await checked({ method: 'DELETE', path: one(id), query: 'force=true' }, 200);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      await checked(
        { method, path: one(99_999), ...(BODY_METHODS.has(method) ? { body: { price: 1 } } : {}) },
        404,
      );
    }
    await checked({ method: 'POST', path: '/api/acme/v1/items', body: { name: '  ', price: 1 } }, 400);
    await checked({ method: 'PATCH', path: one(await create()), body: { name: ' ' } }, 400);

    for (const [path, method, operation] of operations('/api/acme/v1/items')) {
      const valid: Call = {
        method,
        path: path.replace('{id}', String(await create())),
        ...(BODY_METHODS.has(method) ? { body: { name: `Desk ${nextName++}`, price: 3 } } : {}),
      };
      await frameworkErrors(valid, path, operation);
    }
    await methodNotAllowed('/api/acme/v1/items');
  });

  it('orders: list, create, get, change, cancel, delete, with their envelope errors', async () => {
    const line = { product_id: 1, name: 'Mug', quantity: 2, price: 4.5 };
    const create = async () =>
      JSON.parse(
        (await checked({ method: 'POST', path: '/api/acme/v1/orders', body: { line_items: [line] } }, 201))
          .text,
      ).data.id as number;
    const one = (id: number | string) => `/api/acme/v1/orders/${id}`;
    await checked({ method: 'GET', path: '/api/acme/v1/orders', query: 'status=pending&order=ASC' }, 200);
    const id = await create();
    await checked({ method: 'GET', path: one(id) }, 200);
    await checked({ method: 'PUT', path: one(id), body: { status: 'completed' } }, 200);
    await checked({ method: 'PATCH', path: one(id), body: { customer_note: 'ring twice' } }, 200);
    await checked({ method: 'DELETE', path: one(id) }, 200);
    await checked({ method: 'DELETE', path: one(id), query: 'force=true' }, 200);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      await checked(
        { method, path: one(id), ...(BODY_METHODS.has(method) ? { body: { status: 'failed' } } : {}) },
        404,
      );
    }
    await checked({ method: 'POST', path: '/api/acme/v1/orders', body: { line_items: [line, line] } }, 400);

    for (const [path, method, operation] of operations('/api/acme/v1/orders')) {
      const valid: Call = {
        method,
        path: path.replace('{id}', String(await create())),
        ...(method === 'POST'
          ? { body: { line_items: [line] } }
          : BODY_METHODS.has(method)
            ? { body: { status: 'on-hold' } }
            : {}),
      };
      await frameworkErrors(valid, path, operation);
    }
    await methodNotAllowed('/api/acme/v1/orders');
  });

  it('answers paths no route has with the Error body (404 rest_no_route, rest_setting_not_found)', async () => {
    const cases = [
      ['/api/acme/v1/nothing', 'rest_no_route'],
      ['/api/commerce/v3/acme_pay/settings/nope', 'rest_setting_not_found'],
    ];
    for (const [path, code] of cases) {
      const answer = await send(demo.origin, { method: 'GET', path: path! });
      const body = JSON.parse(answer.text);
      expect([answer.status, body.code]).toEqual([404, code]);
      expect(checker.problemsAgainst('Error', body)).toEqual([]);
    }
  });

  it('leaves no documented answer unproduced (500 is produced by the route below)', () => {
    const missing = [...checker.documented()].filter(
      (key) => !checker.seen.has(key) && !key.endsWith(' 500'),
    );
    expect(missing).toEqual([]);
  });
});

class FailingApi extends Framework_REST_API {
  override registerRoutes(routes: RouteRegistry): void {
    super.registerRoutes(routes);
    routes.register('broken/v1', '/boom', {
      methods: 'GET',
      permission: allowPublic(),
      handler: () => {
        throw new Error('internal details');
      },
      docs: { responses: [{ status: 200, description: 'Never.', schema: { type: 'object' } }] },
    });
  }
}

class FailingPlugin extends Framework_Plugin {
  constructor() {
    super({ id: 'failing', name: 'Failing', version: '1.0.0' });
  }
  protected override initRestApiHandler(): void {
    this.restApiHandler = new FailingApi(this);
  }
}

describe('an internal error', () => {
  it('is answered 500 with the documented Error body', async () => {
    const server = createRestServer({ plugins: [new FailingPlugin()], onError: () => {} });
    const failing = new AnswerChecker(generateOpenApiDocument(server, { title: 'Failing', version: '1' }));
    const listening = await listenOn(createServer(toNodeHandler(server)));
    try {
      const answer = await send(listening.origin, {
        method: 'GET',
        path: '/api/broken/v1/boom',
        token: null,
      });
      expect(answer.status).toBe(500);
      expect(failing.check('GET', '/api/broken/v1/boom', answer)).toEqual([]);
      expect(answer.text).not.toContain('internal details');
    } finally {
      await listening.close();
    }
  });
});
