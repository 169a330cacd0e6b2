import {
  allowPublic,
  createRestServer,
  type EndpointDefinition,
  Framework_Plugin_Exception,
  RouteRegistry,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { TablePlugin, tableServer } from './support/echo-plugin';
import { call } from './support/fixtures';

const endpoint = (methods: EndpointDefinition['methods'] = 'GET'): EndpointDefinition => ({
  methods,
  permission: allowPublic(),
  handler: () => null,
});

describe('RouteRegistry', () => {
  it('defaults to /api and commerce/v3 and describes routes', () => {
    const routes = new RouteRegistry();
    expect([routes.getRestRoot(), routes.getHostNamespace()]).toEqual(['/api', 'commerce/v3']);
    routes.register('acme/v1', '/items/{id}', [
      { ...endpoint('GET'), args: { id: { type: 'integer', required: true }, context: { type: 'string' } } },
      { ...endpoint(['PUT', 'PATCH']), args: { id: { type: 'integer' }, name: { type: 'string' } } },
    ]);
    routes.register('acme/v1', '/items/{id}', endpoint('DELETE'));
    expect(routes.getRoutes()).toEqual([
      {
        path: '/api/acme/v1/items/{id}',
        namespace: 'acme/v1',
        route: '/items/{id}',
        methods: ['GET', 'PUT', 'PATCH', 'DELETE'],
        args: {
          id: { type: 'integer', required: true },
          context: { type: 'string' },
          name: { type: 'string' },
        },
        endpoints: [
          {
            methods: ['GET'],
            args: { id: { type: 'integer', required: true }, context: { type: 'string' } },
            isPublic: true,
          },
          {
            methods: ['PUT', 'PATCH'],
            args: { id: { type: 'integer' }, name: { type: 'string' } },
            isPublic: true,
          },
          { methods: ['DELETE'], args: {}, isPublic: true },
        ],
      },
    ]);
    expect(routes.getNamespaces()).toEqual(['acme/v1']);
  });

  it('describes each endpoint with its docs and whether its permission is allowPublic()', () => {
    const routes = new RouteRegistry();
    const docs = () => ({ summary: 'Items' });
    routes.register('acme/v1', '/items', [
      { ...endpoint('GET'), docs },
      { ...endpoint('POST'), permission: () => true, docs: { summary: 'Create' } },
    ]);
    expect(routes.getRoutes()[0]!.endpoints).toEqual([
      { methods: ['GET'], args: {}, isPublic: true, docs },
      { methods: ['POST'], args: {}, isPublic: false, docs: { summary: 'Create' } },
    ]);
    expect(() => routes.register('acme/v1', '/x', { ...endpoint(), docs: 'text' as never })).toThrow(
      /"docs" must be an object or a function/,
    );
  });

  it('takes a custom root and host namespace', () => {
    const routes = new RouteRegistry({ restRoot: '/wp-json/', hostNamespace: 'wc/v3' });
    routes.register('acme/v2', '/x', endpoint());
    expect(routes.getRoutes()[0]!.path).toBe('/wp-json/acme/v2/x');
    expect(new RouteRegistry({ restRoot: '' }).getRestRoot()).toBe('');
    expect(() => new RouteRegistry({ restRoot: 'api' })).toThrow(/restRoot/);
    expect(() => new RouteRegistry({ restRoot: '/a//b' })).toThrow(/restRoot/);
    expect(() => new RouteRegistry({ hostNamespace: 'commerce' })).toThrow(/namespace/);
  });

  it('requires namespaces of the form <slug>/v<N>', () => {
    const routes = new RouteRegistry();
    for (const namespace of ['acme/v1', 'my-shop/v12', 'a_b/v0']) {
      expect(() => routes.register(namespace, '/x', endpoint())).not.toThrow();
    }
    for (const namespace of [
      'acme',
      'acme/1',
      'acme/v',
      'Acme/v1',
      '/acme/v1',
      'acme/v1/',
      'ac me/v1',
      '-acme/v1',
      'a/b/v1',
    ]) {
      expect(() => routes.register(namespace, '/x', endpoint()), namespace).toThrow(
        Framework_Plugin_Exception,
      );
    }
  });

  it('checks the path', () => {
    const routes = new RouteRegistry();
    for (const path of [
      'x',
      '/',
      '/x/',
      '//x',
      '/x/{id',
      '/x/{1d}',
      '/x/a{id}',
      '/x/{id}/{id}',
      '/x/..',
      '/x y',
      '/x?y',
    ]) {
      expect(() => routes.register('acme/v1', path, endpoint()), path).toThrow(/invalid route path/);
    }
  });

  it('requires a permission callback on every endpoint (deny by default)', () => {
    const routes = new RouteRegistry();
    const withoutPermission = { methods: 'GET', handler: () => null } as unknown as EndpointDefinition;
    expect(() => routes.register('acme/v1', '/x', withoutPermission)).toThrow(/"permission" is required/);
    expect(() =>
      routes.register('acme/v1', '/y', [
        endpoint('GET'),
        { ...endpoint('POST'), permission: undefined as never },
      ]),
    ).toThrow(Framework_Plugin_Exception);
    // Nothing of a refused registration is kept.
    expect(routes.getRoutes()).toEqual([]);
  });

  it('checks methods and handler', () => {
    const routes = new RouteRegistry();
    expect(() => routes.register('acme/v1', '/x', endpoint('HEAD' as never))).toThrow(
      /unknown method "HEAD"/,
    );
    expect(() => routes.register('acme/v1', '/x', endpoint('get' as never))).toThrow(/unknown method/);
    expect(() => routes.register('acme/v1', '/x', endpoint([]))).toThrow(/"methods"/);
    expect(() => routes.register('acme/v1', '/x', [endpoint('GET'), endpoint('GET')])).toThrow(
      /registered twice/,
    );
    expect(() => routes.register('acme/v1', '/x', [])).toThrow(/no endpoints/);
    expect(() => routes.register('acme/v1', '/x', { ...endpoint(), handler: 'no' as never })).toThrow(
      /"handler"/,
    );
    routes.register('acme/v1', '/x', endpoint('GET'));
    expect(() => routes.register('acme/v1', '/x', endpoint('GET'))).toThrow(/registered twice/);
  });

  it('is sealed once a server is created: later registrations throw', () => {
    let captured: RouteRegistry | undefined;
    const server = tableServer([]);
    expect(server.getRoutes().map((route) => route.path)).toEqual(['/api/commerce/v3/system_status']);
    class Capturing extends TablePlugin {
      override getRestApiHandler() {
        const handler = super.getRestApiHandler();
        const original = handler.registerRoutes.bind(handler);
        handler.registerRoutes = (routes: RouteRegistry) => {
          captured = routes;
          original(routes);
        };
        return handler;
      }
    }
    createRestServer({ plugins: [new Capturing([])] });
    expect(() => captured!.register('acme/v1', '/late', endpoint())).toThrow(/sealed/);
  });

  it('refuses two routes no request could tell apart', () => {
    expect(() =>
      tableServer([
        ['acme/v1', '/items/{id}', endpoint()],
        ['acme/v1', '/items/{slug}', endpoint()],
      ]),
    ).toThrow(/same shape/);
    // An integer parameter and a text parameter can share a position: digits go to the first.
    const server = tableServer([
      [
        'acme/v1',
        '/items/{id}',
        { ...endpoint(), args: { id: { type: 'integer' } }, handler: (request) => ['id', request.get('id')] },
      ],
      ['acme/v1', '/items/{slug}', { ...endpoint(), handler: (request) => ['slug', request.get('slug')] }],
    ]);
    return Promise.all([
      call(server, 'GET', '/api/acme/v1/items/12').then((res) => expect(res.json).toEqual(['id', 12])),
      call(server, 'GET', '/api/acme/v1/items/mug').then((res) => expect(res.json).toEqual(['slug', 'mug'])),
    ]);
  });

  it('prefers fixed segments and backtracks to parameters', async () => {
    const server = tableServer([
      ['acme/v1', '/a/{x}/c', { ...endpoint(), handler: (request) => ['param', request.get('x')] }],
      ['acme/v1', '/a/b/d', { ...endpoint(), handler: () => ['static'] }],
    ]);
    expect((await call(server, 'GET', '/api/acme/v1/a/b/d')).json).toEqual(['static']);
    expect((await call(server, 'GET', '/api/acme/v1/a/b/c')).json).toEqual(['param', 'b']);
    expect((await call(server, 'GET', '/api/acme/v1/a/b/e')).status).toBe(404);
  });
});
