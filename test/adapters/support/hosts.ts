import { createServer } from 'node:http';
import type { RestServer } from 'commerce-plugin-framework';
import { toExpressRouter } from 'commerce-plugin-framework/express';
import { fastifyPlugin } from 'commerce-plugin-framework/fastify';
import { toHonoApp } from 'commerce-plugin-framework/hono';
import { toNodeHandler } from 'commerce-plugin-framework/node';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { nodeListener } from '../../../examples/hono/node-listener';
import { listenOn } from './listen';
import type { Listening } from './parity-suite';

/** A REST server served over HTTP on 127.0.0.1 by one adapter, in the plainest host app. */
export type AdapterHost = (server: RestServer) => Promise<Listening>;

/** The four adapters, each in a minimal host: for behaviour every adapter must share. */
export const ADAPTER_HOSTS: Readonly<Record<'node' | 'express' | 'fastify' | 'hono', AdapterHost>> = {
  node: (server) => listenOn(createServer(toNodeHandler(server))),
  express: (server) => {
    const app = express();
    app.use(toExpressRouter(server));
    return listenOn(createServer(app));
  },
  fastify: async (server) => {
    const app = Fastify({ forceCloseConnections: true });
    await app.register(fastifyPlugin(server));
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    return { origin, close: () => app.close() };
  },
  hono: (server) => {
    const app = new Hono();
    app.route('/', toHonoApp(server));
    return listenOn(createServer(nodeListener(app.fetch)));
  },
};
