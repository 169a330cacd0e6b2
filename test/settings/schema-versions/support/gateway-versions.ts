/**
 * The worked example of docs/migrations.md: a payment gateway's settings at schema version 1 and
 * at version 3, where `api_key` became `secret_key`, `mode`'s options `live`/`test` became
 * `production`/`sandbox`, and `retries` went from a string to an integer.
 */
import {
  convertSetting,
  defineMigration,
  Framework_Abstract_Settings,
  type OptionStore,
  remapOptions,
  renameSetting,
  type SettingsOptions,
} from 'commerce-plugin-framework';

/** Version 1, as the plugin's first release registered it. */
export class GatewayV1 extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('api_key', 'string', { secret: true });
    this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
    this.registerSetting('retries', 'string', { default: '3' });
    this.registerSetting('title', 'string', { default: 'Card' });
  }
}

/** The steps 2 and 3. */
export const GATEWAY_MIGRATIONS = [
  defineMigration(2, 'api_key is now secret_key', renameSetting('api_key', 'secret_key', { secret: true })),
  defineMigration(
    3,
    'sandbox naming, numeric retries',
    remapOptions('mode', { live: 'production', test: 'sandbox' }),
    convertSetting('retries', (text) => {
      const retries = Number.parseInt(text, 10);
      return Number.isSafeInteger(retries) ? retries : undefined;
    }),
  ),
];

/** Version 3. */
export class GatewayV3 extends Framework_Abstract_Settings {
  constructor(id: string, store: OptionStore, options: SettingsOptions = {}) {
    super(id, store, { schemaVersion: 3, migrations: GATEWAY_MIGRATIONS, ...options });
  }
  protected registerSettings(): void {
    this.registerSetting('secret_key', 'string', { secret: true });
    this.registerSetting('mode', 'string', { options: ['production', 'sandbox'], default: 'sandbox' });
    this.registerSetting('retries', 'integer', { default: 3 });
    this.registerSetting('title', 'string', { default: 'Card' });
  }
}
