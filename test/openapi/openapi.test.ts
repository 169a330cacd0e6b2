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
  type OpenApiOperation,
  toJsonSchema,
} from 'commerce-plugin-framework/openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { AcmePayGateway } from '../../examples/demo/gateway-plugin';
import { itemsPlugin } from '../../examples/items-plugin/index';
import { ordersPlugin } from '../../examples/orders-plugin/index';
import { authenticate } from './support/demo-document';

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

function operation(path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch'): OpenApiOperation {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}

function bodySchema(path: string, method: 'put' | 'post' | 'patch'): JsonSchema {
  return operation(path, method).requestBody!.content['application/json']!.schema;
}

function answerSchema(path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch', status: string) {
  return operation(path, method).responses[status]!.content?.['application/json']?.schema;
}

const valueSchema = (id: string) =>
  (bodySchema(`${SETTINGS}/${id}`, 'put').properties as Record<string, JsonSchema>).value;

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
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) actual.add(`${method} ${path}`);
    }
    expect(actual).toEqual(expected);
    expect(actual).toContain(`put ${SETTINGS}/max_retries`);
    expect(actual).toContain('delete /api/acme/v1/orders/{id}');
    expect(JSON.stringify(document.paths)).not.toContain('{setting_id}');
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
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
    for (const id of ['title', 'max_retries', 'metadata', 'countries']) {
      const body = bodySchema(`${SETTINGS}/${id}`, 'put');
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
    const mode = schemas['acme_pay.settings.mode']!;
    expect(mode.required).toEqual([
      'id',
      'type',
      'name',
      'description',
      'is_multi',
      'options',
      'default',
      'value',
      'control',
    ]);
    expect(mode.properties).toMatchObject({
      id: { const: 'mode' },
      type: { const: 'string' },
      is_multi: { const: false },
      options: { type: 'array', items: { enum: ['test', 'live'] } },
      value: { enum: ['test', 'live'] },
      control: {
        type: 'object',
        properties: { type: { const: 'select' } },
        required: ['type', 'name', 'description', 'options'],
      },
    });
    // Without a default, the value and default may be null.
    expect(
      (schemas['acme_pay.settings.webhook_url']!.properties as Record<string, unknown>).value,
    ).toMatchObject({
      anyOf: [{ format: 'uri' }, { type: 'null' }],
    });
    const list = answerSchema(SETTINGS, 'get', '200') as { items: { oneOf: unknown[] } };
    expect(list.items.oneOf).toHaveLength(16);
    expect(list.items.oneOf[0]).toEqual({ $ref: '#/components/schemas/acme_pay.settings.enabled' });
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
    expect(answerSchema('/api/acme/v1/orders/{id}', 'get', '404')).toEqual({
      anyOf: [
        {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { type: 'object', properties: { code: { type: 'string', enum: ['rest_no_route'] } } },
          ],
        },
        { $ref: '#/components/schemas/FailureMessage' },
      ],
    });
    expect(answerSchema('/api/acme/v1/orders', 'post', '400')).toMatchObject({
      anyOf: [
        {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { properties: { code: { enum: expect.any(Array) } } },
          ],
        },
        { properties: { errors: { items: { required: ['field', 'message'] } } } },
      ],
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
      required: ['is_payment_gateway', 'settings', 'secrets_encrypted', 'unreadable_secrets'],
      additionalProperties: true,
    });
    const settings = (gateway.properties as Record<string, JsonSchema>).settings!;
    expect((settings.required as string[]).length).toBe(16);
    expect(settings.properties).toMatchObject({
      api_key: { anyOf: [{ const: '********' }, { type: 'null' }] },
      max_retries: { type: 'integer' },
    });
  });

  it('lists the errors each operation can give, merged by status, each with its body', () => {
    const statuses = (path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch') =>
      Object.keys(operation(path, method).responses).sort();
    expect(statuses(`${SETTINGS}/max_retries`, 'put')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '412',
      '413',
      '415',
      '500',
      '501',
      '503',
    ]);
    // The path answers every method: no 405.
    expect(statuses(`${SETTINGS}/max_retries`, 'get')).toEqual([
      '200',
      '304',
      '400',
      '401',
      '403',
      '500',
      '503',
    ]);
    // Public, but context=edit needs a manager: 401/403 rest_forbidden_context.
    expect(statuses('/api/acme/v1/items', 'get')).toEqual(['200', '400', '401', '403', '405', '500']);
    expect(statuses('/api/acme/v1/orders/{id}', 'delete')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '405',
      '500',
    ]);
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
    expect(sales.responses['412']!.content!['application/json']!.schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Error' },
        {
          type: 'object',
          properties: {
            code: { type: 'string', enum: ['reports_stale'] },
            data: { type: 'object', required: ['etag'], properties: { etag: { type: 'string' } } },
          },
        },
      ],
    });
    expect(sales.responses['400']!.content!['application/json']!.schema).toMatchObject({
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
    expect(update.security).toEqual([{ bearerAuth: [] }]);
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
    class Empty extends Framework_Abstract_Settings {
      protected registerSettings(): void {}
    }
    class EmptyPlugin extends Framework_Plugin {
      readonly #settings = new Empty('empty', new MemoryOptionStore());
      constructor() {
        super({ id: 'empty', name: 'Empty', version: '1' });
      }
      override getSettingsHandler(): Empty {
        return this.#settings;
      }
    }
    const empty = generateOpenApiDocument(createRestServer({ plugins: [new EmptyPlugin()] }), {
      title: 'x',
      version: '1',
    });
    expect(Object.keys(empty.paths)).toEqual([
      '/api/commerce/v3/system_status',
      '/api/commerce/v3/empty/settings',
      '/api/commerce/v3/empty/settings/batch',
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
