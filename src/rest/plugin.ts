import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import { Framework_REST_API } from './rest-api';

/** Options of the {@link Framework_Plugin} constructor. */
export interface PluginOptions {
  /** The plugin's id: `[A-Za-z0-9_-]+`, the `{pluginId}` of its settings routes and its status key. */
  id: string;
  /** The plugin's display name. */
  name: string;
  /** The plugin's version. */
  version: string;
  /** Whether the plugin is a payment gateway (reported in the system status). */
  isPaymentGateway?: boolean;
}

const PLUGIN_ID = /^[A-Za-z0-9_-]+$/;

/**
 * A commerce plugin: its identity, its settings handler and its REST API handler.
 *
 * Subclasses override {@link getSettingsHandler} to expose their settings (one cached
 * instance) and {@link initRestApiHandler} to use their own {@link Framework_REST_API}
 * subclass with extra routes.
 *
 * @example
 * ```ts
 * class GatewayPlugin extends Framework_Plugin {
 *   readonly #settings = new GatewaySettings('acme', store);
 *   constructor() { super({ id: 'acme', name: 'Acme Payments', version: '1.0.0', isPaymentGateway: true }); }
 *   override getSettingsHandler() { return this.#settings; }
 * }
 * ```
 */
export abstract class Framework_Plugin {
  /** The REST API handler, assigned by {@link initRestApiHandler} (run by {@link getRestApiHandler}). */
  restApiHandler: Framework_REST_API | null = null;
  readonly #id: string;
  readonly #name: string;
  readonly #version: string;
  readonly #isPaymentGateway: boolean;
  #restApiInitialised = false;

  /**
   * @param options - id, name, version and whether the plugin is a payment gateway
   * @throws {@link Framework_Plugin_Exception} (400) for an id outside `[A-Za-z0-9_-]+`
   */
  constructor(options: PluginOptions) {
    const { id, name, version } = options ?? ({} as PluginOptions);
    if (typeof id !== 'string' || !PLUGIN_ID.test(id)) {
      throw new Framework_Plugin_Exception(
        `Invalid plugin id ${JSON.stringify(id)}: use one or more of A-Z, a-z, 0-9, "_" and "-"`,
        400,
      );
    }
    this.#id = id;
    this.#name = typeof name === 'string' ? name : id;
    this.#version = typeof version === 'string' ? version : '';
    this.#isPaymentGateway = options.isPaymentGateway === true;
  }

  /** The plugin's id. */
  getId(): string {
    return this.#id;
  }
  /** The plugin's display name. */
  getName(): string {
    return this.#name;
  }
  /** The plugin's version. */
  getVersion(): string {
    return this.#version;
  }
  /** Whether the plugin is a payment gateway. */
  isPaymentGateway(): boolean {
    return this.#isPaymentGateway;
  }

  /** Creates the REST API handler; override to assign a subclass of {@link Framework_REST_API}. */
  protected initRestApiHandler(): void {
    this.restApiHandler = new Framework_REST_API(this);
  }

  /**
   * The REST API handler. The first call runs {@link initRestApiHandler}; later calls return
   * the same handler.
   *
   * @throws {@link Framework_Plugin_Exception} when `initRestApiHandler` assigned no handler
   */
  getRestApiHandler(): Framework_REST_API {
    if (!this.#restApiInitialised) {
      this.#restApiInitialised = true;
      this.initRestApiHandler();
    }
    if (this.restApiHandler === null) {
      throw new Framework_Plugin_Exception(
        `Plugin "${this.#id}": initRestApiHandler did not assign restApiHandler`,
        500,
      );
    }
    return this.restApiHandler;
  }

  /** The plugin's settings, or `null` (the default) when it has none. Return one cached instance. */
  getSettingsHandler(): Framework_Abstract_Settings | null {
    return null;
  }
}
