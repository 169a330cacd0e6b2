import {
  allowPublic,
  createRestServer,
  Framework_Plugin,
  Framework_REST_API,
  Framework_REST_Controller,
  notFoundResponse,
  paginate,
  paginationHeaders,
  type RestRequest,
  type RouteRegistry,
  successMessageResponse,
  successResponse,
  validationFailedResponse,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, authenticate, CLERK_TOKEN, call, NOBODY_TOKEN } from './support/fixtures';

class PlainController extends Framework_REST_Controller {
  registerRoutes(): void {}
}

class NotesController extends Framework_REST_Controller {
  constructor() {
    super('notes/v2', 'notes');
  }
  override getItemSchema(): object {
    return {
      $schema: 'http://json-schema.org/draft-04/schema#',
      title: 'note',
      type: 'object',
      properties: {
        id: { type: 'integer', context: ['view', 'edit', 'embed'] },
        text: { type: 'string', context: ['view', 'edit'] },
        secret: { type: 'string', context: ['edit'] },
        free: { type: 'string' },
      },
    };
  }
  registerRoutes(routes: RouteRegistry): void {
    routes.register(this.namespace, `/${this.restBase}/{id}`, {
      methods: 'GET',
      permission: allowPublic(),
      args: { id: { type: 'integer', required: true }, context: this.getContextParam() },
      handler: (request: RestRequest) =>
        this.prepareItemForResponse(
          { id: request.get('id'), text: 't', secret: 's', free: 'f', extra: 'e' },
          request,
        ),
    });
  }
}

/** A plugin that serves one controller's routes. */
function controllerPlugin(id: string, controller: Framework_REST_Controller): Framework_Plugin {
  return new (class extends Framework_Plugin {
    constructor() {
      super({ id, name: id, version: '1' });
    }
    protected override initRestApiHandler(): void {
      this.restApiHandler = new (class extends Framework_REST_API {
        override registerRoutes(routes: RouteRegistry): void {
          super.registerRoutes(routes);
          controller.registerRoutes(routes);
        }
      })(this);
    }
  })();
}

const notesPlugin = () => controllerPlugin('notes', new NotesController());

describe('Framework_REST_Controller', () => {
  it('has a default draft-04 item schema', () => {
    expect(new PlainController('acme/v1', 'things').getItemSchema()).toEqual({
      $schema: 'http://json-schema.org/draft-04/schema#',
      title: 'things',
      type: 'object',
      properties: {},
    });
  });

  it('checks namespace and base', () => {
    expect(() => new PlainController('acme', 'things')).toThrow(/namespace/);
    expect(() => new PlainController('acme/v1', '/things')).toThrow(/restBase/);
  });

  it('gives the standard collection params', () => {
    const params = new PlainController('acme/v1', 'things').getCollectionParams();
    expect(Object.keys(params)).toEqual(['page', 'per_page', 'search', 'orderby', 'order']);
    expect(params.page).toMatchObject({ type: 'integer', default: 1, minimum: 1 });
    expect(params.per_page).toMatchObject({ type: 'integer', default: 10, minimum: 1, maximum: 100 });
    expect(params.search).toMatchObject({ type: 'string' });
    expect(params.orderby).toMatchObject({
      type: 'string',
      enum: ['date', 'name', 'modified'],
      default: 'date',
    });
    expect(params.order).toMatchObject({ type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' });
  });

  it('derives the context param from the schema', () => {
    expect(new NotesController().getContextParam()).toMatchObject({
      type: 'string',
      enum: ['view', 'edit', 'embed'],
      default: 'view',
    });
    expect(new PlainController('acme/v1', 'things').getContextParam()).toMatchObject({
      enum: ['view'],
      default: 'view',
    });
  });

  it('filters by context and adds absolute links', async () => {
    const server = createRestServer({ plugins: [notesPlugin()], restRoot: '/rest', authenticate });
    const view = await call(server, 'GET', '/rest/notes/v2/notes/4');
    expect(view.json).toEqual({
      id: 4,
      text: 't',
      free: 'f',
      extra: 'e',
      _links: { self: [{ href: '/rest/notes/v2/notes/4' }], collection: [{ href: '/rest/notes/v2/notes' }] },
    });
    const edit = await call(server, 'GET', '/rest/notes/v2/notes/4?context=edit', { token: ADMIN_TOKEN });
    expect(Object.keys(edit.json)).toEqual(['id', 'text', 'secret', 'free', 'extra', '_links']);
    const embed = await call(server, 'GET', '/rest/notes/v2/notes/4?context=embed');
    expect(Object.keys(embed.json)).toEqual(['id', 'free', 'extra', '_links']);
  });

  it('answers 401 / 403 rest_forbidden_context to context=edit without the management capability', async () => {
    const server = createRestServer({ plugins: [notesPlugin()], authenticate });
    const anonymous = await call(server, 'GET', '/api/notes/v2/notes/4?context=edit');
    expect([anonymous.status, anonymous.json.code]).toEqual([401, 'rest_forbidden_context']);
    const clerk = await call(server, 'GET', '/api/notes/v2/notes/4?context=edit', { token: CLERK_TOKEN });
    expect([clerk.status, clerk.json.code]).toEqual([403, 'rest_forbidden_context']);
    expect(clerk.text).not.toContain('"s"');
    for (const context of ['view', 'embed']) {
      expect((await call(server, 'GET', `/api/notes/v2/notes/4?context=${context}`)).status).toBe(200);
    }
  });

  it('lets a controller choose who may use which context (canUseContext)', async () => {
    class OpenNotes extends NotesController {
      protected override canUseContext(context: string, request: RestRequest): boolean {
        return context === 'edit'
          ? request.userCan('edit_shop_orders')
          : super.canUseContext(context, request);
      }
    }
    const server = createRestServer({ plugins: [controllerPlugin('open', new OpenNotes())], authenticate });
    const clerk = await call(server, 'GET', '/api/notes/v2/notes/4?context=edit', { token: CLERK_TOKEN });
    expect([clerk.status, clerk.json.secret]).toEqual([200, 's']);
    expect(
      (await call(server, 'GET', '/api/notes/v2/notes/4?context=edit', { token: NOBODY_TOKEN })).status,
    ).toBe(403);
  });

  it('checks the context again in prepareItemForResponse, for routes with their own context argument', async () => {
    class LooseNotes extends NotesController {
      override registerRoutes(routes: RouteRegistry): void {
        routes.register(this.namespace, `/${this.restBase}`, {
          methods: 'GET',
          permission: allowPublic(),
          args: { context: { type: 'string', enum: ['view', 'edit'], default: 'view' } },
          handler: (request: RestRequest) => [this.prepareItemForResponse({ id: 1, secret: 's' }, request)],
        });
      }
    }
    const server = createRestServer({ plugins: [controllerPlugin('loose', new LooseNotes())], authenticate });
    const anonymous = await call(server, 'GET', '/api/notes/v2/notes?context=edit');
    expect([anonymous.status, anonymous.json.code]).toEqual([401, 'rest_forbidden_context']);
    const admin = await call(server, 'GET', '/api/notes/v2/notes?context=edit', { token: ADMIN_TOKEN });
    expect(admin.json[0].secret).toBe('s');
  });

  it('omits the self link for items without an id', () => {
    const controller = new NotesController();
    const request = { get: () => undefined, server: undefined } as unknown as RestRequest;
    expect(controller.prepareItemForResponse({ text: 'x' }, request)).toEqual({
      text: 'x',
      _links: { collection: [{ href: '/api/notes/v2/notes' }] },
    });
  });
});

describe('envelope and pagination helpers', () => {
  it('builds the envelopes', () => {
    expect(successResponse({ a: 1 })).toMatchObject({ status: 200, body: { success: true, data: { a: 1 } } });
    expect(successResponse([], 201, { 'X-Total': '0' })).toMatchObject({
      status: 201,
      headers: { 'X-Total': '0' },
    });
    expect(successMessageResponse('Done.')).toMatchObject({
      status: 200,
      body: { success: true, message: 'Done.' },
    });
    expect(notFoundResponse('Gone.')).toMatchObject({
      status: 404,
      body: { success: false, message: 'Gone.' },
    });
    expect(validationFailedResponse(['x'])).toMatchObject({
      status: 400,
      body: { success: false, errors: ['x'] },
    });
  });

  it('paginates and computes the headers', () => {
    expect(paginate([1, 2, 3, 4, 5], 2, 2)).toEqual({ items: [3, 4], total: 5, totalPages: 3 });
    expect(paginate([], 1, 10)).toEqual({ items: [], total: 0, totalPages: 0 });
    expect(() => paginate([1], 0, 10)).toThrow(RangeError);
    expect(paginationHeaders(5, 2)).toEqual({ 'X-Total': '5', 'X-Total-Pages': '3' });
    expect(paginationHeaders(0, 10)).toEqual({ 'X-Total': '0', 'X-Total-Pages': '0' });
  });
});
