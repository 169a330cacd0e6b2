import type { Framework_Plugin } from '../plugin';

/** Where `createRestServer` sends its warnings (`createRestServer({ logger })`; default `console`). */
export interface RestServerLogger {
  /** One line of text; it names plugins and settings counts, never a value. */
  warn(message: string): void;
}

/**
 * Warns once per plugin whose settings have secret settings but no cipher
 * (`settings.hasSecretCipher()` false): their secrets reach the store in plain text. The
 * message names the plugin id and how many secrets it has, never a value. A logger that throws
 * does not stop the server from being created.
 */
export function warnAboutPlainSecrets(plugins: readonly Framework_Plugin[], logger: RestServerLogger): void {
  for (const plugin of plugins) {
    const settings = plugin.getSettingsHandler();
    if (settings === null || settings.hasSecretCipher()) continue;
    let secrets = 0;
    for (const setting of settings.getSettings().values()) if (setting.isSecret()) secrets++;
    if (secrets === 0) continue;
    const count = secrets === 1 ? 'a secret setting' : `${secrets} secret settings`;
    try {
      logger.warn(
        `commerce-plugin-framework: plugin "${plugin.getId()}" has ${count} and no cipher, so its secrets are stored in plain text; ` +
          'give its settings `secrets: createAesGcmCipher([...])` (see docs/secrets.md).',
      );
    } catch {
      // A failing logger must not stop the server from being created.
    }
  }
}
