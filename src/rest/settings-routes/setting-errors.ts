import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { SettingsRuleFailedError, SettingsRulesError } from '../../settings/rules/rules-error';
import { MigrationFailedError } from '../../settings/schema-versions/migration-failed';
import { SchemaOutdatedError } from '../../settings/schema-versions/schema-outdated';
import { ScopeNotFoundError } from '../../settings/scope/scope-not-found';
import { SettingValueError, type SettingValueIssue } from '../../settings/setting-value-error';
import { BatchRejectedError } from '../../settings/writes/batch-rejected';
import { PreconditionFailedError } from '../../settings/writes/precondition-failed';
import { UnsupportedByStoreError } from '../../settings/writes/unsupported-by-store';
import type { BatchItemError, RuleItemError } from '../errors/error-data';
import { restError } from '../errors/rest-error-factory';
import type { RestError } from '../http/rest-error';

/** The REST error for a setting id the plugin does not have. */
export function settingNotFound(settingId: string, pluginId: string): RestError {
  return restError('rest_setting_not_found', `No setting "${settingId}" in plugin "${pluginId}".`);
}

/** The problems of a write the rules refused, as `data.errors` lists them. */
export function ruleItemErrors(error: SettingsRulesError): RuleItemError[] {
  return error.errors.map(({ id, message }) => ({ id, code: 'rest_setting_rule_failed', message }));
}

/** 400 `rest_setting_rules_failed` for a write the rules across settings refused. */
export function rulesFailed(error: SettingsRulesError): RestError {
  return restError('rest_setting_rules_failed', error.message, { errors: ruleItemErrors(error) });
}

/** The 412 `rest_precondition_failed` error, with the current tag. */
export function preconditionFailed(etag: string): RestError {
  return restError(
    'rest_precondition_failed',
    'The setting has changed since the given entity tag: nothing was stored.',
    { etag },
  );
}

/**
 * The REST error for what a read of the settings layer threw: an unknown setting (code 404,
 * e.g. unregistered meanwhile) is 404 `rest_setting_not_found`; a missing store capability is
 * 501; anything else is returned unchanged (the pipeline answers it, a 500 for an unexpected
 * exception, a 503 for a store failure).
 */
export function toSettingReadError(error: unknown): unknown {
  if (error instanceof SchemaOutdatedError) {
    return restError('rest_schema_outdated', error.message, {
      stored: error.stored,
      schema_version: error.schemaVersion,
    });
  }
  if (error instanceof ScopeNotFoundError) {
    return restError('rest_scope_not_found', `No scope "${error.scope}" exists.`, { scope: error.scope });
  }
  if (error instanceof UnsupportedByStoreError) {
    return restError('rest_unsupported_by_store', error.message, { feature: error.feature });
  }
  if (error instanceof Framework_Plugin_Exception && error.code === 404) {
    return restError('rest_setting_not_found', error.message);
  }
  return error;
}

/**
 * The value's issues of a refused write, as `data.details` lists them: the zod issues of a
 * value the type or options refuse (already general for a secret), or one issue at the value
 * itself for the check of an `updateValue` override.
 */
function valueIssues(error: Framework_Plugin_Exception): readonly SettingValueIssue[] {
  if (error instanceof SettingValueError) return error.issues;
  return [{ path: [], code: 'custom', message: error.message }];
}

/**
 * A refused item of a batch as `data.errors` lists it (CONTRACT §8): the code a single write
 * would answer, its message and, for a rejected value, the value's issues.
 */
export function batchItemError(id: string, error: Framework_Plugin_Exception): BatchItemError {
  if (error.code === 404) return { id, code: 'rest_setting_not_found', message: error.message };
  return { id, code: 'rest_setting_value_invalid', message: error.message, details: valueIssues(error) };
}

/**
 * The REST error for what a write of the settings layer threw (CONTRACT §5, §8): a failed
 * If-Match is 412 `rest_precondition_failed` with the current tag in `data.etag`; a store
 * without the needed capability 501 `rest_unsupported_by_store`; an unknown setting 404
 * `rest_setting_not_found`; any other `Framework_Plugin_Exception` — a value the type refuses,
 * or the check of an `updateValue` override, whatever code it was given — is
 * `rest_setting_value_invalid`, with its code when that is 4xx and 400 otherwise, and the
 * value's issues in `data.details`. Anything else (a store failure, a bug) is returned unchanged.
 */
export function toSettingRestError(error: unknown, settingId: string): unknown {
  if (error instanceof PreconditionFailedError) return preconditionFailed(error.etag);
  if (error instanceof SettingsRulesError) return rulesFailed(error);
  if (
    error instanceof UnsupportedByStoreError ||
    error instanceof BatchRejectedError ||
    error instanceof ScopeNotFoundError ||
    error instanceof SchemaOutdatedError
  )
    return toSettingReadError(error);
  // A rule or a migration step that threw is the server's failure: 500, details to onError only.
  if (error instanceof SettingsRuleFailedError || error instanceof MigrationFailedError) return error;
  if (!(error instanceof Framework_Plugin_Exception)) return error;
  if (error.code === 404) return restError('rest_setting_not_found', error.message);
  return restError(
    'rest_setting_value_invalid',
    error.message,
    { params: { value: error.message }, setting_id: settingId, details: valueIssues(error) },
    { status: error.code >= 400 && error.code < 500 ? error.code : 400 },
  );
}
