/**
 * `commerce-plugin-framework/admin`: the plugins' settings pages and the status screen, as
 * accessible HTML served by `createRestServer({ admin: { pages, csrfSecret } })` under
 * `/admin/settings/{pluginId}` (with its `…/history` view and `…/restore` handler) and `/admin/status`.
 *
 * Runtime-agnostic (WebCrypto and Fetch API only).
 *
 * @module commerce-plugin-framework/admin
 */

export {
  type AdminPage,
  type AdminPluginInfo,
  type AdminRequestContext,
  DEFAULT_CSRF_MAX_AGE_MS,
} from '../rest/admin-hook';
export { isSecretKey } from '../rest/secret-keys';
export type { AdminField, FieldState } from './admin-field';
export {
  ADMIN_STATUS_PATH,
  adminHistoryPath,
  adminRestorePath,
  adminSettingsPath,
} from './admin-paths';
export { ADMIN_STYLES } from './admin-styles';
export {
  type CreateCsrfTokenOptions,
  createCsrfToken,
  type VerifyCsrfTokenOptions,
  verifyCsrfToken,
} from './csrf-token';
export { INHERIT_FIELD } from './field-renderer';
export type { FieldChoice, FieldInputType, FieldWidget } from './field-widget';
export { formChanges, type LevelValue } from './form-changes';
export type { FieldOutcome } from './form-value-codec';
export { HISTORY_PAGE_SIZE, RESTORED_FLAG } from './history-routes';
export { escapeHtml } from './html-escape';
export { adminSecurityHeaders } from './html-response';
export { Framework_Register_Settings_Fields, type SettingsSubmission } from './settings-fields';
export {
  type AdminSettingsPlugin,
  CSRF_FIELD,
  Framework_Register_Settings,
  type RegisterSettingsOptions,
  type RenderFormOptions,
  SAVED_FLAG,
} from './settings-page';
export { MASKED_SECRET, renderStatusBlocks, renderStatusValue } from './status-screen';
