/**
 * `commerce-plugin-framework/hono`: serve a REST server from a Hono app. `hono` is an
 * optional peer dependency, imported only by this entry. No `node:` import: runs on every
 * runtime Hono runs on.
 *
 * @module commerce-plugin-framework/hono
 */

export { toHonoApp } from './to-hono-app';
