import {
  type ArgSchema,
  Framework_REST_Controller,
  JSON_SCHEMA_DRAFT_04,
  notFoundResponse,
  paginationHeaders,
  type RestRequest,
  type RestResponse,
  type RouteRegistry,
  requireCapability,
  successResponse,
  validationFailedResponse,
} from 'commerce-plugin-framework';
import {
  type InMemoryOrderRepository,
  type NewOrder,
  ORDER_STATUSES,
  type OrderQuery,
  type OrderStatus,
} from './order-repository';

const LINE_ITEM: ArgSchema = {
  type: 'object',
  properties: {
    product_id: { type: 'integer', minimum: 1, required: true },
    name: { type: 'string', minLength: 1, maxLength: 200, required: true },
    quantity: { type: 'integer', minimum: 1, maximum: 10_000, required: true },
    price: { type: 'number', minimum: 0, required: true },
  },
  additionalProperties: false,
};

/**
 * The reference order routes, under `/{namespace}/orders`, all requiring the
 * `edit_shop_orders` capability:
 *
 * | method | path | answers |
 * |---|---|---|
 * | GET | `/orders` | `{success, data: [orders]}` with `X-Total`, `X-Total-Pages`; filter by `status` |
 * | POST | `/orders` | 201 `{success, data: order}`, a new `pending` order from `line_items` |
 * | GET | `/orders/{id}` | `{success, data: order}` or 404 `{success: false, message}` |
 * | PUT, PATCH | `/orders/{id}` | change `status` or `customer_note` |
 */
export class OrdersController extends Framework_REST_Controller {
  readonly #orders: InMemoryOrderRepository;

  /**
   * @param orders - where the orders live
   * @param namespace - the routes' namespace (default `acme/v1`)
   */
  constructor(orders: InMemoryOrderRepository, namespace = 'acme/v1') {
    super(namespace, 'orders');
    this.#orders = orders;
  }

  override getItemSchema(): object {
    return {
      $schema: JSON_SCHEMA_DRAFT_04,
      title: 'shop_order',
      type: 'object',
      properties: {
        id: { type: 'integer', context: ['view', 'edit'], readonly: true },
        status: { type: 'string', enum: [...ORDER_STATUSES], context: ['view', 'edit'] },
        currency: { type: 'string', context: ['view', 'edit'] },
        customer_id: { type: ['integer', 'null'], context: ['view', 'edit'] },
        customer_note: { type: 'string', context: ['view', 'edit'] },
        line_items: { type: 'array', items: LINE_ITEM, context: ['view', 'edit'] },
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
    };
  }

  registerRoutes(routes: RouteRegistry): void {
    const permission = requireCapability('edit_shop_orders');
    const id: ArgSchema = { type: 'integer', required: true, minimum: 1 };
    const status: ArgSchema = { type: 'string', enum: ORDER_STATUSES };
    routes.register(this.namespace, `/${this.restBase}`, [
      {
        methods: 'GET',
        permission,
        args: { ...this.getCollectionParams(), status, context: this.getContextParam() },
        handler: (request) => this.#list(request),
      },
      {
        methods: 'POST',
        permission,
        args: {
          line_items: { type: 'array', required: true, minItems: 1, maxItems: 100, items: LINE_ITEM },
          currency: { type: 'string', pattern: '^[A-Z]{3}$', default: 'EUR' },
          customer_id: { type: 'integer', minimum: 1 },
          customer_note: { type: 'string', maxLength: 500 },
        },
        handler: (request) => this.#create(request),
      },
    ]);
    routes.register(this.namespace, `/${this.restBase}/{id}`, [
      { methods: 'GET', permission, args: { id }, handler: (request) => this.#get(request) },
      {
        methods: ['PUT', 'PATCH'],
        permission,
        args: { id, status, customer_note: { type: 'string', maxLength: 500 } },
        handler: (request) => this.#update(request),
      },
    ]);
  }

  #list(request: RestRequest): RestResponse {
    const query: OrderQuery = {
      page: request.get('page') as number,
      perPage: request.get('per_page') as number,
      search: request.get('search') as string | undefined,
      status: request.get('status') as OrderStatus | undefined,
      orderby: request.get('orderby') as OrderQuery['orderby'],
      order: request.get('order') as OrderQuery['order'],
    };
    const { orders, total } = this.#orders.list(query);
    return successResponse(
      orders.map((order) => this.prepareItemForResponse({ ...order }, request)),
      200,
      paginationHeaders(total, query.perPage),
    );
  }

  #create(request: RestRequest): RestResponse {
    const lineItems = request.get('line_items') as NewOrder['line_items'];
    const productIds = lineItems.map((line) => line.product_id);
    const duplicates = productIds.filter((productId, index) => productIds.indexOf(productId) !== index);
    if (duplicates.length > 0) {
      return validationFailedResponse(
        [...new Set(duplicates)].map((productId) => ({
          field: 'line_items',
          message: `Product ${productId} appears on more than one line; combine the quantities.`,
        })),
      );
    }
    const order = this.#orders.create({
      line_items: lineItems,
      currency: request.get('currency') as string,
      customer_id: request.get('customer_id') as number | undefined,
      customer_note: request.get('customer_note') as string | undefined,
    });
    return successResponse(this.prepareItemForResponse({ ...order }, request), 201);
  }

  #get(request: RestRequest): RestResponse {
    const order = this.#orders.get(request.get('id') as number);
    if (!order) return notFoundResponse(`Order ${request.get('id')} was not found.`);
    return successResponse(this.prepareItemForResponse({ ...order }, request));
  }

  #update(request: RestRequest): RestResponse {
    const order = this.#orders.update(request.get('id') as number, {
      status: request.get('status') as OrderStatus | undefined,
      customer_note: request.get('customer_note') as string | undefined,
    });
    if (!order) return notFoundResponse(`Order ${request.get('id')} was not found.`);
    return successResponse(this.prepareItemForResponse({ ...order }, request));
  }
}
