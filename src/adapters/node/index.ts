/**
 * `commerce-plugin-framework/node`: serve a REST server with `node:http`.
 *
 * @module commerce-plugin-framework/node
 */

export { type NodeRequestHandler, toNodeHandler } from './to-node-handler';
