import {
  Framework_Abstract_Settings,
  MemoryOptionStore,
  type OptionStore,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';

/** The settings of the lifecycle tests' plugin `shop`: a title, a number and a secret. */
export class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { name: 'Title', default: 'Shop' });
    this.registerSetting('retries', 'integer', { name: 'Retries', default: 3 });
    this.registerSetting('api_key', 'string', { name: 'API key', secret: true });
  }
}

/** The settings page of `settings`, for a plugin of the settings' id named `name`. */
export function settingsPage(
  settings: Framework_Abstract_Settings,
  name = 'Shop Pay',
): Framework_Register_Settings {
  return new Framework_Register_Settings(
    { getId: () => settings.getId(), getName: () => name },
    { fields: new Framework_Register_Settings_Fields(settings) },
  );
}

/** `ShopSettings` of plugin `shop` over `store` with `options`, and its settings page. */
export function shopPage(options: SettingsOptions = {}, store: OptionStore = new MemoryOptionStore()) {
  const settings = new ShopSettings('shop', store, options);
  return { store, settings, page: settingsPage(settings) };
}
