/**
 * `npm start`: runs the demo until Ctrl+C (SIGINT) or SIGTERM, then closes the server and the
 * store and exits with code 0. Configuration comes from the environment; see docs/demo.md.
 */
import { banner } from './banner';
import { portFromEnv, runUntilSignal } from './run-until-signal';
import { type RunningDemo, startDemo } from './start-demo';

const env = process.env;
let demo: RunningDemo;
try {
  demo = await startDemo({
    port: portFromEnv(env.PORT),
    host: env.HOST || '127.0.0.1',
    token: env.DEMO_TOKEN || undefined,
    csrfSecret: env.DEMO_CSRF_SECRET || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    dataDir: env.DEMO_DATA_DIR || undefined,
    table: env.DEMO_TABLE || undefined,
    keyPrefix: env.DEMO_KEY_PREFIX || undefined,
    settingsKey: env.SETTINGS_KEY || undefined,
  });
} catch (error) {
  console.error('The demo could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
}
console.log(banner(demo, Boolean(env.DEMO_TOKEN)));
runUntilSignal(() => demo.close());
