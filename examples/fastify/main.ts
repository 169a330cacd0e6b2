/** `npx tsx examples/fastify/main.ts`: the Acme Pay REST API in a Fastify 5 app (PORT, HOST, DEMO_TOKEN). */
import { exampleBanner } from '../demo/example-server';
import { portFromEnv, runUntilSignal } from '../demo/run-until-signal';
import { startFastifyExample } from './app';

const example = await startFastifyExample({
  port: portFromEnv(process.env.PORT),
  host: process.env.HOST || '127.0.0.1',
  token: process.env.DEMO_TOKEN || undefined,
});
console.log(exampleBanner('Fastify', example.url, example.token));
runUntilSignal(() => example.close());
