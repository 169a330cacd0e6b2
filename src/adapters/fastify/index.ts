/**
 * `commerce-plugin-framework/fastify`: serve a REST server from a Fastify 5 app. `fastify` is
 * an optional peer dependency; this entry imports only its types.
 *
 * @module commerce-plugin-framework/fastify
 */

export { fastifyPlugin } from './fastify-plugin';
