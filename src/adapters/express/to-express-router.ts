import type { IncomingMessage } from 'node:http';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { RestServer } from '../../rest/server';
import { MountScope } from '../mount-scope';
import { NodeExchange, requestBodySource } from '../node/node-exchange';
import { readRequestTarget } from '../node/request-target';
import { serveExchange } from '../node/serve-exchange';
import { writeResult } from '../node/write-result';
import { bodyAlreadyRead, hostParsedBody, type ParsedIncomingMessage } from './host-parsed-body';

function bodySource(req: IncomingMessage) {
  if (req.method === 'GET' || req.method === 'HEAD') return requestBodySource(req);
  return bodyAlreadyRead(req) ? hostParsedBody(req as ParsedIncomingMessage) : requestBodySource(req);
}

/**
 * An Express 5 router serving a REST server: mount it with `app.use(router)`. It answers
 * every request under the server's `restRoot` (404, 405… included) exactly as `server.fetch`
 * would, and the admin pages when the server has them; every other request goes on to the
 * app's next handlers.
 *
 * Bodies: mounted before any body parser (recommended), the router streams and counts the
 * body itself. After `express.json()` it takes the parsed `req.body` (serialised again, not
 * parsed twice) — but errors that `express.json()` raises itself (invalid JSON, over its own
 * `limit`, a charset other than UTF-8) reach the app's error handler, not the router.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { toExpressRouter } from 'commerce-plugin-framework/express';
 *
 * const app = express();
 * app.use(toExpressRouter(server)); // before express.json()
 * app.use(express.json());
 * app.listen(3000);
 * ```
 */
export function toExpressRouter(server: RestServer): Router {
  const router = Router();
  const scope = new MountScope(server.info.restRoot, server.adminPathPrefix);
  router.use((req: Request, res: Response, next: NextFunction) => {
    const claim = scope.claim(readRequestTarget(req.url, () => 'http://localhost').pathname);
    if (claim === 'pass') {
      next();
      return;
    }
    const exchange = new NodeExchange(req, req.url, bodySource(req), () => req.protocol);
    if (claim === 'own') {
      void serveExchange(server, exchange, res);
      return;
    }
    // An admin-page path: answered unless the server has no such page and nothing was read.
    server.handleExchange(exchange).then(
      (result) => {
        if (MountScope.isNotFound(result) && !exchange.bodyTouched) next();
        else
          void writeResult(res, result, exchange.method === 'HEAD', exchange.leftBodyUnread())?.catch(next);
      },
      (error: unknown) => next(error),
    );
  });
  return router;
}
