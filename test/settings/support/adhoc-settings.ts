import {
  Framework_Abstract_Settings,
  type Framework_Setting,
  MemoryOptionStore,
  type OptionStore,
  type SettingArgs,
  type SettingsOptions,
} from 'commerce-plugin-framework';

/** A settings container that registers nothing by itself: tests register settings from outside. */
export class AdhocSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {}
}

/** A container with one setting `v` of `type`, over `store`. */
export function oneSetting(
  type: string,
  args: SettingArgs = {},
  store: OptionStore = new MemoryOptionStore(),
  options?: SettingsOptions,
): { settings: AdhocSettings; setting: Framework_Setting; store: OptionStore; key: string } {
  const settings = new AdhocSettings('acme', store, options);
  const setting = settings.registerSetting('v', type, args);
  return { settings, setting, store, key: settings.getOptionName('v') };
}

/** `value` as it reads back from a store: `-0` becomes `0` (decimal text and JSON have no negative zero). */
export function readBack(value: unknown): unknown {
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (Array.isArray(value)) return value.map(readBack);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, readBack(child)]));
  }
  return value;
}
