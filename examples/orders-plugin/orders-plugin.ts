import {
  type DefinedPlugin,
  definePlugin,
  itemRoutes,
  JSON_SCHEMA_DRAFT_04,
  notFoundResponse,
  paginationHeaders,
  requireCapability,
  successMessageResponse,
  successResponse,
  validationFailedResponse,
} from 'commerce-plugin-framework';
import { InMemoryOrderRepository, ORDER_STATUSES } from './order-repository';

/** Options of {@link ordersPlugin}. */
export interface OrdersPluginOptions {
  /** Where the orders live (default: a new in-memory repository). */
  orders?: InMemoryOrderRepository;
  /** The plugin id (default `orders`). */
  id?: string;
  /** The routes' namespace (default `acme/v1`). */
  namespace?: string;
}

/** One entry of the `errors` of a 400 `{success: false, errors}` answer. */
const FIELD_ERROR = {
  type: 'object',
  required: ['field', 'message'],
  properties: { field: { type: 'string' }, message: { type: 'string' } },
} as const;

/** A line of a new order, as the client sends it. */
const LINE_ITEM = {
  type: 'object',
  properties: {
    product_id: { type: 'integer', minimum: 1, required: true },
    name: { type: 'string', minLength: 1, maxLength: 200, required: true },
    quantity: { type: 'integer', minimum: 1, maximum: 10_000, required: true },
    price: { type: 'number', minimum: 0, required: true },
  },
  additionalProperties: false,
} as const;

/** One line of an order as answers show it: the line sent, with its id and total. */
const ORDER_LINE = {
  type: 'object',
  required: ['id', 'product_id', 'name', 'quantity', 'price', 'total'],
  properties: {
    id: { type: 'integer', readonly: true },
    product_id: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    quantity: { type: 'integer', minimum: 1 },
    price: { type: 'number', minimum: 0 },
    total: { type: 'number', description: 'quantity × price, rounded to cents.', readonly: true },
  },
} as const;

const ORDER_SCHEMA = {
  $schema: JSON_SCHEMA_DRAFT_04,
  title: 'shop_order',
  type: 'object',
  properties: {
    id: { type: 'integer', context: ['view', 'edit'], readonly: true },
    status: { type: 'string', enum: [...ORDER_STATUSES], context: ['view', 'edit'] },
    currency: { type: 'string', context: ['view', 'edit'] },
    customer_id: { type: ['integer', 'null'], context: ['view', 'edit'] },
    customer_note: { type: 'string', context: ['view', 'edit'] },
    line_items: { type: 'array', items: ORDER_LINE, context: ['view', 'edit'] },
    total: { type: 'number', context: ['view', 'edit'], readonly: true },
    date_created: {
      type: 'string',
      format: 'date-time',
      description: 'ISO 8601 with offset.',
      context: ['view', 'edit'],
      readonly: true,
    },
    date_modified: { type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
  },
} as const;

const ID = { type: 'integer', required: true, minimum: 1 } as const;
const STATUS = { type: 'string', enum: ORDER_STATUSES } as const;
const NOT_FOUND = 'No order with that id.';

/**
 * The reference order routes as one plugin, written with `definePlugin` (no casts), all
 * requiring the `edit_shop_orders` capability:
 *
 * | method | path | answers |
 * |---|---|---|
 * | GET | `/orders` | `{success, data: [orders]}` with `X-Total`, `X-Total-Pages`; filter by `status` |
 * | POST | `/orders` | 201 `{success, data: order}`, a new `pending` order from `line_items` |
 * | GET | `/orders/{id}` | `{success, data: order}` or 404 `{success: false, message}` |
 * | PUT, PATCH | `/orders/{id}` | change `status` or `customer_note` |
 * | DELETE | `/orders/{id}` | `{success, message}`: cancels the order; with `force=true` deletes it for good |
 */
export function ordersPlugin(options: OrdersPluginOptions = {}): DefinedPlugin<Record<never, never>> {
  const orders = options.orders ?? new InMemoryOrderRepository();
  const namespace = options.namespace ?? 'acme/v1';
  const kit = itemRoutes({ namespace, restBase: 'orders', schema: ORDER_SCHEMA });
  const permission = requireCapability('edit_shop_orders');

  return definePlugin({
    id: options.id ?? 'orders',
    name: 'Orders',
    version: '1.0.0',
    namespace,
    status: () => ({ order_routes: true }),
    routes(r) {
      r.get(kit.collectionPath, {
        args: { ...kit.collectionParams, status: STATUS, context: kit.contextParam },
        permission,
        docs: kit.answersList({ summary: 'List orders' }),
        handler: (request) => {
          const { page, per_page: perPage, search, status, orderby, order } = request.params;
          const { orders: found, total } = orders.list({ page, perPage, search, status, orderby, order });
          const data = found.map((each) => kit.prepare(each, request));
          return successResponse(data, 200, paginationHeaders(total, perPage));
        },
      });
      r.post(kit.collectionPath, {
        args: {
          line_items: { type: 'array', required: true, minItems: 1, maxItems: 100, items: LINE_ITEM },
          currency: { type: 'string', pattern: '^[A-Z]{3}$', default: 'EUR' },
          customer_id: { type: 'integer', minimum: 1 },
          customer_note: { type: 'string', maxLength: 500 },
        },
        permission,
        docs: kit.answersItem({
          summary: 'Create a pending order',
          status: 201,
          description: 'The new order.',
          invalid: 'A product appears on more than one line.',
          invalidItem: FIELD_ERROR,
        }),
        handler: (request) => {
          const { params } = request;
          const productIds = params.line_items.map((line) => line.product_id);
          const duplicates = productIds.filter((productId, index) => productIds.indexOf(productId) !== index);
          if (duplicates.length > 0) {
            return validationFailedResponse(
              [...new Set(duplicates)].map((productId) => ({
                field: 'line_items',
                message: `Product ${productId} appears on more than one line; combine the quantities.`,
              })),
            );
          }
          const order = orders.create(params);
          return successResponse(kit.prepare(order, request), 201, {
            Location: kit.urlOf(order.id, request),
          });
        },
      });
      r.get(kit.itemPath, {
        args: { id: ID },
        permission,
        docs: kit.answersItem({ summary: 'Get an order', notFound: NOT_FOUND }),
        handler: (request) => {
          const order = orders.get(request.params.id);
          if (!order) return notFoundResponse(`Order ${request.params.id} was not found.`);
          return successResponse(kit.prepare(order, request));
        },
      });
      r.on(['PUT', 'PATCH'], kit.itemPath, {
        args: { id: ID, status: STATUS, customer_note: { type: 'string', maxLength: 500 } },
        permission,
        docs: kit.answersItem({ summary: 'Change the status or note of an order', notFound: NOT_FOUND }),
        handler: (request) => {
          const { id, ...changes } = request.params;
          const order = orders.update(id, changes);
          if (!order) return notFoundResponse(`Order ${id} was not found.`);
          return successResponse(kit.prepare(order, request));
        },
      });
      r.delete(kit.itemPath, {
        args: {
          id: ID,
          force: {
            type: 'boolean',
            default: false,
            description: 'Delete the order for good instead of cancelling it.',
          },
        },
        permission,
        docs: kit.answersMessage({ summary: 'Cancel or delete an order', notFound: NOT_FOUND }),
        handler: (request) => {
          const { id, force } = request.params;
          if (force) {
            if (!orders.delete(id)) return notFoundResponse(`Order ${id} was not found.`);
            return successMessageResponse(`Order ${id} was deleted for good.`);
          }
          if (!orders.update(id, { status: 'cancelled' }))
            return notFoundResponse(`Order ${id} was not found.`);
          return successMessageResponse(`Order ${id} was cancelled; use force=true to delete it for good.`);
        },
      });
    },
  });
}
