/**
 * `commerce-plugin-framework/express`: serve a REST server from an Express 5 app.
 * `express` is an optional peer dependency, imported only by this entry.
 *
 * @module commerce-plugin-framework/express
 */

export { toExpressRouter } from './to-express-router';
