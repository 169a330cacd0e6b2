import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  allowPublic,
  bearerTokenAuth,
  createRestServer,
  Framework_Plugin,
  Framework_REST_API,
  MemoryOptionStore,
  type RouteRegistry,
} from 'commerce-plugin-framework';
import {
  generateOpenApiDocument,
  type OpenApiDocument,
  toJsonSchema,
} from 'commerce-plugin-framework/openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { AcmePayGateway } from '../../examples/demo/gateway-plugin';
import { ItemsPlugin } from '../../examples/items-plugin/index';
import { OrdersPlugin } from '../../examples/orders-plugin/index';

class ReportsApi extends Framework_REST_API {
  override registerRoutes(routes: RouteRegistry): void {
    super.registerRoutes(routes);
    routes.register('reports/v2', '/sales/{year}/{region}', {
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
    });
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

const TOKEN = 'openapi-test-token';
const server = createRestServer({
  plugins: [
    new AcmePayGateway(new MemoryOptionStore()),
    new ItemsPlugin(),
    new OrdersPlugin(),
    new ReportsPlugin(),
  ],
  authenticate: bearerTokenAuth({ [TOKEN]: { id: 1, capabilities: ['manage_commerce'] } }),
});
const document: OpenApiDocument = generateOpenApiDocument(
  server,
  { title: 'Shop API', version: '1.2.3', description: 'Test document.' },
  { servers: [{ url: 'https://shop.example' }] },
);
const SETTINGS = '/api/commerce/v3/acme_pay/settings';
const SETTING = `${SETTINGS}/{setting_id}`;

async function json(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await server.fetch(
    new Request(`http://localhost${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    }),
  );
  return response.json();
}

describe('generateOpenApiDocument', () => {
  beforeAll(() => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document); // plain JSON data
  });

  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    const validated = await SwaggerParser.validate(structuredClone(document) as never);
    expect((validated as { openapi: string }).openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'Shop API', version: '1.2.3', description: 'Test document.' });
    expect(document.servers).toEqual([{ url: 'https://shop.example' }]);
  });

  it('has every route, under its full {param} path, with every method, and nothing else', () => {
    const expected = new Set<string>();
    for (const route of server.getRoutes()) {
      for (const method of route.methods) expected.add(`${method.toLowerCase()} ${route.path}`);
    }
    const actual = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) actual.add(`${method} ${path}`);
    }
    expect(actual).toEqual(expected);
    expect(actual).toContain('put /api/commerce/v3/acme_pay/settings/{setting_id}');
    expect(actual).toContain('patch /api/acme/v1/items/{id}');
    expect(actual).toContain('get /api/commerce/v3/system_status');
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares path parameters as required, typed by their arguments', () => {
    const get = document.paths['/api/acme/v1/items/{id}']!.get!;
    expect(get.parameters).toContainEqual({
      name: 'id',
      in: 'path',
      required: true,
      description: 'Unique identifier.',
      schema: { type: 'integer', minimum: 1, description: 'Unique identifier.' },
    });
    const sales = document.paths['/api/reports/v2/sales/{year}/{region}']!.get!;
    const path = sales.parameters!.filter((parameter) => parameter.in === 'path');
    expect(path.map((parameter) => [parameter.name, parameter.required])).toEqual([
      ['year', true],
      ['region', true],
    ]);
    // draft-04 boolean exclusiveMaximum becomes the 2020-12 number form
    expect(path[0]!.schema).toEqual({ type: 'integer', minimum: 2000, exclusiveMaximum: 2100 });
    expect(path[1]!.schema).toEqual({ type: 'string' }); // no argument declared
  });

  it('turns GET and DELETE arguments into query parameters', () => {
    const list = document.paths['/api/acme/v1/items']!.get!;
    const query = Object.fromEntries(list.parameters!.map((parameter) => [parameter.name, parameter]));
    expect(Object.keys(query)).toEqual(['page', 'per_page', 'search', 'orderby', 'order', 'context']);
    expect(query.per_page).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
    });
    expect(query.orderby!.schema).toMatchObject({ enum: ['date', 'name', 'modified'], default: 'date' });
    const remove = document.paths['/api/acme/v1/items/{id}']!.delete!;
    expect(remove.parameters).toContainEqual(
      expect.objectContaining({
        name: 'force',
        in: 'query',
        schema: expect.objectContaining({ type: 'boolean' }),
      }),
    );
    expect(remove.requestBody).toBeUndefined();
    const sales = document.paths['/api/reports/v2/sales/{year}/{region}']!.get!;
    expect(sales.parameters).toContainEqual(
      expect.objectContaining({ name: 'include', in: 'query', style: 'form', explode: false }),
    );
    expect(sales.parameters).toContainEqual(expect.objectContaining({ name: 'since', required: true }));
  });

  it('turns POST, PUT and PATCH arguments into a JSON object request body', () => {
    const update = document.paths[SETTING]!.put!;
    expect(update.parameters!.map((parameter) => parameter.name)).toEqual(['setting_id']);
    expect(update.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { type: 'object', required: ['value'] } } },
    });
    const create = document.paths['/api/acme/v1/items']!.post!;
    const schema = create.requestBody!.content['application/json']!.schema as Record<string, unknown>;
    expect(schema.required).toEqual(['name', 'price']);
    expect(schema.properties).toMatchObject({
      name: { type: 'string', minLength: 1, maxLength: 200 },
      status: { type: 'string', enum: ['publish', 'draft'], default: 'publish' },
    });
    const orders = document.paths['/api/acme/v1/orders']!.post!;
    const lineItems = (
      orders.requestBody!.content['application/json']!.schema.properties as Record<string, unknown>
    ).line_items as { items: Record<string, unknown> };
    expect(lineItems.items.required).toEqual(['product_id', 'name', 'quantity', 'price']);
    expect(lineItems.items.additionalProperties).toBe(false);
  });

  it('describes the Setting object, and real answers validate against it', async () => {
    const setting = document.components.schemas.Setting!;
    expect(setting).not.toHaveProperty('$schema');
    expect(JSON.stringify(setting)).not.toContain('"context"');
    expect((setting.properties as Record<string, Record<string, unknown>>).id).toMatchObject({
      readOnly: true,
    });
    expect(document.paths[SETTINGS]!.get!.responses['200']).toMatchObject({
      content: {
        'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Setting' } } },
      },
    });

    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document.components.schemas.Error!, 'error');
    const validSetting = ajv.compile(setting);
    for (const item of (await json(SETTINGS)) as unknown[])
      expect(validSetting(item), ajv.errorsText(validSetting.errors)).toBe(true);
    const updated = await json(`${SETTINGS}/countries`, {
      method: 'PUT',
      body: JSON.stringify({ value: ['FR'] }),
    });
    expect(validSetting(updated)).toBe(true);
    const error = await json(`${SETTINGS}/nope`);
    expect(ajv.validate('error', error), ajv.errorsText()).toBe(true);
  });

  it('lists the error statuses each route can produce, with the error shape', () => {
    const statuses = (path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch') =>
      Object.keys(document.paths[path]![method]!.responses).sort();
    expect(statuses(SETTING, 'put')).toEqual(['200', '400', '401', '403', '404', '413', '415', '500', '503']);
    expect(statuses(SETTINGS, 'get')).toEqual(['200', '401', '403', '500', '503']);
    expect(statuses('/api/acme/v1/items', 'get')).toEqual(['2XX', '400', '401', '403', '500']);
    expect(document.paths[SETTING]!.put!.responses['413']).toEqual({
      $ref: '#/components/responses/PayloadTooLarge',
    });
    expect(document.components.responses.NotFound).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(document.components.schemas.Error).toMatchObject({
      required: ['code', 'message', 'data'],
      properties: { data: { required: ['status'] } },
    });
  });

  it('has a bearer security scheme: required for settings and status, optional on plugin routes', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths[SETTING]!.get!.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/commerce/v3/system_status']!.get!.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/acme/v1/items']!.get!.security).toEqual([{ bearerAuth: [] }, {}]);
  });

  it('tags operations by namespace', () => {
    expect(document.tags.map((tag) => tag.name)).toEqual(['commerce/v3', 'acme/v1', 'reports/v2']);
    expect(document.paths['/api/acme/v1/orders']!.get!.tags).toEqual(['acme/v1']);
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
});
