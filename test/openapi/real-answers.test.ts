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
} from 'commerce-plugin-framework/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOn } from '../adapters/support/listen';
import type { Listening } from '../adapters/support/parity-suite';
import { plainStore } from '../rest/support/fixtures';
import { AnswerChecker, type CheckedAnswer } from './support/answer-checker';
import { configuredDemoServer, demoServer, MANAGER_TOKEN, NOBODY_TOKEN } from './support/demo-document';
import { type InlineOperation, inlinePaths } from './support/inline-parts';
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

/** While true, the demo's rule across settings refuses every write. */
let refuseEveryWrite = false;
/** When a number: the rule passes that many more calls, then refuses (a plan passes, its apply fails). */
let rulePassesLeft: number | undefined;

/** The demo's rule across settings, as the test steers it. */
function testRule() {
  if (rulePassesLeft !== undefined && rulePassesLeft-- <= 0) refuseEveryWrite = true;
  return refuseEveryWrite ? [{ id: 'title', message: 'Refused by the test rule.' }] : undefined;
}

/** The scope the demo's `scopeExists` refuses (every other valid path exists). */
const UNKNOWN_SCOPE = 'nowhere';

// The demo's settings with the options whose errors the document lists: a `scopeExists` and a
// rule across settings (the document is the same with or without them).
const server = configuredDemoServer(
  new MemoryOptionStore(),
  {
    scopeExists: (path) => path !== UNKNOWN_SCOPE,
    rules: [testRule],
  },
  { maxBodyBytes: MAX_BODY_BYTES },
);
const document: OpenApiDocument = generateOpenApiDocument(server, { title: 'Demo', version: '1.0.0' });
const checker = new AnswerChecker(document);
const plainServer = demoServer(plainStore());
/** The document of the demo on a store without `commit` and `readLog` (it lists 501 answers). */
const plainDocument: OpenApiDocument = generateOpenApiDocument(plainServer, {
  title: 'Demo',
  version: '1.0.0',
});
const plainChecker = new AnswerChecker(plainDocument);
let demo: Listening;
let broken: Listening;
let plain: Listening;
let outdated: Listening;
let nextName = 0;

beforeAll(async () => {
  demo = await listenOn(createServer(toNodeHandler(server)));
  broken = await listenOn(createServer(toNodeHandler(demoServer(brokenStore))));
  plain = await listenOn(createServer(toNodeHandler(plainServer)));
  // Stored settings at a newer schema version than the demo's code (1): it reads, but every write is 409.
  outdated = await listenOn(
    createServer(toNodeHandler(demoServer(new MemoryOptionStore({ 'framework_acme_pay:schema': '2' })))),
  );
});

afterAll(async () => {
  await Promise.all([demo?.close(), broken?.close(), plain?.close(), outdated?.close()]);
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
async function checked(
  call: Call,
  status?: number,
  origin = demo.origin,
  against = checker,
): Promise<CheckedAnswer> {
  const answer = await send(origin, call);
  expect(against.check(call.method, call.path, answer), `${call.method} ${call.path}`).toEqual([]);
  if (status !== undefined) expect(answer.status, `${call.method} ${call.path} ${answer.text}`).toBe(status);
  return answer;
}

/** The operations of the document's paths under `prefix`, their shared parts in place. */
function operations(prefix: string, of = document): [string, string, InlineOperation][] {
  return Object.entries(inlinePaths(of))
    .filter(([path]) => path.startsWith(prefix))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]): [string, string, InlineOperation] => [
        path,
        method.toUpperCase(),
        operation,
      ]),
    );
}

function requestBodySchema(operation: InlineOperation): JsonSchema | undefined {
  return operation.requestBody?.content['application/json']?.schema;
}

/** An invalid query string for the operation: a bad value for its first typed query parameter. */
function invalidQuery(operation: InlineOperation): string | undefined {
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
async function frameworkErrors(valid: Call, path: string, operation: InlineOperation): Promise<void> {
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

/** The codes an error answer of `operation` at `status` may have, from its description. */
function documentsCode(operation: InlineOperation, status: string, code: string): boolean {
  return operation.responses[status]?.description.includes(code) ?? false;
}

/** A valid request of a settings operation, its body made from the documented body schema. */
function validSettingsCall(path: string, method: string, operation: InlineOperation): Call {
  if (path.endsWith('/settings/batch')) {
    return {
      method,
      path,
      body: {
        update: [
          { id: 'max_retries', value: 4 },
          { id: 'mode', value: 'live' },
        ],
        delete: ['fee_percent'],
      },
    };
  }
  const schema = requestBodySchema(operation);
  return { method, path, ...(schema ? { body: sampleOf(schema, document) } : {}) };
}

/** A valid call of export, import or restore (a document of one value, a restore to now). */
function configCall(path: string, method: string): Call {
  if (path.endsWith('/export')) return { method, path };
  if (path.endsWith('/import')) {
    const document = {
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme_pay',
      schema_version: 1,
      levels: { '': { title: 'Imported' } },
    };
    return { method, path, body: { document } };
  }
  return { method, path, body: { to: new Date().toISOString() } };
}

/** The batch's own answers: both lists, `If-Match` against the list's tag, refused items. */
async function batchAnswers(valid: Call): Promise<void> {
  const ok = JSON.parse((await checked(valid, 200)).text);
  expect(ok.update.map((item: { id: string }) => item.id)).toEqual(['max_retries', 'mode']);
  expect(ok.delete.map((item: { id: string }) => item.id)).toEqual(['fee_percent']);
  const deletesOnly = JSON.parse((await checked({ ...valid, body: { delete: ['mode'] } }, 200)).text);
  expect(deletesOnly).toMatchObject({ update: [], delete: [{ id: 'mode', value: 'test' }] });
  const listTag = (
    await checked({ method: 'GET', path: valid.path.replace(/\/batch$/, '') }, 200)
  ).headers.get('etag');
  await checked({ ...valid, headers: { 'if-match': listTag! } }, 200);
  await checked({ ...valid, headers: { 'if-match': '*' } }, 200);
  for (const body of [
    {},
    { update: [], delete: [] },
    { update: [{ id: 'mode', value: 'live' }], delete: ['mode'] },
    { delete: ['mode', 'mode'] },
    { delete: 'mode' },
  ]) {
    const answer = await checked({ ...valid, body }, 400);
    expect(JSON.parse(answer.text).code, JSON.stringify(body)).toBe('rest_invalid_param');
  }
  const rejected = await checked(
    { ...valid, body: { update: [{ id: 'nope', value: 1 }], delete: ['gone'] } },
    400,
  );
  expect(JSON.parse(rejected.text)).toMatchObject({
    code: 'rest_batch_rejected',
    data: {
      errors: [
        { id: 'nope', code: 'rest_setting_not_found' },
        { id: 'gone', code: 'rest_setting_not_found' },
      ],
    },
  });
}

/** The configuration-as-code routes (CONTRACT §13): their calls are documents and plans, not setting values. */
const CONFIG_PATH = /\/settings\/(export|import|restore)$/;
const CONFIG = '/api/commerce/v3/acme_pay/settings';

/** Runs `body` with the demo's rule refusing every write (or, given `passes`, after that many passes). */
async function withRefusingRule(body: () => Promise<void>, passes?: number): Promise<void> {
  if (passes === undefined) refuseEveryWrite = true;
  else rulePassesLeft = passes;
  try {
    await body();
  } finally {
    refuseEveryWrite = false;
    rulePassesLeft = undefined;
  }
}

describe('the demo answers as its document says, over HTTP', () => {
  const settingsPaths = [...new Set(operations('/api/commerce/v3/').map(([path]) => path))].filter(
    (path) => !CONFIG_PATH.test(path),
  );

  it.each(settingsPaths)('settings and status: %s, success and every error', async (settingsPath) => {
    for (const [path, method, operation] of operations('/api/commerce/v3/').filter(
      ([at]) => at === settingsPath,
    )) {
      const valid = validSettingsCall(path, method, operation);
      const value = (requestBodySchema(operation)?.properties as Record<string, JsonSchema> | undefined)
        ?.value;
      const ok = await checked(valid, 200);
      await frameworkErrors(valid, path, operation);
      const tag = ok.headers.get('etag');
      if ('304' in operation.responses) {
        await checked({ ...valid, headers: { 'if-none-match': tag! } }, 304);
      }
      if ('404' in operation.responses) {
        const answer = await checked({ ...valid, query: `scope=${UNKNOWN_SCOPE}` }, 404);
        expect(JSON.parse(answer.text)).toMatchObject({
          code: 'rest_scope_not_found',
          data: { scope: UNKNOWN_SCOPE },
        });
      }
      if ('409' in operation.responses) {
        const answer = await checked(valid, 409, outdated.origin);
        expect(JSON.parse(answer.text)).toMatchObject({
          code: 'rest_schema_outdated',
          data: { stored: 2, schema_version: 1 },
        });
      }
      if ('412' in operation.responses) {
        const answer = await checked({ ...valid, headers: { 'if-match': '"not-the-tag"' } }, 412);
        expect(JSON.parse(answer.text).data.etag).toMatch(/^"/);
      }
      if (documentsCode(operation, '400', 'rest_setting_rules_failed')) {
        await withRefusingRule(async () => {
          const answer = await checked(valid, 400);
          expect(JSON.parse(answer.text)).toMatchObject({
            code: 'rest_setting_rules_failed',
            data: {
              errors: [
                { id: 'title', code: 'rest_setting_rule_failed', message: 'Refused by the test rule.' },
              ],
            },
          });
        });
      }
      if (path.endsWith('/settings/batch')) {
        await batchAnswers(valid);
        await withRefusingRule(async () => {
          const answer = await checked(valid, 400);
          expect(JSON.parse(answer.text)).toMatchObject({
            code: 'rest_batch_rejected',
            data: { errors: [{ id: 'title', code: 'rest_setting_rule_failed' }] },
          });
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
  });

  it('export, import and restore: success and every error', async () => {
    const exported = await checked({ method: 'GET', path: `${CONFIG}/export` }, 200);
    const document = JSON.parse(exported.text);
    expect(document).toMatchObject({ format: 'commerce-plugin-settings', plugin: 'acme_pay' });
    const importing = (body: object): Call => ({ method: 'POST', path: `${CONFIG}/import`, body });
    const restoring = (body: object): Call => ({ method: 'POST', path: `${CONFIG}/restore`, body });
    const changed = {
      ...document,
      levels: { ...document.levels, '': { ...document.levels[''], title: 'Pay now' } },
    };
    const now = () => new Date().toISOString();

    // Success: a dry run answers the plan; without it, the plan is applied.
    const plan = JSON.parse((await checked(importing({ document: changed, dry_run: true }), 200)).text);
    expect(plan.changes).toMatchObject([{ scope: null, id: 'title', action: 'set', new: 'Pay now' }]);
    const applied = JSON.parse((await checked(importing({ document: changed, plan_id: plan.id }), 200)).text);
    expect(applied).toMatchObject({ applied: 1, plan: { id: plan.id } });
    const restorePlan = JSON.parse((await checked(restoring({ to: now(), dry_run: true }), 200)).text);
    expect(restorePlan.errors).toEqual([]);
    await checked(restoring({ to: now() }), 200);

    // 400: the document or `to` missing, a document refused as a whole, a plan with errors.
    for (const [call, code] of [
      [importing({}), 'rest_missing_callback_param'],
      [importing({ document: { ...document, format: 'nope' } }), 'rest_invalid_param'],
      [restoring({}), 'rest_missing_callback_param'],
      [restoring({ to: now(), scope: '/bad//' }), 'rest_invalid_param'],
    ] as const) {
      expect(JSON.parse((await checked(call, 400)).text).code, JSON.stringify(call.body)).toBe(code);
    }
    const unknown = { ...document, levels: { [UNKNOWN_SCOPE]: { title: 'Elsewhere' } } };
    for (const call of [importing({ document: unknown }), restoring({ to: now(), scope: UNKNOWN_SCOPE })]) {
      const refused = JSON.parse((await checked(call, 400)).text);
      expect(refused.code).toBe('rest_plan_invalid');
      expect(refused.data.errors[0]).toMatchObject({ scope: UNKNOWN_SCOPE, code: 'scope_not_found' });
    }
    // 400: the rules pass the plan, then refuse at the apply.
    await withRefusingRule(async () => {
      const refused = await checked(
        importing({ document: { ...changed, levels: { '': { title: 'Later' } } } }),
        400,
      );
      expect(JSON.parse(refused.text).code).toBe('rest_setting_rules_failed');
    }, 1);
    const beforeChange = now();
    // The change's history entry must be later than that time (a time names the state right
    // after every entry made at or before it, to the millisecond).
    await new Promise((resolve) => setTimeout(resolve, 5));
    await checked(importing({ document: { ...changed, levels: { '': { title: 'Changed again' } } } }), 200);
    await withRefusingRule(async () => {
      const refused = await checked(restoring({ to: beforeChange, setting_ids: ['title'] }), 400);
      expect(JSON.parse(refused.text).code).toBe('rest_setting_rules_failed');
    }, 1);
    // 404: a `to` that is neither a time nor a history entry.
    const missing = await checked(restoring({ to: 'yesterday-ish' }), 404);
    expect(JSON.parse(missing.text).code).toBe('rest_history_not_found');
    // 412: the plan reviewed is not the plan now; `data.plan` is the fresh one.
    for (const call of [
      importing({ document: changed, plan_id: 'stale' }),
      restoring({ to: now(), plan_id: 'stale' }),
    ]) {
      const stale = JSON.parse((await checked(call, 412)).text);
      expect(stale).toMatchObject({ code: 'rest_precondition_failed', data: { conflicts: [] } });
      expect(stale.data.plan.id).not.toBe('stale');
    }
    // 401, 403, a cross-site write, 413, 415, bad JSON; 409 (stored at a newer schema), 503.
    for (const call of [
      { method: 'GET', path: `${CONFIG}/export` },
      importing({ document }),
      restoring({ to: now() }),
    ]) {
      const [path, , operation] = operations(call.path).find(([, verb]) => verb === call.method)!;
      await frameworkErrors(call, path, operation);
      const outdatedAnswer = await checked(call, 409, outdated.origin);
      expect(JSON.parse(outdatedAnswer.text)).toMatchObject({
        code: 'rest_schema_outdated',
        data: { stored: 2, schema_version: 1 },
      });
      await checked(call, 503, broken.origin);
    }
  });

  it('settings and status: 405 on each path, for a method it does not have', async () => {
    await methodNotAllowed('/api/commerce/v3/');
  });

  it('on a store without commit and readLog: the 501 answers its document lists', async () => {
    const plainDocument = generateOpenApiDocument(demoServer(plainStore()), {
      title: 'Demo',
      version: '1.0.0',
    });
    const unsupported = operations('/', plainDocument).filter(
      ([, , operation]) => '501' in operation.responses,
    );
    // Conditional writes (PUT, POST, PATCH, DELETE of each setting), the batch, every history
    // route, export, import and restore.
    expect(unsupported.length).toBe(16 * 4 + 1 + 1 + 16 + 3);
    for (const [path, method, operation] of unsupported) {
      const valid = CONFIG_PATH.test(path)
        ? configCall(path, method)
        : validSettingsCall(path, method, operation);
      const conditional = '412' in operation.responses ? { headers: { 'if-match': '*' } } : {};
      const answer = await checked({ ...valid, ...conditional }, 501, plain.origin, plainChecker);
      expect(JSON.parse(answer.text).code).toBe('rest_unsupported_by_store');
    }
    expect(
      [...plainChecker.documented()].filter((key) => key.endsWith(' 501') && !plainChecker.seen.has(key)),
    ).toEqual([]);
    // The demo's own store has both: its document lists no 501.
    expect(JSON.stringify(document)).not.toContain('"501"');
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
