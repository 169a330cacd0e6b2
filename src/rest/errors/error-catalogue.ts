/**
 * One row of the REST error catalogue: the statuses a code is answered with, when, and what
 * its `data` holds besides `status`.
 */
export interface RestErrorEntry {
  /** The HTTP statuses the code is answered with; the first is the usual one. */
  readonly status: readonly [number, ...number[]];
  /** Whether another client-error status (4xx) is possible too (a plugin exception's own code). */
  readonly otherClientStatus?: boolean;
  /** When it is answered, in one line of English. */
  readonly when: string;
  /** The members of `data` besides `status`, in one line (Markdown); `''` when there are none. */
  readonly data: string;
}

/**
 * Every error code the framework itself answers, with its statuses, when and its `data`
 * (CONTRACT §5, §8). The one source of the codes: the {@link RestErrorCode} union, the typed
 * factory `restError`, the OpenAPI document and the table of docs/errors.md are derived from it.
 * Plugins may answer codes of their own with `new RestError(...)`.
 */
export const REST_ERROR_CATALOGUE = {
  rest_no_route: {
    status: [404],
    when: 'No route matches the path (a path parameter without its type included).',
    data: '',
  },
  rest_method_not_allowed: {
    status: [405],
    when: 'The path exists, but not with the method sent (message: "The route exists but does not accept METHOD.", the method in upper case); the `Allow` header lists the methods.',
    data: '',
  },
  rest_cross_site_request: {
    status: [403],
    when: 'A write without an `Authorization` header of its own (so relying on cookies) came from another site.',
    data: '',
  },
  rest_body_too_large: {
    status: [413],
    when: 'The body is larger than `maxBodyBytes` (counted while reading).',
    data: '`max_bytes`: the limit',
  },
  rest_request_aborted: {
    status: [400],
    when: 'The client closed the connection before its whole body arrived (node adapter; nobody reads the answer).',
    data: '',
  },
  rest_unsupported_media_type: {
    status: [415],
    when: 'A body was sent with a `Content-Type` other than JSON.',
    data: '',
  },
  rest_invalid_json: {
    status: [400],
    when: 'The body is not UTF-8 JSON, not an object, nests deeper than 64 levels or has a `__proto__` key.',
    data: '',
  },
  rest_missing_callback_param: {
    status: [400],
    when: 'A required argument is missing (or `null`).',
    data: '`params`: the missing names',
  },
  rest_invalid_param: {
    status: [400],
    when: 'An argument is invalid: type, bounds, enum, format, pattern, items, properties or a custom check.',
    data: '`params`: name → message; `details`: name → `{code, message, path, params}` (an argument failure)',
  },
  rest_forbidden: {
    status: [401, 403],
    when: 'The permission said no: 401 without an authenticated user, 403 with one (also `canAccessScope`).',
    data: '',
  },
  rest_forbidden_context: {
    status: [401, 403],
    when: 'The `context` asked for (e.g. `edit`) needs the management capability: 401 anonymous, 403 authenticated.',
    data: '',
  },
  rest_setting_not_found: {
    status: [404],
    when: 'The plugin has no setting with that id.',
    data: '',
  },
  rest_scope_not_found: {
    status: [404],
    when: "The settings' `scopeExists` option says the `scope` asked for does not exist (asked after the permission checks).",
    data: '`scope`: the path asked for',
  },
  rest_setting_value_invalid: {
    status: [400],
    otherClientStatus: true,
    when: "The value is not of the setting's type, not among its options, or refused by an `updateValue` override (its 4xx code).",
    data: '`params`: `{value: message}`; `setting_id`; `details`: `[{path, code, message}]` (zod issues; general for a secret)',
  },
  rest_setting_rules_failed: {
    status: [400],
    when: "The settings' rules across settings (CONTRACT §12) refused the values the write would leave; nothing was stored.",
    data: '`errors`: `[{id, code: "rest_setting_rule_failed", message}]`, each problem at the setting it is about',
  },
  rest_plan_invalid: {
    status: [400],
    when: 'An import or restore plan has errors (values, rules, secrets, scopes): nothing was stored; a dry run shows the plan.',
    data: '`errors`: `[{scope, id, code, message}]`, every problem of the plan',
  },
  rest_history_not_found: {
    status: [404],
    when: 'A restore target (`to`) is neither an ISO 8601 time nor the id of a history entry.',
    data: '',
  },
  rest_schema_outdated: {
    status: [409],
    when: "The stored settings are at another schema version than this server's (an older release during a rolling deploy, or a migration running): it reads, but does not write.",
    data: "`stored`: the stored version (a running migration's target); `schema_version`: this server's",
  },
  rest_precondition_failed: {
    status: [412],
    when: "`If-Match` does not name the current state (of the setting, or of the list for a batch); or an import/restore plan is out of date (`plan_id` not the fresh plan's, a planned key changed): nothing was stored.",
    data: '`etag`: the current tag; for a plan, `plan`: the fresh plan and `conflicts`: `[{scope, id}]`',
  },
  rest_batch_rejected: {
    status: [400],
    when: 'At least one item of a batch was refused; nothing was stored.',
    data: '`errors`: `[{id, code, message, details?}]`, every refused item in request order',
  },
  rest_unsupported_by_store: {
    status: [501],
    when: 'The store lacks an optional capability the request needs (`commit` for If-Match and batches, `readLog` for history).',
    data: '`feature`: what is missing',
  },
  rest_store_unavailable: {
    status: [503],
    when: 'The settings store failed or timed out; try again later.',
    data: '',
  },
  rest_internal_error: {
    status: [500],
    when: 'Anything else failed on the server; the body holds no details (they go to `onError`).',
    data: '',
  },
} as const satisfies Readonly<Record<string, RestErrorEntry>>;

/** Every error code the framework answers: the keys of {@link REST_ERROR_CATALOGUE}. */
export type RestErrorCode = keyof typeof REST_ERROR_CATALOGUE;

/** The codes of {@link REST_ERROR_CATALOGUE}, in its order. */
export const REST_ERROR_CODES = Object.freeze(Object.keys(REST_ERROR_CATALOGUE)) as readonly RestErrorCode[];

/** Whether `code` is one of the framework's own error codes. */
export function isRestErrorCode(code: unknown): code is RestErrorCode {
  return typeof code === 'string' && Object.hasOwn(REST_ERROR_CATALOGUE, code);
}

/** The catalogue row of a code. */
export function restErrorEntry(code: RestErrorCode): RestErrorEntry {
  return REST_ERROR_CATALOGUE[code];
}
