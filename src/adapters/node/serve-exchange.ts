import type { ServerResponse } from 'node:http';
import type { RestResult } from '../../rest/http/rest-result';
import type { RestServer } from '../../rest/server';
import type { NodeExchange } from './node-exchange';
import { writeInternalError, writeResult } from './write-result';

/**
 * Answers one exchange through the server's pipeline and writes the result to `res`. Never
 * rejects: a failure to write ends the response (a 500 when nothing was sent yet).
 */
export function serveExchange(
  server: RestServer,
  exchange: NodeExchange,
  res: ServerResponse,
): Promise<void> {
  return server
    .handleExchange(exchange)
    .then((result: RestResult) =>
      writeResult(res, result, exchange.method === 'HEAD', exchange.leftBodyUnread()),
    )
    .catch(() => writeInternalError(res));
}
