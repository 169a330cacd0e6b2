import { fastifyPlugin } from 'commerce-plugin-framework/fastify';
import Fastify from 'fastify';
import { exampleServer } from '../demo/example-server';
import type { RunningExample } from '../express/app';

/**
 * A Fastify 5 app with the Acme Pay REST API registered as a plugin (native routes) next to its
 * own routes, listening on `host:port` (port 0 picks a free one).
 */
export async function startFastifyExample(
  options: { port?: number; host?: string; token?: string } = {},
): Promise<RunningExample> {
  const { server, token } = exampleServer(options.token);
  const app = Fastify({ forceCloseConnections: true });
  await app.register(fastifyPlugin(server));
  app.get('/', async () => 'A Fastify app. The REST API is under /api.');

  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 3000, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://${host}:${port}`, token, close: () => app.close() };
}
