/**
 * The configuration file of the `cpf` command line (CONTRACT §14): its default export is
 * `defineCliConfig({ plugins })`. Runtime-agnostic (no `node:` import): the root entry exports it.
 */
import type { Framework_Plugin } from '../rest/plugin';
import type { OptionStore } from '../storage/option-store';

/**
 * What a `cpf.config.ts` (`.mts`, `.js`, `.mjs`) exports by default.
 *
 * @example
 * ```ts
 * // cpf.config.ts
 * import { PGlite } from '@electric-sql/pglite';
 * import { defineCliConfig } from 'commerce-plugin-framework';
 * import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
 * import { ShopPlugin } from './src/shop-plugin';
 *
 * const db = new PGlite('.data/pglite');
 * const store = new PostgresOptionStore({ client: db });
 * export default defineCliConfig({
 *   plugins: [new ShopPlugin(store)],
 *   stores: [store],
 *   close: () => db.close(),
 * });
 * ```
 */
export interface CliConfig {
  /** The host's plugins, each with its settings handler and store, as the application builds them. */
  readonly plugins: readonly Framework_Plugin[];
  /**
   * The stores the plugins' settings use. `cpf` calls `close()` once for each distinct store, on
   * success and on failure, before {@link CliConfig.close}. (The settings API does not give a
   * container's store back, so the config names them.)
   */
  readonly stores?: readonly OptionStore[];
  /** Called last, once, on success and on failure: close here the clients the config created (a pool, a PGlite database). */
  close?(): void | Promise<void>;
}

/**
 * Declares the configuration of the `cpf` command line: returns `config` as it is, typed.
 *
 * @param config - the plugins, their stores, and what to close at the end
 */
export function defineCliConfig<const T extends CliConfig>(config: T): T {
  return config;
}
