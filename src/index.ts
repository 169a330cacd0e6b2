/**
 * commerce-plugin-framework: typed plugin settings, pluggable option stores and a REST layer
 * for commerce platform plugins.
 *
 * This root entry is runtime-agnostic (no `node:` imports): it runs on Node, Bun, Deno and
 * edge runtimes. Stores with drivers, host adapters, OpenAPI, admin pages and the store test
 * suite live in their own subpath entries.
 *
 * @module commerce-plugin-framework
 */

export { Framework_Plugin_Exception } from './errors/framework-plugin-exception';
export { OptionStoreError, type OptionStoreOperation } from './errors/option-store-error';
export * from './rest/index';
export {
  type ControlArgs,
  Framework_Abstract_Settings,
  type SettingArgs,
  type SettingsOptions,
} from './settings/abstract-settings';
export { type ControlObject, Framework_Control } from './settings/control';
export { CONTROL_TYPES, type ControlType } from './settings/control-types';
export { MAX_JSON_DEPTH } from './settings/json-value';
export { Framework_Setting, type SettingObject } from './settings/setting';
export {
  type JsonValue,
  SETTING_TYPES,
  type SettingType,
  type SettingValueTypes,
} from './settings/setting-types';
export {
  type DeclaredElement,
  type DeclaredReadValue,
  DeclaredSettings,
  type DeclaredValue,
  defineSettings,
  type SettingDeclaration,
  type SettingsDeclaration,
  type TypedSettingsClass,
} from './settings/typed-settings';
export { MemoryOptionStore } from './storage/memory-option-store';
export type { OptionStore } from './storage/option-store';
