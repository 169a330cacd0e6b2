import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toHonoApp } from 'commerce-plugin-framework/hono';
import { Hono } from 'hono';
import { exampleServer } from '../demo/example-server';
import type { RunningExample } from '../express/app';
import { nodeListener } from './node-listener';

/** A Hono app with the Acme Pay REST API mounted next to its own routes. */
export function exampleHonoApp(token?: string): { app: Hono; token: string } {
  const { server, token: used } = exampleServer(token);
  const app = new Hono();
  app.route('/', toHonoApp(server)); // answers /api/… itself; everything else goes on
  app.get('/', (c) => c.text('A Hono app. The REST API is under /api.'));
  return { app, token: used };
}

/** The Hono example served with `node:http`, listening on `host:port` (port 0 picks a free one). */
export async function startHonoExample(
  options: { port?: number; host?: string; token?: string } = {},
): Promise<RunningExample> {
  const { app, token } = exampleHonoApp(options.token);
  const listener = createServer(nodeListener(app.fetch));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 3000, host, () => resolve());
  });
  const { port } = listener.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      }),
  };
}
