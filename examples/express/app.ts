import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toExpressRouter } from 'commerce-plugin-framework/express';
import express from 'express';
import { exampleServer } from '../demo/example-server';

/** A running example. */
export interface RunningExample {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

/**
 * An Express 5 app with the Acme Pay REST API mounted next to its own routes, listening on
 * `host:port` (port 0 picks a free one).
 */
export async function startExpressExample(
  options: { port?: number; host?: string; token?: string } = {},
): Promise<RunningExample> {
  const { server, token } = exampleServer(options.token);
  const app = express();
  app.use(toExpressRouter(server)); // answers /api/… itself; everything else goes on
  app.use(express.json()); // the app's own body parser, for its own routes
  app.get('/', (_req, res) => {
    res.type('text').send('An Express app. The REST API is under /api.');
  });

  const host = options.host ?? '127.0.0.1';
  const listener: Server = await new Promise((resolve, reject) => {
    const started = app.listen(options.port ?? 3000, host, (error?: Error) =>
      error ? reject(error) : resolve(started),
    );
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
