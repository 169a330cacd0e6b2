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

export { type CliConfig, defineCliConfig } from './cli/define-cli-config';
export { Framework_Plugin_Exception } from './errors/framework-plugin-exception';
export { OptionStoreError, type OptionStoreOperation } from './errors/option-store-error';
export * from './rest/index';
export {
  type ControlArgs,
  Framework_Abstract_Settings,
  type SettingArgs,
  type SettingsOptions,
} from './settings/abstract-settings';
export type { ExportOptions } from './settings/config/export-settings';
export type { ImportOptions } from './settings/config/plan-import';
export type { RestoreOptions } from './settings/config/plan-restore';
export {
  type EnvironmentReference,
  SETTINGS_DOCUMENT_FORMAT,
  type SecretReference,
  type SettingsDocument,
} from './settings/config/settings-document';
export {
  type PlanChange,
  type PlanConflict,
  PlanConflictError,
  type PlanError,
  type PlanErrorCode,
  PlanRefusedError,
  type SettingsPlan,
} from './settings/config/settings-plan';
export { type ControlObject, Framework_Control } from './settings/control';
export { CONTROL_TYPES, type ControlType } from './settings/control-types';
export type { HistoryEntry, WriteActor, WriteVia } from './settings/history/history-entry';
export type { HistoryQuery } from './settings/history/history-query';
export { MAX_JSON_DEPTH } from './settings/json-value';
export { type RequiredCondition, requiredWhen } from './settings/rules/required-when';
export { SettingsRuleFailedError, SettingsRulesError } from './settings/rules/rules-error';
export type { RuleContext, RuleProblem, SettingsRule } from './settings/rules/settings-rule';
export { MigrationFailedError } from './settings/schema-versions/migration-failed';
export {
  convertSetting,
  defineMigration,
  type MigrationChange,
  remapOptions,
  removeSetting,
  renameSetting,
} from './settings/schema-versions/migration-steps';
export { SchemaOutdatedError } from './settings/schema-versions/schema-outdated';
export type {
  MigrateOptions,
  MigrationLevel,
  MigrationProgress,
  MigrationReport,
  MigrationStepReport,
  SettingsMigration,
} from './settings/schema-versions/settings-migration';
export { ScopeNotFoundError } from './settings/scope/scope-not-found';
export { isScopePath, MAX_SCOPE_DEPTH } from './settings/scope/scope-path';
export type { DescribedSetting, ScopedSettings } from './settings/scope/scoped-settings';
export { createAesGcmCipher } from './settings/secrets/aes-gcm-cipher';
export { AES_GCM_KEY_ID_PATTERN, type AesGcmKey } from './settings/secrets/aes-gcm-key';
export type { SecretAudit } from './settings/secrets/secret-audit';
export { ENCRYPTED_TEXT_PREFIX, isEncryptedText, type SecretCipher } from './settings/secrets/secret-cipher';
export { Framework_Setting, type SettingObject } from './settings/setting';
export {
  type JsonValue,
  SETTING_TYPES,
  type SettingType,
  type SettingValueTypes,
} from './settings/setting-types';
export { SettingValueError, type SettingValueIssue } from './settings/setting-value-error';
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
export { type BatchFailure, BatchRejectedError } from './settings/writes/batch-rejected';
export { PreconditionFailedError } from './settings/writes/precondition-failed';
export { type StoreFeature, UnsupportedByStoreError } from './settings/writes/unsupported-by-store';
export type { SettingChange, WriteOptions } from './settings/writes/write-options';
export { MemoryOptionStore } from './storage/memory-option-store';
export type { OptionStore } from './storage/option-store';
export type {
  StoreCheck,
  StoreCommit,
  StoreCommitResult,
  StoreLogAppend,
  StoreWrite,
} from './storage/store-commit';
export type { LogPage, LogPageQuery } from './storage/store-log';
export type { ScanPage, ScanQuery, SuffixScanPage, SuffixScanQuery } from './storage/store-scan';
