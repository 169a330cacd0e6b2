/**
 * `commerce-plugin-framework/node`: serve a REST server with `node:http`.
 *
 * @packageDocumentation
 */

export { type NodeRequestHandler, toNodeHandler } from './to-node-handler';
