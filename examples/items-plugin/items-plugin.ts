import { Framework_Plugin, Framework_REST_API, type RouteRegistry } from 'commerce-plugin-framework';
import { InMemoryItemRepository } from './item-repository';
import { ItemsController } from './items-controller';

/** Options of the {@link ItemsPlugin}. */
export interface ItemsPluginOptions {
  /** Where the items live (default: a new in-memory repository). */
  items?: InMemoryItemRepository;
  /** The plugin id (default `items`). */
  id?: string;
  /** The routes' namespace (default `acme/v1`). */
  namespace?: string;
}

/** The items plugin's REST API: the settings routes (none here) plus the item routes. */
export class ItemsRestApi extends Framework_REST_API {
  readonly #controller: ItemsController;

  constructor(plugin: ItemsPlugin, controller: ItemsController) {
    super(plugin);
    this.#controller = controller;
  }

  override registerRoutes(routes: RouteRegistry): void {
    super.registerRoutes(routes);
    this.#controller.registerRoutes(routes);
  }
}

/** A plugin that serves the reference item routes. */
export class ItemsPlugin extends Framework_Plugin {
  /** The plugin's items. */
  readonly items: InMemoryItemRepository;
  readonly #namespace: string;

  constructor(options: ItemsPluginOptions = {}) {
    super({ id: options.id ?? 'items', name: 'Items', version: '1.0.0' });
    this.items = options.items ?? new InMemoryItemRepository();
    this.#namespace = options.namespace ?? 'acme/v1';
  }

  protected override initRestApiHandler(): void {
    this.restApiHandler = new ItemsRestApi(this, new ItemsController(this.items, this.#namespace));
  }
}
