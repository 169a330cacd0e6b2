import {
  type ArgSchema,
  allowPublic,
  Framework_REST_Controller,
  JSON_SCHEMA_DRAFT_04,
  notFoundResponse,
  paginationHeaders,
  type RestRequest,
  RestResponse,
  type RouteRegistry,
  requireManagement,
  successResponse,
  validationFailedResponse,
} from 'commerce-plugin-framework';
import type { InMemoryItemRepository, Item, ItemQuery, NewItem } from './item-repository';

const STATUSES = ['publish', 'draft'] as const;

/**
 * The reference item routes, under `/{namespace}/items`:
 *
 * | method | path | permission | answers |
 * |---|---|---|---|
 * | GET | `/items` | public | `{success, data: [items]}` with `X-Total`, `X-Total-Pages` |
 * | POST | `/items` | management | 201 `{success, data: item}` |
 * | GET | `/items/{id}` | public | `{success, data: item}` or 404 `{success: false, message}` |
 * | PUT, PATCH | `/items/{id}` | management | `{success, data: item}` |
 * | DELETE | `/items/{id}` | management | moves to the trash; with `force=true` deletes for good |
 */
export class ItemsController extends Framework_REST_Controller {
  readonly #items: InMemoryItemRepository;

  /**
   * @param items - where the items live
   * @param namespace - the routes' namespace (default `acme/v1`)
   */
  constructor(items: InMemoryItemRepository, namespace = 'acme/v1') {
    super(namespace, 'items');
    this.#items = items;
  }

  override getItemSchema(): object {
    return {
      $schema: JSON_SCHEMA_DRAFT_04,
      title: 'item',
      type: 'object',
      properties: {
        id: {
          type: 'integer',
          description: 'Unique identifier.',
          context: ['view', 'edit', 'embed'],
          readonly: true,
        },
        name: { type: 'string', description: 'Item name.', context: ['view', 'edit', 'embed'] },
        description: { type: 'string', description: 'Item description.', context: ['view', 'edit'] },
        price: { type: 'number', description: 'Price.', context: ['view', 'edit'] },
        status: { type: 'string', enum: ['publish', 'draft', 'trash'], context: ['view', 'edit'] },
        internal_note: { type: 'string', description: 'Note for managers.', context: ['edit'] },
        date_created: { type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
        date_modified: { type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
      },
    };
  }

  registerRoutes(routes: RouteRegistry): void {
    const collection = `/${this.restBase}`;
    const single = `/${this.restBase}/{id}`;
    const id: ArgSchema = { type: 'integer', required: true, minimum: 1, description: 'Unique identifier.' };
    const context = this.getContextParam();
    routes.register(this.namespace, collection, [
      {
        methods: 'GET',
        permission: allowPublic(),
        args: { ...this.getCollectionParams(), context },
        handler: (request) => this.#list(request),
      },
      {
        methods: 'POST',
        permission: requireManagement(),
        args: {
          name: { type: 'string', required: true, minLength: 1, maxLength: 200 },
          description: { type: 'string', maxLength: 5000 },
          price: { type: 'number', required: true, minimum: 0 },
          status: { type: 'string', enum: STATUSES, default: 'publish' },
          internal_note: { type: 'string', maxLength: 1000 },
        },
        handler: (request) => this.#create(request),
      },
    ]);
    routes.register(this.namespace, single, [
      {
        methods: 'GET',
        permission: allowPublic(),
        args: { id, context },
        handler: (request) => this.#get(request),
      },
      {
        methods: ['PUT', 'PATCH'],
        permission: requireManagement(),
        args: {
          id,
          name: { type: 'string', minLength: 1, maxLength: 200 },
          description: { type: 'string', maxLength: 5000 },
          price: { type: 'number', minimum: 0 },
          status: { type: 'string', enum: STATUSES },
          internal_note: { type: 'string', maxLength: 1000 },
        },
        handler: (request) => this.#update(request),
      },
      {
        methods: 'DELETE',
        permission: requireManagement(),
        args: {
          id,
          force: { type: 'boolean', default: false, description: 'Delete for good instead of trashing.' },
        },
        handler: (request) => this.#delete(request),
      },
    ]);
  }

  #list(request: RestRequest): RestResponse {
    const query: ItemQuery = {
      page: request.get('page') as number,
      perPage: request.get('per_page') as number,
      search: request.get('search') as string | undefined,
      orderby: request.get('orderby') as ItemQuery['orderby'],
      order: request.get('order') as ItemQuery['order'],
    };
    const { items, total } = this.#items.list(query);
    return successResponse(
      items.map((item) => this.#prepare(item, request)),
      200,
      paginationHeaders(total, query.perPage),
    );
  }

  #get(request: RestRequest): RestResponse {
    const item = this.#items.get(request.get('id') as number);
    if (!item) return notFoundResponse(`Item ${request.get('id')} was not found.`);
    return successResponse(this.#prepare(item, request));
  }

  #create(request: RestRequest): RestResponse {
    const name = (request.get('name') as string).trim();
    const errors = this.#checkName(name);
    if (errors.length > 0) return validationFailedResponse(errors);
    const item = this.#items.create({
      name,
      description: request.get('description') as string | undefined,
      price: request.get('price') as number,
      status: request.get('status') as NewItem['status'],
      internal_note: request.get('internal_note') as string | undefined,
    });
    const response = successResponse(this.#prepare(item, request), 201);
    response.setHeader(
      'Location',
      `${request.server?.restRoot ?? ''}/${this.namespace}/${this.restBase}/${item.id}`,
    );
    return response;
  }

  #update(request: RestRequest): RestResponse {
    const id = request.get('id') as number;
    if (!this.#items.get(id)) return notFoundResponse(`Item ${id} was not found.`);
    const rawName = request.get('name') as string | undefined;
    const name = rawName?.trim();
    if (name !== undefined) {
      const errors = this.#checkName(name, id);
      if (errors.length > 0) return validationFailedResponse(errors);
    }
    const item = this.#items.update(id, {
      name,
      description: request.get('description') as string | undefined,
      price: request.get('price') as number | undefined,
      status: request.get('status') as Item['status'] | undefined,
      internal_note: request.get('internal_note') as string | undefined,
    })!;
    return successResponse(this.#prepare(item, request));
  }

  #delete(request: RestRequest): RestResponse {
    const id = request.get('id') as number;
    const item = this.#items.get(id);
    if (!item) return notFoundResponse(`Item ${id} was not found.`);
    if (request.get('force') === true) {
      this.#items.delete(id);
      return successResponse({ deleted: true, previous: this.#prepare(item, request) });
    }
    if (item.status === 'trash') {
      return new RestResponse(
        { success: false, message: `Item ${id} is already in the trash; use force=true.` },
        410,
      );
    }
    return successResponse(this.#prepare(this.#items.update(id, { status: 'trash' })!, request));
  }

  #checkName(name: string, exceptId?: number): { field: string; message: string }[] {
    if (name === '') return [{ field: 'name', message: 'The name must not be blank.' }];
    if (this.#items.hasName(name, exceptId)) {
      return [{ field: 'name', message: `An item named "${name}" already exists.` }];
    }
    return [];
  }

  #prepare(item: Item, request: RestRequest): Record<string, unknown> {
    return this.prepareItemForResponse({ ...item }, request);
  }
}
