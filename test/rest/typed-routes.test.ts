import {
  allowPublic,
  type collectionParams,
  createRestServer,
  definePlugin,
  type InferParams,
  MemoryOptionStore,
  RestResponse,
  requireManagement,
  type ValueOfSchema,
} from 'commerce-plugin-framework';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ADMIN_TOKEN, authenticate, call } from './support/fixtures';

describe('typed route arguments (types)', () => {
  it('infers params from args: types, enums, required, defaults, optional, path parameters', () => {
    type Params = InferParams<
      {
        id: { type: 'integer'; required: true };
        status: { type: 'string'; enum: readonly ['publish', 'draft']; default: 'publish' };
        search: { type: 'string' };
        tags: { type: 'array'; items: { type: 'string' } };
        force: { type: 'boolean'; default: false };
        price: { type: 'number'; minimum: 0 };
        note: { type: readonly ['string', 'null'] };
        trimmed: { type: 'string'; sanitize(value: unknown): string[] };
      },
      '/items/{id}/notes/{note_id}'
    >;
    expectTypeOf<Params>().toEqualTypeOf<{
      id: number;
      status: 'publish' | 'draft';
      force: boolean;
      note_id: string;
      search?: string;
      tags?: string[];
      price?: number;
      note?: string | null;
      trimmed?: string[];
    }>();
  });

  it('gives the standard list arguments their types', () => {
    type List = InferParams<ReturnType<typeof collectionParams>>;
    expectTypeOf<List>().toEqualTypeOf<{
      page: number;
      per_page: number;
      orderby: 'date' | 'name' | 'modified';
      order: 'ASC' | 'DESC';
      search?: string;
    }>();
  });

  it('types a value from a JSON Schema: objects with required members, arrays, const, oneOf', () => {
    type Item = ValueOfSchema<{
      type: 'object';
      required: ['id', 'tags'];
      properties: {
        id: { type: 'integer' };
        name: { type: 'string' };
        tags: { type: 'array'; items: { type: 'string' } };
        kind: { oneOf: [{ const: 'a' }, { const: 'b' }] };
      };
      additionalProperties: false;
    }>;
    expectTypeOf<Item>().toEqualTypeOf<{ id: number; tags: string[]; name?: string; kind?: 'a' | 'b' }>();
  });
});

describe('definePlugin', () => {
  function shop() {
    return definePlugin({
      id: 'shop',
      name: 'Shop',
      version: '1.0.0',
      settings: {
        mode: { type: 'string', options: ['live', 'test'], default: 'test' },
        retries: { type: 'integer' },
      },
      store: new MemoryOptionStore(),
      namespace: 'shop/v1',
      routes(r, { settings }) {
        r.get('/items/{id}', {
          args: {
            id: { type: 'integer', required: true, minimum: 1 },
            verbose: { type: 'boolean', default: false },
          },
          permission: allowPublic(),
          response: {
            schema: {
              type: 'object',
              required: ['id', 'verbose', 'mode'],
              properties: { id: { type: 'integer' }, verbose: { type: 'boolean' }, mode: { type: 'string' } },
            },
          },
          handler: async ({ params }) => {
            expectTypeOf(params.id).toEqualTypeOf<number>();
            expectTypeOf(params.verbose).toEqualTypeOf<boolean>();
            const mode = await settings.getValue('mode');
            expectTypeOf(mode).toEqualTypeOf<'live' | 'test'>();
            return { id: params.id, verbose: params.verbose, mode };
          },
        });
        r.post('/items', {
          args: { name: { type: 'string', required: true } },
          permission: requireManagement(),
          handler: ({ params }) => new RestResponse({ created: params.name }, 201),
        });
        r.get('/broken', {
          permission: allowPublic(),
          response: { schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } },
          // @ts-expect-error the declared response needs `ok: boolean`
          handler: () => ({ ok: 'yes' }),
        });
      },
      status: ({ settings }) => ({ has_retries: settings.getSetting('retries') !== undefined }),
    });
  }

  it('makes one plugin of settings, routes and status, served like any other', async () => {
    const plugin = shop();
    expectTypeOf(plugin.settings.getValue('retries')).resolves.toEqualTypeOf<number | null>();
    const server = createRestServer({ plugins: [plugin], authenticate });
    const item = await call(server, 'GET', '/api/shop/v1/items/7?verbose=true');
    expect(item.json).toEqual({ id: 7, verbose: true, mode: 'test' });
    expect((await call(server, 'GET', '/api/shop/v1/items/0')).status).toBe(400);
    const created = await call(server, 'POST', '/api/shop/v1/items', {
      token: ADMIN_TOKEN,
      body: { name: 'Lamp' },
    });
    expect([created.status, created.json]).toEqual([201, { created: 'Lamp' }]);
    expect(
      (await call(server, 'GET', '/api/commerce/v3/shop/settings/mode', { token: ADMIN_TOKEN })).json.value,
    ).toBe('test');
    expect((await server.getSystemStatus()).commerce_shop).toMatchObject({ has_retries: true });
  });

  it('needs a store for settings and a namespace for routes', () => {
    expect(() =>
      definePlugin({ id: 'x', name: 'X', version: '1', settings: { a: { type: 'string' } } }),
    ).toThrow(/store/);
    expect(() => definePlugin({ id: 'x', name: 'X', version: '1', routes() {} })).toThrow(/namespace/);
    expect(definePlugin({ id: 'x', name: 'X', version: '1' }).getSettingsHandler()).toBeNull();
  });
});
