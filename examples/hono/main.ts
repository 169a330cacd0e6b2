/** `npx tsx examples/hono/main.ts`: the Acme Pay REST API in a Hono app on Node (PORT, HOST, DEMO_TOKEN). */
import { exampleBanner } from '../demo/example-server';
import { portFromEnv, runUntilSignal } from '../demo/run-until-signal';
import { startHonoExample } from './app';

const example = await startHonoExample({
  port: portFromEnv(process.env.PORT),
  host: process.env.HOST || '127.0.0.1',
  token: process.env.DEMO_TOKEN || undefined,
});
console.log(exampleBanner('Hono', example.url, example.token));
runUntilSignal(() => example.close());
