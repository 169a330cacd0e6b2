import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { SettingsOptions } from '../../settings/abstract-settings';
import { DeclaredSettings, type SettingsDeclaration } from '../../settings/typed-settings';
import type { OptionStore } from '../../storage/option-store';
import { Framework_Plugin } from '../plugin';
import type { RouteRegistry } from '../registry/route-registry';
import { Framework_REST_API } from '../rest-api';
import { RouteBuilder } from './route-builder';

/** The settings of a defined plugin: typed per its declaration, or `null` without one. */
export type DefinedSettings<S extends SettingsDeclaration> = keyof S extends never
  ? null
  : DeclaredSettings<S>;

/** What a defined plugin's `routes` and `status` receive. */
export interface DefinedPluginContext<S extends SettingsDeclaration> {
  /** The plugin. */
  readonly plugin: DefinedPlugin<S>;
  /** Its settings (typed per the declaration), or `null` without settings. */
  readonly settings: DefinedSettings<S>;
}

/** Everything {@link definePlugin} needs. */
export interface PluginDefinition<S extends SettingsDeclaration> {
  /** The plugin's id: `[A-Za-z0-9_-]+`, the `{pluginId}` of its settings routes. */
  readonly id: string;
  /** Its display name. */
  readonly name: string;
  /** Its version. */
  readonly version: string;
  /** Whether it is a payment gateway (reported in the system status). */
  readonly isPaymentGateway?: boolean;
  /** Its settings, declared as for `defineSettings` (types, defaults, options, controls…). */
  readonly settings?: S;
  /** Where the settings live (required with `settings`). */
  readonly store?: OptionStore;
  /** Options of the settings container (`secrets`, `historyLimit`…). */
  readonly settingsOptions?: SettingsOptions;
  /** The namespace of its own routes, `<slug>/v<N>` (required with `routes`). */
  readonly namespace?: string;
  /** Registers its own routes with typed handlers; the settings routes come by themselves. */
  routes?(routes: RouteBuilder, context: DefinedPluginContext<S>): void;
  /** Its own members of the system-status report (secret-looking keys are masked). */
  status?(context: DefinedPluginContext<S>): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** A plugin made by {@link definePlugin}: a `Framework_Plugin` whose settings are typed per its declaration. */
export class DefinedPlugin<S extends SettingsDeclaration> extends Framework_Plugin {
  /** The plugin's settings, typed per its declaration (`null` without settings). */
  readonly settings: DefinedSettings<S>;
  readonly #definition: PluginDefinition<S>;

  /** @param definition - see {@link definePlugin} */
  constructor(definition: PluginDefinition<S>) {
    super({
      id: definition.id,
      name: definition.name,
      version: definition.version,
      isPaymentGateway: definition.isPaymentGateway,
    });
    this.#definition = definition;
    const declaration = definition.settings;
    if (declaration !== undefined && Object.keys(declaration).length > 0) {
      if (definition.store === undefined) {
        throw new Framework_Plugin_Exception(`definePlugin "${definition.id}": settings need a store`, 400);
      }
      this.settings = new DeclaredSettings(
        declaration,
        definition.id,
        definition.store,
        definition.settingsOptions,
      ) as DefinedSettings<S>;
    } else {
      this.settings = null as DefinedSettings<S>;
    }
    if (definition.routes !== undefined && definition.namespace === undefined) {
      throw new Framework_Plugin_Exception(
        `definePlugin "${definition.id}": routes need a namespace, e.g. "acme/v1"`,
        400,
      );
    }
  }

  override getSettingsHandler(): DefinedSettings<S> {
    return this.settings;
  }

  protected override initRestApiHandler(): void {
    const definition = this.#definition;
    const context: DefinedPluginContext<S> = { plugin: this, settings: this.settings };
    this.restApiHandler = new (class extends Framework_REST_API {
      override registerRoutes(routes: RouteRegistry): void {
        super.registerRoutes(routes);
        if (definition.routes !== undefined)
          definition.routes(new RouteBuilder(routes, definition.namespace!), context);
      }
      override getSystemStatusData(): Record<string, unknown> | Promise<Record<string, unknown>> {
        return definition.status?.(context) ?? {};
      }
    })(this);
  }
}

/**
 * A plugin in one declaration: its identity, its settings (typed, as `defineSettings` types
 * them) and its own routes with typed handlers — the functional front door over
 * `Framework_Plugin`, `Framework_REST_API` and the route registry, which it builds for you.
 *
 * @example
 * ```ts
 * export const gateway = definePlugin({
 *   id: 'acme', name: 'Acme Pay', version: '1.0.0', isPaymentGateway: true,
 *   settings: { mode: { type: 'string', options: ['live', 'test'], default: 'test' } },
 *   store,
 *   namespace: 'acme/v1',
 *   routes(r, { settings }) {
 *     r.get('/mode', { permission: allowPublic(), handler: async () => ({ mode: await settings.getValue('mode') }) });
 *   },
 * });
 * ```
 */
export function definePlugin<const S extends SettingsDeclaration = Record<never, never>>(
  definition: PluginDefinition<S>,
): DefinedPlugin<S> {
  return new DefinedPlugin(definition);
}
