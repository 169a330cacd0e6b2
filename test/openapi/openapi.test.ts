import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  allowPublic,
  componentRef,
  createRestServer,
  type EndpointDocs,
  Framework_Abstract_Settings,
  Framework_Plugin,
  Framework_REST_API,
  MemoryOptionStore,
  type RouteRegistry,
  requireManagement,
} from 'commerce-plugin-framework';
import {
  generateOpenApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  toJsonSchema,
} from 'commerce-plugin-framework/openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { AcmePayGateway } from '../../examples/demo/gateway-plugin';
import { itemsPlugin } from '../../examples/items-plugin/index';
import { ordersPlugin } from '../../examples/orders-plugin/index';
import { plainStore } from '../rest/support/fixtures';
import { authenticate } from './support/demo-document';
import { type InlineOperation, inlinePaths } from './support/inline-parts';

/** A plugin route declaring every kind of documentation. */
const REPORT_DOCS: EndpointDocs = {
  summary: 'Sales of a year and region',
  description: 'Totals, in cents.',
  requestHeaders: { 'If-None-Match': { description: 'A tag the client has.' } },
  responses: [
    {
      status: 200,
      description: 'The report.',
      schema: componentRef('reports.Sales'),
      headers: { ETag: { description: 'The report version.', required: true } },
    },
    { status: 304, description: 'The client has this version.' },
  ],
  errors: [
    {
      status: 412,
      codes: ['reports_stale'],
      description: 'reports_stale: the report changed.',
      data: { type: 'object', required: ['etag'], properties: { etag: { type: 'string' } } },
    },
    { status: 400, body: 'errors', description: 'The period is closed.', items: { type: 'string' } },
  ],
  argSchemas: { region: { type: 'string', enum: ['eu', 'us'] } },
  schemas: {
    'reports.Sales': { type: 'object', properties: { total: { type: 'integer', required: true } } },
  },
};

class ReportsApi extends Framework_REST_API {
  override registerRoutes(routes: RouteRegistry): void {
    super.registerRoutes(routes);
    routes.register('reports/v2', '/sales/{year}/{region}', [
      {
        methods: 'GET',
        permission: allowPublic(),
        args: {
          year: { type: 'integer', minimum: 2000, exclusiveMaximum: true, maximum: 2100 },
          include: {
            type: 'array',
            items: { type: 'string', enum: ['tax', 'fees'] },
            description: 'Extra columns.',
          },
          since: { type: 'string', format: 'date-time', required: true },
        },
        handler: () => ({ total: 0 }),
        docs: REPORT_DOCS,
      },
      {
        methods: 'PUT',
        permission: requireManagement(),
        args: { note: { type: 'string', required: true }, mode: { type: 'string', enum: ['a', 'b'] } },
        handler: () => ({ total: 0 }),
        docs: () => ({ queryArgs: ['mode'], schemas: REPORT_DOCS.schemas }),
      },
    ]);
  }
}

class ReportsPlugin extends Framework_Plugin {
  constructor() {
    super({ id: 'reports', name: 'Reports', version: '2.0.0' });
  }
  protected override initRestApiHandler(): void {
    this.restApiHandler = new ReportsApi(this);
  }
}

const server = createRestServer({
  plugins: [new AcmePayGateway(new MemoryOptionStore()), itemsPlugin(), ordersPlugin(), new ReportsPlugin()],
  authenticate,
});
const document: OpenApiDocument = generateOpenApiDocument(
  server,
  { title: 'Shop API', version: '1.2.3', description: 'Test document.' },
  { servers: [{ url: 'https://shop.example' }] },
);
const SETTINGS = '/api/commerce/v3/acme_pay/settings';
const SALES = '/api/reports/v2/sales/{year}/{region}';
const schemas = document.components.schemas;

/** A plugin `id` whose settings `register` declares. */
function pluginWith(id: string, register: (settings: Framework_Abstract_Settings) => void): Framework_Plugin {
  class Declared extends Framework_Abstract_Settings {
    protected registerSettings(): void {
      register(this);
    }
  }
  class DeclaredPlugin extends Framework_Plugin {
    readonly #settings = new Declared(id, new MemoryOptionStore());
    constructor() {
      super({ id, name: id, version: '1' });
    }
    override getSettingsHandler(): Declared {
      return this.#settings;
    }
  }
  return new DeclaredPlugin();
}

/** The document's paths as a reader sees them: shared responses, parameters, headers and bodies in place. */
const paths = inlinePaths(document);

function operation(path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch'): InlineOperation {
  const found = paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}

function bodySchema(path: string, method: 'put' | 'post' | 'patch'): JsonSchema {
  return operation(path, method).requestBody!.content['application/json']!.schema;
}

/** A schema, or the component schema it refers to. */
function resolved(schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? schemas[ref.slice('#/components/schemas/'.length)] : schema;
}

/** The body of an answer; an error's (in `components.schemas`, shared by ranges and statuses) resolved. */
function answerSchema(path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch', status: string) {
  const schema = operation(path, method).responses[status]!.content?.['application/json']?.schema;
  return Number(status) >= 400 && schema?.$ref !== '#/components/schemas/Error' ? resolved(schema) : schema;
}

const valueSchema = (id: string) =>
  resolved((bodySchema(`${SETTINGS}/${id}`, 'put').properties as Record<string, JsonSchema>).value);

describe('generateOpenApiDocument', () => {
  beforeAll(() => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document); // plain JSON data
  });

  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    const validated = await SwaggerParser.validate(structuredClone(document) as never);
    expect((validated as { openapi: string }).openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'Shop API', version: '1.2.3', description: 'Test document.' });
    expect(document.servers).toEqual([{ url: 'https://shop.example' }]);
    expect(generateOpenApiDocument(server, { title: 'x', version: '1' }).servers).toEqual([{ url: '/' }]);
  });

  it('lists every route and method; each setting at its own path instead of {setting_id}', () => {
    const expected = new Set<string>();
    const settingIds = [
      ...new AcmePayGateway(new MemoryOptionStore()).getSettingsHandler().getSettings().keys(),
    ];
    for (const route of server.getRoutes()) {
      for (const method of route.methods) {
        if (!route.path.includes('{setting_id}')) expected.add(`${method.toLowerCase()} ${route.path}`);
        else
          for (const id of settingIds)
            expected.add(`${method.toLowerCase()} ${route.path.replace('{setting_id}', id)}`);
      }
    }
    const actual = new Set<string>();
    for (const [path, item] of Object.entries(paths)) {
      for (const method of Object.keys(item)) actual.add(`${method} ${path}`);
    }
    expect(actual).toEqual(expected);
    expect(actual).toContain(`put ${SETTINGS}/max_retries`);
    expect(actual).toContain('delete /api/acme/v1/orders/{id}');
    expect(JSON.stringify(document.paths)).not.toContain('{setting_id}');
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(operation(`${SETTINGS}/max_retries`, 'put').operationId).toBe(
      'put_api_commerce_v3_acme_pay_settings_max_retries',
    );
  });

  it("types each setting's value exactly: type, formats, enum of its options, arrays, default, never null", () => {
    expect(valueSchema('max_retries')).toMatchObject({ type: 'integer', default: 3 });
    expect(valueSchema('fee_percent')).toMatchObject({ type: 'number', default: 1.5 });
    expect(valueSchema('enabled')).toMatchObject({ type: 'boolean', default: false });
    expect(valueSchema('mode')).toMatchObject({ type: 'string', enum: ['test', 'live'], default: 'test' });
    expect(valueSchema('countries')).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: ['DE', 'FR', 'NL', 'US'] },
      default: ['DE', 'NL'],
    });
    expect(valueSchema('webhook_url')).toMatchObject({ type: 'string', format: 'uri' });
    expect(valueSchema('notify_email')).toMatchObject({ type: 'string', format: 'email', minLength: 6 });
    expect(valueSchema('metadata')).toMatchObject({
      type: ['object', 'array', 'string', 'number', 'boolean'],
      items: {},
      additionalProperties: true,
    });
    // {value: null} is answered 400: the document refuses it, and requires value.
    const ajv = new Ajv2020({ strict: false });
    // Body schemas refer to the value schemas: give Ajv the components under the document's own id.
    ajv.addSchema({ components: { schemas } }, 'openapi.json');
    for (const id of ['title', 'max_retries', 'metadata', 'countries']) {
      const body = JSON.parse(
        JSON.stringify(bodySchema(`${SETTINGS}/${id}`, 'put')).replaceAll(
          '"#/components/',
          '"openapi.json#/components/',
        ),
      );
      expect(body.required).toEqual(['value']);
      expect(ajv.validate(body, { value: null }), id).toBe(false);
      expect(ajv.validate(body, {}), id).toBe(false);
    }
    expect(operation(`${SETTINGS}/max_retries`, 'put').requestBody!.required).toBe(true);
  });

  it("answers each setting's own Setting object, every member required; the list is a union by id", () => {
    expect(answerSchema(`${SETTINGS}/mode`, 'get', '200')).toEqual({
      $ref: '#/components/schemas/acme_pay.settings.mode',
    });
    // What every Setting object has is written once (SettingBase); each setting's schema adds
    // its own members, all required.
    expect(schemas.SettingBase).toMatchObject({
      required: ['name', 'description'],
      properties: {
        name: { type: 'string' },
        description: { type: 'string' },
        scope: { $ref: '#/components/schemas/SettingScope' },
        origin: { $ref: '#/components/schemas/SettingOrigin' },
      },
    });
    const [base, own] = (schemas['acme_pay.settings.mode'] as { allOf: JsonSchema[] }).allOf as [
      JsonSchema,
      JsonSchema,
    ];
    expect(base).toEqual({ $ref: '#/components/schemas/SettingBase' });
    expect([...(schemas.SettingBase!.required as string[]), ...(own.required as string[])].sort()).toEqual(
      ['id', 'type', 'name', 'description', 'is_multi', 'options', 'default', 'value', 'control'].sort(),
    );
    expect(own.properties).toMatchObject({
      id: { const: 'mode' },
      type: { const: 'string' },
      is_multi: { const: false },
      options: { type: 'array', items: { enum: ['test', 'live'] } },
      // The value schema, written once and referred to by the object, the writes, the batch…
      value: { $ref: '#/components/schemas/acme_pay.settings.mode.value' },
      default: { $ref: '#/components/schemas/acme_pay.settings.mode.value' },
      // The control: what every control has (SettingControl), its type a constant.
      control: {
        allOf: [
          { $ref: '#/components/schemas/SettingControl' },
          { properties: { type: { const: 'select' } } },
        ],
      },
    });
    expect(schemas.SettingControl).toMatchObject({
      type: 'object',
      required: ['type', 'name', 'description', 'options'],
    });
    expect(schemas['acme_pay.settings.mode.value']).toMatchObject({
      type: 'string',
      enum: ['test', 'live'],
      default: 'test',
      title: 'Mode',
    });
    // Without a default, the value and default may be null.
    const ownMembers = (id: string) =>
      ((schemas[`acme_pay.settings.${id}`] as { allOf: JsonSchema[] }).allOf[1] as JsonSchema).properties;
    expect(ownMembers('webhook_url')).toMatchObject({
      value: {
        anyOf: [{ $ref: '#/components/schemas/acme_pay.settings.webhook_url.value' }, { type: 'null' }],
      },
      default: { type: 'null' },
    });
    // The list's items (and the batch's): any Setting object of the plugin, written once.
    expect(answerSchema(SETTINGS, 'get', '200')).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/acme_pay.settings' },
    });
    const union = schemas['acme_pay.settings'] as { oneOf: unknown[] };
    expect(union.oneOf).toHaveLength(16);
    expect(union.oneOf[0]).toEqual({ $ref: '#/components/schemas/acme_pay.settings.enabled' });
  });

  it('documents the item routes with the item schema inside the envelope, list headers, Location, envelope errors', () => {
    const item = schemas['acme.v1.items']!;
    expect(item).toMatchObject({ title: 'item', type: 'object', required: ['_links'] });
    expect(JSON.stringify(item)).not.toMatch(/"context"|\$schema/);
    expect(answerSchema('/api/acme/v1/items/{id}', 'get', '200')).toEqual({
      type: 'object',
      properties: {
        success: { type: 'boolean', const: true },
        data: { $ref: '#/components/schemas/acme.v1.items' },
      },
      required: ['success', 'data'],
    });
    const list = operation('/api/acme/v1/orders', 'get').responses['200']!;
    expect(list.headers).toMatchObject({
      'X-Total': { required: true, schema: { type: 'integer' } },
      'X-Total-Pages': { required: true, schema: { type: 'integer' } },
    });
    expect(answerSchema('/api/acme/v1/orders', 'get', '200')).toMatchObject({
      properties: { data: { type: 'array', items: { $ref: '#/components/schemas/acme.v1.orders' } } },
    });
    expect(operation('/api/acme/v1/orders', 'post').responses['201']!.headers).toMatchObject({
      Location: { required: true },
    });
    // The framework's error body names the codes it can have at that status (from the catalogue).
    // Each body of an answer with several is shared too when other answers have it (items' and
    // orders' 404).
    expect(answerSchema('/api/acme/v1/orders/{id}', 'get', '404')).toEqual({
      anyOf: [
        { $ref: '#/components/schemas/rest_no_route_404' },
        { $ref: '#/components/schemas/FailureMessage' },
      ],
    });
    expect(schemas.rest_no_route_404).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Error' },
        {
          type: 'object',
          properties: {
            code: { type: 'string', enum: ['rest_no_route'] },
            data: { properties: { status: { const: 404 } } },
          },
        },
      ],
    });
    expect(answerSchema('/api/acme/v1/orders', 'post', '400')).toEqual({
      anyOf: [
        { $ref: '#/components/schemas/rest_invalid_json.rest_missing_callback_param.rest_invalid_param_400' },
        { $ref: '#/components/schemas/validation_failure_400' },
      ],
    });
    expect(schemas['rest_invalid_json.rest_missing_callback_param.rest_invalid_param_400']).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: expect.any(Array) } } }],
    });
    expect(schemas.validation_failure_400).toMatchObject({
      properties: { errors: { items: { required: ['field', 'message'] } } },
    });
    expect(answerSchema('/api/acme/v1/orders/{id}', 'delete', '200')).toMatchObject({
      required: ['success', 'message'],
    });
    expect(operation('/api/acme/v1/items/{id}', 'delete').responses['410']!.description).toContain(
      '{success: false, message}',
    );
    expect(schemas.FailureMessage).toMatchObject({ required: ['success', 'message'] });
  });

  it('documents the status report: one required member per plugin, its settings typed, passwords masked', () => {
    const report = answerSchema('/api/commerce/v3/system_status', 'get', '200') as JsonSchema;
    expect(report.required).toEqual([
      'commerce_acme_pay',
      'commerce_items',
      'commerce_orders',
      'commerce_reports',
    ]);
    const gateway = (report.properties as Record<string, JsonSchema>).commerce_acme_pay!;
    expect(gateway).toMatchObject({
      required: [
        'is_payment_gateway',
        'settings',
        'schema_version',
        'secrets_encrypted',
        'unreadable_secrets',
      ],
      additionalProperties: true,
      properties: {
        schema_version: {
          required: ['stored', 'code'],
          properties: { stored: { type: 'integer' }, code: { type: 'integer' } },
        },
      },
    });
    // Without a cipher, no plaintext_secrets member (it is there only with a cipher).
    expect(Object.keys(gateway.properties as object)).not.toContain('plaintext_secrets');
    const settings = (gateway.properties as Record<string, JsonSchema>).settings!;
    expect((settings.required as string[]).length).toBe(16);
    expect(settings.properties).toMatchObject({
      api_key: { anyOf: [{ const: '********' }, { type: 'null' }] },
      max_retries: { $ref: '#/components/schemas/acme_pay.settings.max_retries.value' },
      webhook_url: {
        anyOf: [{ $ref: '#/components/schemas/acme_pay.settings.webhook_url.value' }, { type: 'null' }],
      },
    });
  });

  it('lists the errors each operation can give, merged by status, each with its body', () => {
    const statuses = (path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch') =>
      Object.keys(operation(path, method).responses).sort().join(' ');
    // The store has commit and readLog: no 501. 404 for a scope `scopeExists` refuses, 409 on writes.
    expect(statuses(`${SETTINGS}/max_retries`, 'put')).toBe('200 400 401 403 404 409 412 413 415 500 503');
    // The path answers every method: no 405.
    expect(statuses(`${SETTINGS}/max_retries`, 'get')).toBe('200 304 400 401 403 404 500 503');
    expect(statuses(`${SETTINGS}/max_retries`, 'delete')).toBe('200 400 401 403 404 409 412 500 503');
    expect(statuses(`${SETTINGS}/batch`, 'post')).toBe('200 400 401 403 404 405 409 412 413 415 500 503');
    expect(statuses(`${SETTINGS}/history`, 'get')).toBe('200 400 401 403 404 405 500 503');
    // Public, but context=edit needs a manager: 401/403 rest_forbidden_context.
    expect(statuses('/api/acme/v1/items', 'get')).toBe('200 400 401 403 405 500');
    expect(statuses('/api/acme/v1/orders/{id}', 'delete')).toBe('200 400 401 403 404 405 500');
    const badRequest = operation(`${SETTINGS}/max_retries`, 'put').responses['400']!;
    expect(badRequest.description).toContain('rest_setting_value_invalid');
    expect(badRequest.description).toContain('rest_invalid_json');
    expect(operation(`${SETTINGS}`, 'get').responses['405']!.headers).toMatchObject({
      Allow: { required: true, schema: { type: 'string' } },
    });
    expect(schemas.Error).toMatchObject({
      required: ['code', 'message', 'data'],
      properties: { data: { required: ['status'], additionalProperties: true } },
    });
  });

  it('documents the batch: update and delete lists typed by id, If-Match against the list, both lists answered', () => {
    const batch = operation(`${SETTINGS}/batch`, 'post');
    const body = bodySchema(`${SETTINGS}/batch`, 'post');
    expect(body.required).toBeUndefined(); // update or delete (at least one item in all)
    expect(batch.requestBody!.required).toBe(false);
    const members = body.properties as Record<string, JsonSchema>;
    expect(members.update).toMatchObject({ type: 'array', items: { oneOf: expect.any(Array) } });
    expect(members.delete).toMatchObject({
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', enum: expect.arrayContaining(['max_retries', 'api_key']) },
    });
    expect(batch.parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header' }));
    expect(batch.responses['412']!.description).toContain('GET …/settings');
    expect(answerSchema(`${SETTINGS}/batch`, 'post', '200')).toMatchObject({
      required: ['update', 'delete'],
      properties: { update: { type: 'array' }, delete: { type: 'array' } },
    });
    const rejected = JSON.stringify(answerSchema(`${SETTINGS}/batch`, 'post', '400'));
    expect(rejected).toContain('rest_batch_rejected');
    expect(rejected).toContain('rest_setting_rule_failed');
  });

  /** Operations that need the store's `commit` (If-Match, the batch) or `readLog` (history). */
  const CONDITIONAL = [
    [`${SETTINGS}/mode`, 'put'],
    [`${SETTINGS}/mode`, 'delete'],
    [`${SETTINGS}/batch`, 'post'],
    [`${SETTINGS}/history`, 'get'],
    [`${SETTINGS}/mode/history`, 'get'],
  ] as const;

  it('documents per route the errors of scopes, schema versions and rules', () => {
    const description = (path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch', status: string) =>
      operation(path, method).responses[status]?.description ?? '';
    for (const [path, method] of [
      [SETTINGS, 'get'] as const,
      [`${SETTINGS}/mode`, 'get'] as const,
      ...CONDITIONAL,
    ]) {
      expect(description(path, method, '404'), `${method} ${path}`).toContain('rest_scope_not_found');
    }
    // Every write (and only writes) may be refused by a newer stored schema version.
    for (const method of ['put', 'post', 'patch', 'delete'] as const) {
      expect(description(`${SETTINGS}/mode`, method, '409')).toContain('rest_schema_outdated');
      expect(description(`${SETTINGS}/mode`, method, '400')).toContain('rest_setting_rules_failed');
    }
    expect(description(`${SETTINGS}/batch`, 'post', '409')).toContain('rest_schema_outdated');
    expect(operation(`${SETTINGS}/mode`, 'get').responses['409']).toBeUndefined();
    expect(description(`${SETTINGS}/mode`, 'get', '400')).not.toContain('rest_setting_rules_failed');
    expect(operation('/api/commerce/v3/system_status', 'get').responses['404']).toBeUndefined();
  });

  it('documents 501 only where the store lacks commit or readLog', () => {
    expect(JSON.stringify(document.paths)).not.toContain('rest_unsupported_by_store');
    const plain = generateOpenApiDocument(
      createRestServer({ plugins: [new AcmePayGateway(plainStore())], authenticate }),
      { title: 'x', version: '1' },
    );
    for (const [path, method] of CONDITIONAL) {
      expect(inlinePaths(plain)[path]![method]!.responses['501']!.description, `${method} ${path}`).toContain(
        'rest_unsupported_by_store',
      );
    }
    expect(plain.paths[`${SETTINGS}/mode`]!.get!.responses['501']).toBeUndefined();
  });

  it("never shows a secret's options: no enum, no option labels", () => {
    const vaultPlugin = pluginWith('vault', (settings) => {
      settings.registerSetting('region_key', 'string', { secret: true, options: ['eu-key-1', 'us-key-2'] });
      settings.registerControl('region_key', 'select', { options: { 'eu-key-1': 'EU', 'us-key-2': 'US' } });
      settings.registerSetting('pins', 'integer', { secret: true, is_multi: true, options: [1234, 9876] });
    });
    const vault = generateOpenApiDocument(createRestServer({ plugins: [vaultPlugin], authenticate }), {
      title: 'x',
      version: '1',
    });
    const text = JSON.stringify(vault);
    for (const leak of ['eu-key-1', 'us-key-2', '1234', '9876']) expect(text).not.toContain(leak);
    const setting = (
      (vault.components.schemas['vault.settings.region_key'] as { allOf: JsonSchema[] })
        .allOf[1] as JsonSchema
    ).properties as Record<string, JsonSchema>;
    expect(setting.options).toMatchObject({ type: 'array', maxItems: 0 });
    expect(setting.control).toMatchObject({ properties: { options: { type: 'object', maxProperties: 0 } } });
    const written = vault.components.schemas['vault.settings.region_key.value'];
    expect(written).toMatchObject({ writeOnly: true, anyOf: [{ type: 'string' }, { const: '********' }] });
    expect(written).not.toHaveProperty('anyOf.0.enum');
  });

  it('documents history entries with every way a write comes in', () => {
    expect(schemas.SettingHistoryEntryBase).toMatchObject({
      properties: { via: { enum: ['rest', 'admin', 'api', 'migration', 'import'] } },
    });
    // Each setting's entries: the shared members, old and new typed by the setting.
    expect(answerSchema(`${SETTINGS}/max_retries/history`, 'get', '200')).toEqual({
      type: 'array',
      items: {
        allOf: [
          { $ref: '#/components/schemas/SettingHistoryEntryBase' },
          {
            // setting_id is required (and a string) in SettingHistoryEntryBase: here, its constant.
            required: ['old', 'new'],
            properties: {
              setting_id: { const: 'max_retries' },
              old: {
                anyOf: [
                  { $ref: '#/components/schemas/acme_pay.settings.max_retries.value' },
                  { type: 'null' },
                ],
              },
              new: {
                anyOf: [
                  { $ref: '#/components/schemas/acme_pay.settings.max_retries.value' },
                  { type: 'null' },
                ],
              },
            },
          },
        ],
      },
    });
  });

  it('shares what operations repeat through components: answers, parameters, headers, bodies', () => {
    const raw = document.paths[`${SETTINGS}/max_retries`]!;
    // `scope` is taken by every method of the path: the path's parameter.
    expect(raw.parameters).toEqual([{ $ref: '#/components/parameters/scope' }]);
    expect(raw.put!.parameters).toEqual([{ $ref: '#/components/parameters/If-Match' }]);
    expect(raw.get!.parameters).toEqual([{ $ref: '#/components/parameters/If-None-Match' }]);
    // PUT, POST and PATCH take one body; GET, the writes and DELETE answer one Setting object.
    for (const method of ['put', 'post', 'patch'] as const) {
      expect(raw[method]!.requestBody).toEqual({
        $ref: '#/components/requestBodies/acme_pay.settings.max_retries',
      });
    }
    for (const method of ['get', 'put', 'post', 'patch', 'delete'] as const) {
      expect(raw[method]!.responses['200']).toEqual({
        $ref: '#/components/responses/acme_pay.settings.max_retries',
      });
      expect(raw[method]!.responses['5XX']).toEqual({ $ref: '#/components/responses/errors_5XX' });
      expect(raw[method]!.security).toBeUndefined();
    }
    // The statuses of one class (400, 401…) are one range, named after the routes giving it.
    expect(raw.get!.responses['4XX']).toEqual({ $ref: '#/components/responses/acme_pay.settings.read_4XX' });
    for (const method of ['put', 'post', 'patch'] as const) {
      expect(raw[method]!.responses['4XX']).toEqual({
        $ref: '#/components/responses/acme_pay.settings.write_4XX',
      });
    }
    expect(raw.delete!.responses['4XX']).toEqual({
      $ref: '#/components/responses/acme_pay.settings.delete_4XX',
    });
    const components = document.components;
    // A range lists each status with its codes, and each status's body (its `data.status` a
    // constant) once in components.schemas, which the ranges and single statuses share.
    const range = components.responses!['acme_pay.settings.write_4XX']!;
    expect(range.description).toContain('- 403 rest_cross_site_request: ');
    expect(range.content!['application/json']!.schema.anyOf).toContainEqual({
      $ref: '#/components/schemas/rest_forbidden.rest_cross_site_request_403',
    });
    expect(components.schemas['rest_forbidden.rest_cross_site_request_403']).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Error' },
        {
          type: 'object',
          properties: {
            code: { type: 'string', enum: ['rest_forbidden', 'rest_cross_site_request'] },
            data: { properties: { status: { const: 403 } } },
          },
        },
      ],
    });
    // Read as statuses, the range gives each its lines and body.
    expect(operation(`${SETTINGS}/max_retries`, 'put').responses['403']).toEqual({
      description: expect.stringMatching(/^- rest_forbidden: .*\n- rest_cross_site_request: /),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/rest_forbidden.rest_cross_site_request_403' },
        },
      },
    });
    expect(components.responses?.['acme_pay.settings.max_retries']).toEqual({
      description: 'The setting max_retries as it then reads.',
      headers: { ETag: { $ref: '#/components/headers/ETag' } },
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/acme_pay.settings.max_retries' } },
      },
    });
    expect(components.headers?.ETag).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(components.requestBodies?.['acme_pay.settings.max_retries']).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { value: { $ref: '#/components/schemas/acme_pay.settings.max_retries.value' } },
            required: ['value'],
          },
        },
      },
    });
    // The batch's If-Match is compared with another tag: a parameter of its own (used once: in place).
    expect(document.paths[`${SETTINGS}/batch`]!.post!.parameters).toContainEqual(
      expect.objectContaining({
        name: 'If-Match',
        in: 'header',
        description: expect.stringContaining('GET …/settings'),
      }),
    );
    // Every reference names a part that is there.
    for (const match of JSON.stringify(document).matchAll(/"#\/components\/(\w+)\/([^"]+)"/g)) {
      const [, kind, name] = match;
      expect((components as Record<string, Record<string, unknown>>)[kind!]?.[name!], match[0]).toBeDefined();
    }
    // A part used once stays in place (the list's answer).
    expect(document.paths[SETTINGS]!.get!.responses['200']).toHaveProperty('content');
  });

  it('documents what an endpoint declares: answers, headers, errors, argument schemas, query args, schemas', () => {
    const sales = operation(SALES, 'get');
    expect(sales).toMatchObject({ summary: 'Sales of a year and region', description: 'Totals, in cents.' });
    expect(sales.parameters).toContainEqual({
      name: 'region',
      in: 'path',
      required: true,
      schema: { type: 'string', enum: ['eu', 'us'] },
    });
    expect(sales.parameters).toContainEqual({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'A tag the client has.',
      schema: { type: 'string' },
    });
    expect(sales.responses['200']).toMatchObject({ headers: { ETag: { required: true } } });
    expect(sales.responses['304']).toEqual({ description: 'The client has this version.' });
    expect(answerSchema(SALES, 'get', '412')).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Error' },
        {
          type: 'object',
          properties: {
            code: { type: 'string', enum: ['reports_stale'] },
            data: {
              type: 'object',
              required: ['etag'],
              properties: { etag: { type: 'string' }, status: { const: 412 } },
            },
          },
        },
      ],
    });
    expect(answerSchema(SALES, 'get', '400')).toMatchObject({
      anyOf: [
        {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { properties: { code: { enum: ['rest_missing_callback_param', 'rest_invalid_param'] } } },
          ],
        },
        { properties: { errors: { type: 'array', items: { type: 'string' } } } },
      ],
    });
    expect(schemas['reports.Sales']).toEqual({
      type: 'object',
      properties: { total: { type: 'integer' } },
      required: ['total'],
    });
    expect(sales.security).toEqual([{ bearerAuth: [] }, {}]);
    const update = operation(SALES, 'put');
    expect(update.parameters).toContainEqual(expect.objectContaining({ name: 'mode', in: 'query' }));
    expect(bodySchema(SALES, 'put')).toEqual({
      type: 'object',
      properties: { note: { type: 'string' } },
      required: ['note'],
    });
    // The document's security (a token) applies: the operation says nothing.
    expect(update.security).toBeUndefined();
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(update.responses['2XX']).toEqual({
      description: "Success: the handler's JSON answer.",
      content: { 'application/json': { schema: {} } },
    });
  });

  it('declares path parameters as required, query parameters from GET and DELETE arguments', () => {
    const year = operation(SALES, 'get').parameters!.find((parameter) => parameter.name === 'year');
    // draft-04 boolean exclusiveMaximum becomes the 2020-12 number form
    expect(year).toEqual({
      name: 'year',
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 2000, exclusiveMaximum: 2100 },
    });
    expect(operation(SALES, 'get').parameters).toContainEqual(
      expect.objectContaining({ name: 'include', in: 'query', style: 'form', explode: false }),
    );
    const remove = operation('/api/acme/v1/orders/{id}', 'delete');
    expect(remove.parameters).toContainEqual(
      expect.objectContaining({
        name: 'force',
        in: 'query',
        schema: expect.objectContaining({ type: 'boolean', default: false }),
      }),
    );
    expect(remove.requestBody).toBeUndefined();
    const create = bodySchema('/api/acme/v1/orders', 'post');
    const lineItems = (create.properties as Record<string, JsonSchema>).line_items as { items: JsonSchema };
    expect(lineItems.items.required).toEqual(['product_id', 'name', 'quantity', 'price']);
    expect(lineItems.items.additionalProperties).toBe(false);
  });

  it('tags operations by namespace, each tag described', () => {
    expect(document.tags.map((tag) => tag.name)).toEqual(['commerce/v3', 'acme/v1', 'reports/v2']);
    expect(document.tags.every((tag) => tag.description.length > 0)).toBe(true);
    expect(operation('/api/acme/v1/orders', 'get').tags).toEqual(['acme/v1']);
  });

  it('keeps only the schemas operations refer to, and refuses one name declared with two schemas', () => {
    expect(Object.keys(schemas)).not.toContain('Setting');
    expect(Object.keys(schemas)).not.toContain('ValidationFailure');
    class Clashing extends Framework_REST_API {
      override registerRoutes(routes: RouteRegistry): void {
        for (const [path, type] of [
          ['/a', 'string'],
          ['/b', 'integer'],
        ] as const) {
          routes.register('clash/v1', path, {
            methods: 'GET',
            permission: allowPublic(),
            handler: () => null,
            docs: { schemas: { Thing: { type } } },
          });
        }
      }
    }
    class ClashPlugin extends Framework_Plugin {
      constructor() {
        super({ id: 'clash', name: 'Clash', version: '1' });
      }
      protected override initRestApiHandler(): void {
        this.restApiHandler = new Clashing(this);
      }
    }
    const clashing = createRestServer({ plugins: [new ClashPlugin()] });
    expect(() => generateOpenApiDocument(clashing, { title: 'x', version: '1' })).toThrow(
      /"Thing" is declared twice/,
    );
  });

  it('documents a plugin whose settings handler has no settings with the generic Setting', () => {
    const empty = generateOpenApiDocument(createRestServer({ plugins: [pluginWith('empty', () => {})] }), {
      title: 'x',
      version: '1',
    });
    expect(Object.keys(empty.paths)).toEqual([
      '/api/commerce/v3/system_status',
      '/api/commerce/v3/empty/settings',
      '/api/commerce/v3/empty/settings/batch',
      '/api/commerce/v3/empty/settings/export',
      '/api/commerce/v3/empty/settings/import',
      '/api/commerce/v3/empty/settings/restore',
      '/api/commerce/v3/empty/settings/history',
    ]);
    expect(empty.components.schemas.Setting).toMatchObject({
      required: ['id', 'type', 'name', 'description', 'is_multi', 'options', 'default', 'value', 'control'],
      properties: { options: { type: 'array', items: {} }, value: { additionalProperties: true, items: {} } },
    });
  });
});

describe('toJsonSchema', () => {
  it('converts draft-04 keywords to 2020-12 and drops what is not JSON Schema', () => {
    expect(
      toJsonSchema({
        $schema: 'http://json-schema.org/draft-04/schema#',
        type: 'object',
        context: ['view'],
        readonly: true,
        arg_options: { sanitize_callback: 'x' },
        properties: {
          price: { type: 'number', minimum: 0, exclusiveMinimum: true, required: true },
          note: { type: 'string', validate: () => true, sanitize: (value: unknown) => value, default: 'x' },
        },
        additionalProperties: { type: 'string', maxLength: 3 },
      }),
    ).toEqual({
      type: 'object',
      readOnly: true,
      properties: { price: { type: 'number', exclusiveMinimum: 0 }, note: { type: 'string', default: 'x' } },
      required: ['price'],
      additionalProperties: { type: 'string', maxLength: 3 },
    });
  });

  it('keeps 2020-12 keywords, converting every schema inside them', () => {
    expect(
      toJsonSchema({
        oneOf: [
          { $ref: '#/components/schemas/A' },
          { type: 'object', properties: { id: { const: 'x', required: true } } },
        ],
        anyOf: [{ type: 'integer', exclusiveMaximum: 5 }],
        prefixItems: [{ type: 'string' }],
        writeOnly: true,
        examples: ['********'],
        'x-secret': true,
      }),
    ).toEqual({
      oneOf: [
        { $ref: '#/components/schemas/A' },
        { type: 'object', properties: { id: { const: 'x' } }, required: ['id'] },
      ],
      anyOf: [{ type: 'integer', exclusiveMaximum: 5 }],
      prefixItems: [{ type: 'string' }],
      writeOnly: true,
      examples: ['********'],
      'x-secret': true,
    });
  });

  it('gives free-form objects additionalProperties: true and arrays items: {}', () => {
    expect(toJsonSchema({ type: 'object' })).toEqual({ type: 'object', additionalProperties: true });
    expect(toJsonSchema({ type: ['array', 'null'] })).toEqual({ type: ['array', 'null'], items: {} });
    expect(toJsonSchema({ type: 'object', properties: {} })).toEqual({ type: 'object', properties: {} });
  });
});
