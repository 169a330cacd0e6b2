/**
 * A child process serving GET of one setting over HTTP on 127.0.0.1, for the HTTP scenarios.
 * `serve.ts <kind>`: `node-adapter` (the library through `toNodeHandler`), `node-bare` (a
 * hand-written node:http handler), `fastify-adapter` (the library through `fastifyPlugin`),
 * `fastify-native` (the same routes written in Fastify). Tells the parent its port over IPC
 * (`{ port }`), answers `usage` with its CPU time and request count so far, and exits when
 * the parent says `stop` or goes away.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { BenchSettings } from '../fixtures/bench-settings';
import {
  bareNodeListener,
  fastifyAdapterApp,
  fastifyNativeApp,
  nodeAdapterListener,
} from '../fixtures/http-apps';
import { SERVER_KINDS, type ServerKind } from './server-kinds';
import { loadedSettings } from './settings-service';

/** A started server: its port, and how to stop it. */
interface Listening {
  readonly port: number;
  /** The underlying node:http server (its `request` events are counted). */
  readonly server: Server;
  close(): Promise<void>;
}

function listenNode(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        server,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

async function listenFastify(app: FastifyInstance): Promise<Listening> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, server: app.server, close: () => app.close() };
}

const STARTERS: Readonly<Record<ServerKind, (settings: BenchSettings) => Promise<Listening>>> = {
  'node-adapter': (settings) => listenNode(nodeAdapterListener(settings)),
  'node-bare': (settings) => listenNode(bareNodeListener(settings)),
  'fastify-adapter': async (settings) => listenFastify(await fastifyAdapterApp(settings)),
  'fastify-native': async (settings) => listenFastify(await fastifyNativeApp(settings)),
};

async function main(): Promise<void> {
  const kind = process.argv[2] as ServerKind;
  const start = STARTERS[kind];
  if (start === undefined)
    throw new Error(`serve.ts: unknown server kind ${kind}; use ${SERVER_KINDS.join(', ')}`);
  if (process.send === undefined) throw new Error('serve.ts runs as a child process with an IPC channel');
  const listening = await start(await loadedSettings());
  let requests = 0;
  listening.server.on('request', () => {
    requests++;
  });
  process.on('message', (message) => {
    if (message === 'stop') void listening.close().then(() => process.exit(0));
    if (message === 'usage') {
      const { user, system } = process.cpuUsage();
      process.send?.({ usage: { cpuMicros: user + system, requests } });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ port: listening.port });
}

await main();
