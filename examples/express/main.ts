/** `npx tsx examples/express/main.ts`: the Acme Pay REST API in an Express 5 app (PORT, HOST, DEMO_TOKEN). */
import { exampleBanner } from '../demo/example-server';
import { portFromEnv, runUntilSignal } from '../demo/run-until-signal';
import { startExpressExample } from './app';

const example = await startExpressExample({
  port: portFromEnv(process.env.PORT),
  host: process.env.HOST || '127.0.0.1',
  token: process.env.DEMO_TOKEN || undefined,
});
console.log(exampleBanner('Express', example.url, example.token));
runUntilSignal(() => example.close());
