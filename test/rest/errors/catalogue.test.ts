/**
 * Every code of the REST error catalogue is produced by a real request through
 * `createRestServer(...).fetch`, with the status the catalogue gives it and no stack in the body.
 */
import { PassThrough } from 'node:stream';
import {
  allowPublic,
  createRestServer,
  Framework_REST_Controller,
  MemoryOptionStore,
  type OptionStore,
  REST_ERROR_CATALOGUE,
  RestError,
  type RestErrorCode,
  type RestServer,
  type RouteRegistry,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { readNodeBody } from '../../../src/adapters/node/body-reader';
import { tableServer } from '../support/echo-plugin';
import {
  ADMIN_TOKEN,
  authenticate,
  type CallResult,
  call,
  GatewayPlugin,
  GatewaySettings,
  NOBODY_TOKEN,
  plainStore,
} from '../support/fixtures';

const SETTINGS = '/api/commerce/v3/acme/settings';

class ThingsController extends Framework_REST_Controller {
  override getItemSchema(): object {
    return {
      $schema: 'http://json-schema.org/draft-04/schema#',
      title: 'thing',
      type: 'object',
      properties: {
        id: { type: 'integer', context: ['view', 'edit'] },
        note: { type: 'string', context: ['edit'] },
      },
    };
  }
  registerRoutes(routes: RouteRegistry): void {
    routes.register(this.namespace, `/${this.restBase}`, {
      methods: 'GET',
      permission: allowPublic(),
      args: { context: this.getContextParam() },
      handler: () => [],
    });
  }
}

/** A store whose every read fails. */
function brokenStore(): OptionStore {
  const fail = () => Promise.reject(new Error('connection refused'));
  return { get: fail, getMany: fail, set: fail, delete: fail };
}

/** A gateway whose settings have a rule: at most 5 retries. */
function ruledServer(): RestServer {
  const settings = new GatewaySettings('acme', new MemoryOptionStore(), {
    rules: [(values) => (Number(values.retries) > 5 ? [{ id: 'retries', message: 'At most 5.' }] : [])],
  });
  class RuledPlugin extends GatewayPlugin {
    override getSettingsHandler(): GatewaySettings {
      return settings;
    }
  }
  return createRestServer({ plugins: [new RuledPlugin()], authenticate });
}

/** A gateway whose settings know their scopes: only `eu` exists. */
function knownScopesServer(): RestServer {
  const settings = new GatewaySettings('acme', new MemoryOptionStore(), {
    scopeExists: (path) => path === 'eu',
  });
  class KnownScopesPlugin extends GatewayPlugin {
    override getSettingsHandler(): GatewaySettings {
      return settings;
    }
  }
  return createRestServer({ plugins: [new KnownScopesPlugin()], authenticate });
}

const gateway = (store?: OptionStore, extra: object = {}): RestServer =>
  createRestServer({ plugins: [new GatewayPlugin(store)], authenticate, ...extra });

type Case = [code: RestErrorCode, status: number, answer: () => Promise<CallResult>];

const CASES: Case[] = [
  ['rest_no_route', 404, () => call(gateway(), 'GET', '/api/nowhere')],
  ['rest_method_not_allowed', 405, () => call(gateway(), 'PATCH', SETTINGS, { token: ADMIN_TOKEN })],
  [
    'rest_cross_site_request',
    403,
    () =>
      call(gateway(), 'PUT', `${SETTINGS}/retries`, {
        body: { value: 4 },
        headers: { origin: 'https://evil.example', cookie: 'session=1' },
      }),
  ],
  [
    'rest_body_too_large',
    413,
    () =>
      call(gateway(undefined, { maxBodyBytes: 8 }), 'PUT', `${SETTINGS}/retries`, {
        token: ADMIN_TOKEN,
        body: { value: 123456789 },
      }),
  ],
  [
    'rest_unsupported_media_type',
    415,
    () =>
      call(gateway(), 'PUT', `${SETTINGS}/retries`, {
        token: ADMIN_TOKEN,
        rawBody: 'value=4',
        headers: { 'content-type': 'text/plain' },
      }),
  ],
  [
    'rest_invalid_json',
    400,
    () =>
      call(gateway(), 'PUT', `${SETTINGS}/retries`, {
        token: ADMIN_TOKEN,
        rawBody: '{"value":',
        headers: { 'content-type': 'application/json' },
      }),
  ],
  [
    'rest_missing_callback_param',
    400,
    () => call(gateway(), 'PUT', `${SETTINGS}/retries`, { token: ADMIN_TOKEN, body: {} }),
  ],
  [
    'rest_invalid_param',
    400,
    () => call(gateway(), 'GET', `${SETTINGS}/history?per_page=1000`, { token: ADMIN_TOKEN }),
  ],
  ['rest_forbidden', 401, () => call(gateway(), 'GET', SETTINGS)],
  ['rest_forbidden', 403, () => call(gateway(), 'GET', SETTINGS, { token: NOBODY_TOKEN })],
  ['rest_forbidden_context', 401, () => call(thingsServer(), 'GET', '/api/things/v1/things?context=edit')],
  [
    'rest_forbidden_context',
    403,
    () => call(thingsServer(), 'GET', '/api/things/v1/things?context=edit', { token: NOBODY_TOKEN }),
  ],
  ['rest_setting_not_found', 404, () => call(gateway(), 'GET', `${SETTINGS}/nope`, { token: ADMIN_TOKEN })],
  [
    'rest_plan_invalid',
    400,
    () =>
      call(gateway(), 'POST', `${SETTINGS}/import`, {
        token: ADMIN_TOKEN,
        body: {
          document: {
            format: 'commerce-plugin-settings',
            version: 1,
            plugin: 'acme',
            schema_version: 1,
            levels: { '': { retries: 'many' } },
          },
        },
      }),
  ],
  [
    'rest_history_not_found',
    404,
    () =>
      call(gateway(), 'POST', `${SETTINGS}/restore`, { token: ADMIN_TOKEN, body: { to: 'last tuesday' } }),
  ],
  [
    'rest_schema_outdated',
    409,
    () =>
      call(gateway(new MemoryOptionStore({ 'framework_acme:schema': '9' })), 'PUT', `${SETTINGS}/retries`, {
        token: ADMIN_TOKEN,
        body: { value: 4 },
      }),
  ],
  [
    'rest_setting_rules_failed',
    400,
    () => call(ruledServer(), 'PUT', `${SETTINGS}/retries`, { token: ADMIN_TOKEN, body: { value: 9 } }),
  ],
  [
    'rest_scope_not_found',
    404,
    () =>
      call(knownScopesServer(), 'PUT', `${SETTINGS}/retries?scope=EU`, {
        token: ADMIN_TOKEN,
        body: { value: 4 },
      }),
  ],
  [
    'rest_setting_value_invalid',
    400,
    () => call(gateway(), 'PUT', `${SETTINGS}/retries`, { token: ADMIN_TOKEN, body: { value: 'x' } }),
  ],
  [
    'rest_precondition_failed',
    412,
    () =>
      call(gateway(), 'PUT', `${SETTINGS}/retries`, {
        token: ADMIN_TOKEN,
        body: { value: 4 },
        headers: { 'if-match': '"not-the-tag"' },
      }),
  ],
  [
    'rest_batch_rejected',
    400,
    () =>
      call(gateway(), 'POST', `${SETTINGS}/batch`, {
        token: ADMIN_TOKEN,
        body: { update: [{ id: 'retries', value: 'x' }] },
      }),
  ],
  [
    'rest_unsupported_by_store',
    501,
    () =>
      call(gateway(plainStore()), 'POST', `${SETTINGS}/batch`, {
        token: ADMIN_TOKEN,
        body: { update: [{ id: 'retries', value: 4 }] },
      }),
  ],
  [
    'rest_store_unavailable',
    503,
    () => call(gateway(brokenStore(), { onError: () => {} }), 'GET', SETTINGS, { token: ADMIN_TOKEN }),
  ],
  [
    'rest_internal_error',
    500,
    () =>
      call(
        tableServer(
          [
            [
              'boom/v1',
              '/boom',
              {
                methods: 'GET',
                permission: allowPublic(),
                handler: () => {
                  throw new Error('secret internals at /srv/app.js:12');
                },
              },
            ],
          ],
          { onError: () => {} },
        ),
        'GET',
        '/api/boom/v1/boom',
      ),
  ],
];

/** A public list route whose `context=edit` needs the management capability. */
function thingsServer(): RestServer {
  const controller = new ThingsController('things/v1', 'things');
  return tableServer([
    [
      'things/v1',
      '/things',
      {
        methods: 'GET',
        permission: allowPublic(),
        args: { context: controller.getContextParam() },
        handler: () => [],
      },
    ],
  ]);
}

describe('the REST error catalogue', () => {
  it.each(CASES)('%s is answered %i by a real request', async (code, status, answer) => {
    const res = await answer();
    expect(res.status).toBe(status);
    expect(res.json.code).toBe(code);
    expect(res.json.data.status).toBe(status);
    expect(REST_ERROR_CATALOGUE[code].status as readonly number[]).toContain(status);
    expect(res.text).not.toMatch(/\bat .*:\d+:\d+|\.js:\d+|internals/);
  });

  it('has every code produced by one of the requests above (rest_request_aborted by the node reader below)', () => {
    const produced = new Set<string>(CASES.map(([code]) => code));
    produced.add('rest_request_aborted');
    expect(new Set(Object.keys(REST_ERROR_CATALOGUE))).toEqual(produced);
  });

  it('answers a client gone mid-body with rest_request_aborted (node adapter; nobody reads it)', async () => {
    const stream = new PassThrough();
    const reading = readNodeBody(stream, 1024, { stoppedEarly: false });
    stream.write('{"a":');
    stream.destroy();
    const error = await reading.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RestError);
    expect((error as RestError).code).toBe('rest_request_aborted');
    expect((error as RestError).status).toBe(REST_ERROR_CATALOGUE.rest_request_aborted.status[0]);
  });

  it('gives each entry a status list, a one-line description and its data', () => {
    for (const [code, entry] of Object.entries(REST_ERROR_CATALOGUE)) {
      expect(code).toMatch(/^rest_[a-z_]+$/);
      expect(entry.status.length).toBeGreaterThan(0);
      expect(entry.when).not.toContain('\n');
      expect(typeof entry.data).toBe('string');
    }
  });
});
