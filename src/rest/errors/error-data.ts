import type { PlanConflict, PlanError, SettingsPlan } from '../../settings/config/settings-plan';
import type { SettingValueIssue } from '../../settings/setting-value-error';
import type { ArgFailureDetail } from '../args/arg-failure';

/** No members besides `status`. */
export type NoErrorData = Readonly<Record<string, never>>;

/** One refused item of a batch, as `data.errors` of `rest_batch_rejected` lists it. */
export interface BatchItemError {
  /** The setting id of the item. */
  readonly id: string;
  /** What a single write of that item would have answered (a rule's problem: `rest_setting_rule_failed`). */
  readonly code:
    | 'rest_setting_not_found'
    | 'rest_missing_callback_param'
    | 'rest_setting_value_invalid'
    | 'rest_setting_rule_failed';
  /** Why, for a human. */
  readonly message: string;
  /** For `rest_setting_value_invalid`: the value's issues, as a single write's `data.details`. */
  readonly details?: readonly SettingValueIssue[];
}

/** One problem a rule across settings found, as `data.errors` of `rest_setting_rules_failed` lists it. */
export interface RuleItemError {
  /** The setting the problem is about. */
  readonly id: string;
  /** Always `rest_setting_rule_failed`. */
  readonly code: 'rest_setting_rule_failed';
  /** The rule's message. */
  readonly message: string;
}

/**
 * The shape of `data` (besides `status`) of each code of the catalogue. `restError(code, …)`
 * takes exactly this shape for its code.
 */
export interface RestErrorData {
  /** See the catalogue. */
  rest_no_route: NoErrorData;
  /** The `Allow` header names the methods; no data. */
  rest_method_not_allowed: NoErrorData;
  /** See the catalogue. */
  rest_cross_site_request: NoErrorData;
  /** The limit the body exceeded. */
  rest_body_too_large: { readonly max_bytes: number };
  /** See the catalogue. */
  rest_request_aborted: NoErrorData;
  /** See the catalogue. */
  rest_unsupported_media_type: NoErrorData;
  /** See the catalogue. */
  rest_invalid_json: NoErrorData;
  /** The missing argument names. */
  rest_missing_callback_param: { readonly params: readonly string[] };
  /** A message and the failure as data, per invalid argument. */
  rest_invalid_param: {
    readonly params: Readonly<Record<string, string>>;
    readonly details: Readonly<Record<string, ArgFailureDetail>>;
  };
  /** See the catalogue. */
  rest_forbidden: NoErrorData;
  /** See the catalogue. */
  rest_forbidden_context: NoErrorData;
  /** See the catalogue. */
  rest_setting_not_found: NoErrorData;
  /** The scope path that does not exist. */
  rest_scope_not_found: { readonly scope: string };
  /** The message under `params.value`, the setting, and the value's issues. */
  rest_setting_value_invalid: {
    readonly params: { readonly value: string };
    readonly setting_id: string;
    readonly details: readonly SettingValueIssue[];
  };
  /** Every problem the rules found. */
  rest_setting_rules_failed: { readonly errors: readonly RuleItemError[] };
  /** The stored schema version and this server's. */
  rest_schema_outdated: { readonly stored: number; readonly schema_version: number };
  /** The current entity tag; or, for an import or restore, the fresh plan and the keys that changed. */
  rest_precondition_failed:
    | { readonly etag: string }
    | { readonly plan: SettingsPlan; readonly conflicts: readonly PlanConflict[] };
  /** Every problem of the plan. */
  rest_plan_invalid: { readonly errors: readonly PlanError[] };
  /** See the catalogue. */
  rest_history_not_found: NoErrorData;
  /** Every refused item. */
  rest_batch_rejected: { readonly errors: readonly BatchItemError[] };
  /** The missing capability. */
  rest_unsupported_by_store: { readonly feature: string };
  /** See the catalogue. */
  rest_store_unavailable: NoErrorData;
  /** Never details: they go to `onError`. */
  rest_internal_error: NoErrorData;
}
