import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RestServer } from '../../rest/server';
import { NodeExchange, requestBodySource } from './node-exchange';
import { serveExchange } from './serve-exchange';

/** A `node:http` request listener. */
export type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Serves a REST server over `node:http` (or `node:https`, `http2` in compatibility mode):
 * every request goes through the server's one pipeline, without building a Fetch `Request`
 * or `Response` on the way, and gets exactly the status, headers and JSON body
 * `server.fetch` gives the same request. Bodies are streamed and counted against
 * `maxBodyBytes` while they arrive; past it, reading stops, the answer is 413 and the
 * connection closes after it.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createRestServer } from 'commerce-plugin-framework';
 * import { toNodeHandler } from 'commerce-plugin-framework/node';
 *
 * const server = createRestServer({ plugins: [new GatewayPlugin()] });
 * createServer(toNodeHandler(server)).listen(3000);
 * ```
 */
export function toNodeHandler(server: RestServer): NodeRequestHandler {
  return (req, res) => {
    void serveExchange(server, new NodeExchange(req, req.url ?? '/', requestBodySource(req)), res);
  };
}
