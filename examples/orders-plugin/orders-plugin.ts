import { Framework_Plugin, Framework_REST_API, type RouteRegistry } from 'commerce-plugin-framework';
import { InMemoryOrderRepository } from './order-repository';
import { OrdersController } from './orders-controller';

/** Options of the {@link OrdersPlugin}. */
export interface OrdersPluginOptions {
  /** Where the orders live (default: a new in-memory repository). */
  orders?: InMemoryOrderRepository;
  /** The plugin id (default `orders`). */
  id?: string;
  /** The routes' namespace (default `acme/v1`). */
  namespace?: string;
}

/** The orders plugin's REST API: the settings routes (none here) plus the order routes. */
export class OrdersRestApi extends Framework_REST_API {
  readonly #controller: OrdersController;

  constructor(plugin: OrdersPlugin, controller: OrdersController) {
    super(plugin);
    this.#controller = controller;
  }

  override registerRoutes(routes: RouteRegistry): void {
    super.registerRoutes(routes);
    this.#controller.registerRoutes(routes);
  }

  override getSystemStatusData(): Record<string, unknown> {
    return { order_routes: true };
  }
}

/** A plugin that serves the reference order routes. */
export class OrdersPlugin extends Framework_Plugin {
  /** The plugin's orders. */
  readonly orders: InMemoryOrderRepository;
  readonly #namespace: string;

  constructor(options: OrdersPluginOptions = {}) {
    super({ id: options.id ?? 'orders', name: 'Orders', version: '1.0.0' });
    this.orders = options.orders ?? new InMemoryOrderRepository();
    this.#namespace = options.namespace ?? 'acme/v1';
  }

  protected override initRestApiHandler(): void {
    this.restApiHandler = new OrdersRestApi(this, new OrdersController(this.orders, this.#namespace));
  }
}
