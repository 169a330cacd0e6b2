import {
  allowPublic,
  type DefinedPlugin,
  definePlugin,
  itemRoutes,
  JSON_SCHEMA_DRAFT_04,
  notFoundResponse,
  paginationHeaders,
  type RestRequest,
  RestResponse,
  requireManagement,
  successResponse,
  validationFailedResponse,
} from 'commerce-plugin-framework';
import { InMemoryItemRepository, type Item } from './item-repository';

/** Options of {@link itemsPlugin}. */
export interface ItemsPluginOptions {
  /** Where the items live (default: a new in-memory repository). */
  items?: InMemoryItemRepository;
  /** The plugin id (default `items`). */
  id?: string;
  /** The routes' namespace (default `acme/v1`). */
  namespace?: string;
}

/** The JSON Schema of an item; a property's `context` says in which answers it appears. */
const ITEM_SCHEMA = {
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
} as const;

/** One entry of the `errors` of a 400 `{success: false, errors}` answer. */
const FIELD_ERROR = {
  type: 'object',
  required: ['field', 'message'],
  properties: { field: { type: 'string' }, message: { type: 'string' } },
} as const;

const STATUSES = ['publish', 'draft'] as const;
const ID = { type: 'integer', required: true, minimum: 1, description: 'Unique identifier.' } as const;
const NOT_FOUND = 'No item with that id.';
const NAME_INVALID = 'The name is blank or another item has it.';

/**
 * The reference item routes as one plugin, written with `definePlugin` (every handler's
 * `params` typed from its arguments — no casts):
 *
 * | method | path | permission | answers |
 * |---|---|---|---|
 * | GET | `/items` | public | `{success, data: [items]}` with `X-Total`, `X-Total-Pages`; drafts only for managers |
 * | POST | `/items` | management | 201 `{success, data: item}` and `Location` |
 * | GET | `/items/{id}` | public | `{success, data: item}` or 404 `{success: false, message}` (a draft, for others than managers) |
 * | PUT, PATCH | `/items/{id}` | management | `{success, data: item}` |
 * | DELETE | `/items/{id}` | management | moves to the trash; with `force=true` deletes for good |
 */
export function itemsPlugin(options: ItemsPluginOptions = {}): DefinedPlugin<Record<never, never>> {
  const items = options.items ?? new InMemoryItemRepository();
  const namespace = options.namespace ?? 'acme/v1';
  const kit = itemRoutes({ namespace, restBase: 'items', schema: ITEM_SCHEMA });
  /** Managers (those the writes need) also see drafts and trashed items. */
  const seesDrafts = (request: RestRequest) => requireManagement()(request) === true;
  const prepare = (item: Item, request: RestRequest) => kit.prepare(item, request);
  const checkName = (name: string, exceptId?: number) => {
    if (name === '') return [{ field: 'name', message: 'The name must not be blank.' }];
    if (items.hasName(name, exceptId))
      return [{ field: 'name', message: `An item named "${name}" already exists.` }];
    return [];
  };
  const fields = {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string', maxLength: 5000 },
    price: { type: 'number', minimum: 0 },
    status: { type: 'string', enum: STATUSES },
    internal_note: { type: 'string', maxLength: 1000 },
  } as const;

  return definePlugin({
    id: options.id ?? 'items',
    name: 'Items',
    version: '1.0.0',
    namespace,
    routes(r) {
      r.get(kit.collectionPath, {
        args: { ...kit.collectionParams, context: kit.contextParam },
        permission: allowPublic(),
        docs: kit.answersList({ summary: 'List items' }),
        handler: (request) => {
          const { page, per_page: perPage, search, orderby, order } = request.params;
          const statuses = seesDrafts(request) ? undefined : (['publish'] as const);
          const { items: found, total } = items.list({ page, perPage, search, orderby, order, statuses });
          const data = found.map((item) => prepare(item, request));
          return successResponse(data, 200, paginationHeaders(total, perPage));
        },
      });
      r.post(kit.collectionPath, {
        args: {
          ...fields,
          name: { ...fields.name, required: true },
          price: { ...fields.price, required: true },
          status: { ...fields.status, default: 'publish' },
        },
        permission: requireManagement(),
        docs: kit.answersItem({
          summary: 'Create an item',
          status: 201,
          description: 'The new item.',
          invalid: NAME_INVALID,
          invalidItem: FIELD_ERROR,
        }),
        handler: (request) => {
          const { params } = request;
          const name = params.name.trim();
          const errors = checkName(name);
          if (errors.length > 0) return validationFailedResponse(errors);
          const item = items.create({ ...params, name });
          return successResponse(prepare(item, request), 201, { Location: kit.urlOf(item.id, request) });
        },
      });
      r.get(kit.itemPath, {
        args: { id: ID, context: kit.contextParam },
        permission: allowPublic(),
        docs: kit.answersItem({ summary: 'Get an item', notFound: NOT_FOUND }),
        handler: (request) => {
          const item = items.get(request.params.id);
          if (!item || (item.status !== 'publish' && !seesDrafts(request))) {
            return notFoundResponse(`Item ${request.params.id} was not found.`);
          }
          return successResponse(prepare(item, request));
        },
      });
      r.on(['PUT', 'PATCH'], kit.itemPath, {
        args: { id: ID, ...fields },
        permission: requireManagement(),
        docs: kit.answersItem({
          summary: 'Change an item',
          notFound: NOT_FOUND,
          invalid: NAME_INVALID,
          invalidItem: FIELD_ERROR,
        }),
        handler: (request) => {
          const { id, name: rawName, ...changes } = request.params;
          if (!items.get(id)) return notFoundResponse(`Item ${id} was not found.`);
          const name = rawName?.trim();
          const errors = name === undefined ? [] : checkName(name, id);
          if (errors.length > 0) return validationFailedResponse(errors);
          const item = items.update(id, { ...changes, name });
          return item
            ? successResponse(prepare(item, request))
            : notFoundResponse(`Item ${id} was not found.`);
        },
      });
      r.delete(kit.itemPath, {
        args: {
          id: ID,
          force: { type: 'boolean', default: false, description: 'Delete for good instead of trashing.' },
        },
        permission: requireManagement(),
        docs: kit.answersItem({
          summary: 'Trash or delete an item',
          description: 'The trashed item, or with `force=true` `{deleted: true, previous}`.',
          data: {
            oneOf: [
              kit.itemSchemaRef(),
              {
                type: 'object',
                required: ['deleted', 'previous'],
                properties: { deleted: { type: 'boolean', const: true }, previous: kit.itemSchemaRef() },
              },
            ],
          },
          notFound: NOT_FOUND,
          errors: [
            {
              status: 410,
              body: 'message',
              description: 'The item is already in the trash; use `force=true`.',
            },
          ],
        }),
        handler: (request) => {
          const { id, force } = request.params;
          const item = items.get(id);
          if (!item) return notFoundResponse(`Item ${id} was not found.`);
          if (force) {
            items.delete(id);
            return successResponse({ deleted: true, previous: prepare(item, request) });
          }
          if (item.status === 'trash') {
            return new RestResponse(
              { success: false, message: `Item ${id} is already in the trash; use force=true.` },
              410,
            );
          }
          const trashed = items.update(id, { status: 'trash' });
          return trashed
            ? successResponse(prepare(trashed, request))
            : notFoundResponse(`Item ${id} was not found.`);
        },
      });
    },
  });
}
