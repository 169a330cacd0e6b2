import { type CliConfig, defineCliConfig } from 'commerce-plugin-framework';
import { itemsPlugin } from '../items-plugin/index';
import { ordersPlugin } from '../orders-plugin/index';
import { type DemoStoreOptions, openDemoStore, settingsKeyFile } from './demo-store';
import { AcmePayGateway } from './gateway-plugin';
import { demoSettingsKey } from './settings-key';

/**
 * The demo's plugins for the `cpf` command line, on the store `npm start` uses — chosen by the
 * same variables (`DATABASE_URL`, `REDIS_URL`, `DEMO_DATA_DIR`, `DEMO_TABLE`, `DEMO_KEY_PREFIX`)
 * and with the same settings key (`SETTINGS_KEY`, else the one kept beside the data). PGlite
 * serves one process at a time: stop the demo before running `cpf` on its PGlite data.
 */
export async function demoCliConfig(env: Readonly<Record<string, string | undefined>>): Promise<CliConfig> {
  const options: DemoStoreOptions = {
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    dataDir: env.DEMO_DATA_DIR || undefined,
    table: env.DEMO_TABLE || undefined,
    keyPrefix: env.DEMO_KEY_PREFIX || undefined,
  };
  const opened = await openDemoStore(options);
  try {
    const key = await demoSettingsKey(env.SETTINGS_KEY || undefined, settingsKeyFile(options));
    const gateway = new AcmePayGateway(opened.store, key.cipher);
    // The store and the database it runs on are closed together by the demo's own close().
    return defineCliConfig({
      plugins: [gateway, itemsPlugin(), ordersPlugin()],
      close: () => opened.close(),
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
}
