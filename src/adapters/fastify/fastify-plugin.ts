import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RestServer } from '../../rest/server';
import { MountScope } from '../mount-scope';
import { type BodySource, NO_BODY, NodeExchange } from '../node/node-exchange';
import { fastifyRoutePaths } from './fastify-paths';
import { sendResult } from './send-result';

function isReadable(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function';
}

/**
 * The body the pipeline reads: the stream the scope's pass-through parser handed on (after the
 * app's `preParsing` hooks, e.g. a decompressor), or none when Fastify saw no body.
 */
function bodySource(request: FastifyRequest): BodySource {
  return isReadable(request.body) ? { kind: 'stream', stream: request.body } : NO_BODY;
}

/**
 * A Fastify 5 plugin serving a REST server: `app.register(fastifyPlugin(server))`.
 *
 * It registers native Fastify routes from `server.getRoutes()` (`{param}` becomes `:param`),
 * each for every method so 405 + `Allow`, HEAD and OPTIONS are answered as `server.fetch`
 * answers them; the namespace and root indexes; a catch-all under `restRoot` (so unknown paths
 * get the REST 404); and, when the server has admin pages, a catch-all under its
 * `adminPathPrefix` (`/admin/*`: the built-in pages and the host's own), where a path no page
 * answers goes to the app's not-found handler. The app's own static or parametric routes under
 * `/admin/` (`/admin/dashboard`) win over that catch-all, as find-my-way prefers them. Each route runs the one
 * REST pipeline and sends exactly its status, headers and JSON body.
 *
 * Bodies are not parsed by Fastify: inside the plugin's (encapsulated) scope, every content
 * type goes to a pass-through parser and the pipeline streams the body itself, with its own
 * `maxBodyBytes`, 413/415/400 answers included. The app's parsers and `bodyLimit` still apply
 * to its other routes.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { fastifyPlugin } from 'commerce-plugin-framework/fastify';
 *
 * const app = Fastify();
 * await app.register(fastifyPlugin(server));
 * await app.listen({ port: 3000 });
 * ```
 */
export function fastifyPlugin(server: RestServer): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    // Registered under a prefix (`app.register(plugin, { prefix })`), the routes sit below it;
    // the server sees paths without it.
    const prefix = app.prefix;
    const answer = async (
      request: FastifyRequest,
      reply: FastifyReply,
      notFound: 'answer' | 'pass',
    ): Promise<FastifyReply> => {
      const rawTarget = prefix === '' ? request.url : request.url.slice(prefix.length) || '/';
      const exchange = new NodeExchange(request.raw, rawTarget, bodySource(request), () => request.protocol);
      const result = await server.handleExchange(exchange);
      if (notFound === 'pass' && MountScope.isNotFound(result) && !exchange.bodyTouched) {
        // No admin page has this path: the app's own not-found handling answers, as in Express and Hono.
        if (result.kind === 'response') await result.response.body?.cancel();
        reply.callNotFound();
        return reply;
      }
      return sendResult(reply, result, exchange.method === 'HEAD', exchange.leftBodyUnread());
    };

    const methods = app.supportedMethods;
    const route = (url: string, notFound: 'answer' | 'pass'): void => {
      app.route({
        method: methods,
        url,
        exposeHeadRoute: false,
        handler: (request, reply) => answer(request, reply, notFound),
      });
    };
    const { restRoot } = server.info;
    for (const path of fastifyRoutePaths(server.getRoutes(), restRoot)) route(path, 'answer');
    route(`${restRoot}/*`, 'answer');
    // Every path under the admin prefix: the built-in pages and the host's own `AdminPage`s.
    if (server.adminPathPrefix !== null) route(`${server.adminPathPrefix}*`, 'pass');
  };
}
