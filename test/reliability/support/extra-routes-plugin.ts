import { Framework_Plugin, type PluginOptions, type RouteRegistry } from 'commerce-plugin-framework';

/**
 * A plugin without settings whose REST API registers, after the framework's own routes, the
 * routes `addRoutes` adds: the reliability tests' way to put a route of their own behind the
 * real pipeline.
 */
export class ExtraRoutesPlugin extends Framework_Plugin {
  readonly #addRoutes: (routes: RouteRegistry) => void;

  /**
   * @param options - the plugin's id, name and version
   * @param addRoutes - registers the extra routes
   */
  constructor(options: PluginOptions, addRoutes: (routes: RouteRegistry) => void) {
    super(options);
    this.#addRoutes = addRoutes;
  }

  protected override initRestApiHandler(): void {
    super.initRestApiHandler();
    const handler = this.restApiHandler!;
    const register = handler.registerRoutes.bind(handler);
    handler.registerRoutes = (routes: RouteRegistry) => {
      register(routes);
      this.#addRoutes(routes);
    };
  }
}
