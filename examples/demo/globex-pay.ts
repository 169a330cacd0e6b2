import {
  convertSetting,
  defineMigration,
  Framework_Abstract_Settings,
  Framework_Plugin,
  type OptionStore,
  remapOptions,
  renameSetting,
  requiredWhen,
  type SecretCipher,
  type SettingsMigration,
} from 'commerce-plugin-framework';

/** The Globex Pay plugin's id. */
export const GLOBEX_ID = 'globex_pay';

/**
 * Globex Pay as its first release registered its settings (schema version 1): `api_key`,
 * `mode` with the options `live`/`test`, `retries` as text. Kept here only to seed a store the
 * way that release left it, so the demo shows the migration to version 3.
 */
export class GlobexPaySettingsV1 extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { name: 'Title', default: 'Globex Pay' });
    this.registerSetting('api_key', 'string', { name: 'API key', secret: true });
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
    this.registerSetting('retries', 'string', { name: 'Retries', default: '3' });
  }
}

/**
 * The steps from version 1 to version 3 (the worked example of docs/migrations.md): `api_key`
 * became `secret_key`, `mode`'s options `live`/`test` became `production`/`sandbox`, and
 * `retries` became an integer.
 */
export const GLOBEX_MIGRATIONS: readonly SettingsMigration[] = [
  defineMigration(2, 'api_key is now secret_key', renameSetting('api_key', 'secret_key', { secret: true })),
  defineMigration(
    3,
    'production/sandbox modes, numeric retries',
    remapOptions('mode', { live: 'production', test: 'sandbox' }),
    convertSetting('retries', (text) => {
      const retries = Number.parseInt(text, 10);
      return Number.isSafeInteger(retries) && retries >= 0 ? retries : undefined;
    }),
  ),
];

/** Globex Pay's settings today: schema version 3, with a rule across settings. */
export class GlobexPaySettings extends Framework_Abstract_Settings {
  constructor(store: OptionStore, secrets?: SecretCipher) {
    super(GLOBEX_ID, store, {
      schemaVersion: 3,
      migrations: GLOBEX_MIGRATIONS,
      rules: [
        requiredWhen(
          'secret_key',
          { setting: 'mode', equals: 'production' },
          'Production mode needs a secret key.',
        ),
      ],
      ...(secrets === undefined ? {} : { secrets }),
    });
  }
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { name: 'Title', default: 'Globex Pay' });
    this.registerSetting('secret_key', 'string', { name: 'Secret key', secret: true });
    this.registerSetting('mode', 'string', {
      name: 'Mode',
      options: ['production', 'sandbox'],
      default: 'sandbox',
    });
    this.registerControl('mode', 'select', { options: { production: 'Production', sandbox: 'Sandbox' } });
    this.registerSetting('retries', 'integer', { name: 'Retries', default: 3 });
  }
}

/**
 * Globex Pay: a second gateway whose settings went through two schema changes. On a store a
 * first release left behind, its first load migrates them (once, however many instances start);
 * the status screen shows its schema versions and the history the migration's entries.
 */
export class GlobexPayGateway extends Framework_Plugin {
  readonly #settings: GlobexPaySettings;

  /**
   * @param store - where the settings live
   * @param secrets - encrypts the secret key at rest
   */
  constructor(store: OptionStore, secrets?: SecretCipher) {
    super({ id: GLOBEX_ID, name: 'Globex Pay', version: '3.0.0', isPaymentGateway: true });
    this.#settings = new GlobexPaySettings(store, secrets);
  }

  override getSettingsHandler(): GlobexPaySettings {
    return this.#settings;
  }
}

/**
 * Stores, on a store that has nothing of Globex Pay yet, what its first release would have left:
 * version-1 values at the global level and in the demo's channels. Its first load then migrates
 * them to version 3.
 */
export async function seedGlobexVersion1(store: OptionStore, secrets?: SecretCipher): Promise<void> {
  // Anything recorded (a first release ran, or a migrated store): nothing to seed.
  if ((await store.get(`framework_${GLOBEX_ID}:schema`)) !== undefined) return;
  const v1 = new GlobexPaySettingsV1(GLOBEX_ID, store, secrets === undefined ? {} : { secrets });
  await v1.updateValues([
    { id: 'api_key', value: 'gx_live_demo_key' },
    { id: 'mode', value: 'live' },
    { id: 'retries', value: '5' },
  ]);
  await v1.scope('eu').updateValues([
    { id: 'mode', value: 'test' },
    { id: 'retries', value: '2' },
  ]);
  v1.dispose();
}
