import type { Framework_Plugin } from './plugin';
import type { RouteRegistry } from './registry/route-registry';
import { Framework_REST_API_Settings } from './settings-routes/settings-controller';

/**
 * A plugin's REST API: registers its routes and contributes to the system-status report.
 * The base class registers the settings routes when the plugin has a settings handler;
 * subclasses that add routes override {@link registerRoutes} and call `super.registerRoutes`
 * first.
 *
 * @example
 * ```ts
 * class AcmeRestApi extends Framework_REST_API {
 *   override registerRoutes(routes: RouteRegistry): void {
 *     super.registerRoutes(routes);
 *     new ItemsController('acme/v1', 'items').registerRoutes(routes);
 *   }
 * }
 * ```
 */
export class Framework_REST_API {
  readonly #plugin: Framework_Plugin;

  /** @param plugin - the plugin this API belongs to */
  constructor(plugin: Framework_Plugin) {
    this.#plugin = plugin;
  }

  /** The plugin this API belongs to. */
  getPlugin(): Framework_Plugin {
    return this.#plugin;
  }

  /** Registers the plugin's routes: the settings routes when the plugin has a settings handler. */
  registerRoutes(routes: RouteRegistry): void {
    const settings = this.#plugin.getSettingsHandler();
    if (settings !== null) new Framework_REST_API_Settings(settings).registerRoutes(routes);
  }

  /** Extra members of the plugin's system-status entry (after `is_payment_gateway` and `settings`); `{}` by default. */
  getSystemStatusData(): Record<string, unknown> | Promise<Record<string, unknown>> {
    return {};
  }
}
