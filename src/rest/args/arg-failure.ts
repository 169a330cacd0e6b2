import type { ArgType } from './arg-schema';

/**
 * Where in an argument a failure is: the argument's name, then array indexes and object keys
 * down to the offending value, e.g. `['line_items', 2, 'sku']` for `line_items[2].sku`.
 */
export type ArgPath = readonly (string | number)[];

/**
 * The parameters of each argument failure code: what the schema asked for, as data, so that a
 * client can build its own message (the English `message` is formatted from them).
 */
export interface ArgFailureParams {
  /** The value does not have the declared type (after coercion, for query and path text). */
  rest_invalid_type: { readonly type: readonly ArgType[] };
  /** The value is not one of `enum`. */
  rest_not_in_enum: { readonly allowed: readonly unknown[] };
  /** A number outside `minimum` / `maximum` (exclusive flags present only when set). */
  rest_out_of_bounds: {
    readonly minimum?: number;
    readonly maximum?: number;
    readonly exclusiveMinimum?: true;
    readonly exclusiveMaximum?: true;
  };
  /** A string with fewer code points than `minLength`. */
  rest_too_short: { readonly minLength: number };
  /** A string with more code points than `maxLength`. */
  rest_too_long: { readonly maxLength: number };
  /** A string that does not have its `format`. */
  rest_invalid_format: { readonly format: string };
  /** A string that does not match `pattern` (or, with `maxInputLength`, is too long to be checked). */
  rest_invalid_pattern: { readonly pattern: string; readonly maxInputLength?: number };
  /** An array with fewer elements than `minItems`. */
  rest_too_few_items: { readonly minItems: number };
  /** An array with more elements than `maxItems`. */
  rest_too_many_items: { readonly maxItems: number };
  /** An array with equal elements although `uniqueItems` is set. */
  rest_duplicate_items: Readonly<Record<string, never>>;
  /** A required property of an object is missing (the path ends with its name). */
  rest_property_required: { readonly property: string };
  /** A property that `additionalProperties: false` forbids (the path ends with its name). */
  rest_additional_properties_forbidden: { readonly property: string };
  /**
   * Any other refusal: a custom `validate` step (`reason: 'custom'`, with its own `message` when
   * it gave one), a scalar repeated in the query string with different values (`'repeated'`),
   * or a path segment that is not valid percent-encoded UTF-8 (`'encoding'`).
   */
  rest_invalid_param:
    | { readonly reason: 'custom'; readonly message?: string }
    | { readonly reason: 'repeated' }
    | { readonly reason: 'encoding' };
}

/** The codes of argument failures: `data.details[name].code` of a 400 `rest_invalid_param`. */
export type ArgFailureCode = keyof ArgFailureParams;

/**
 * Why one argument was refused, as data: a code, where (`path`) and the schema's parameters.
 * The union over the codes, so that narrowing on `code` types `params`.
 */
export type ArgFailure = {
  [C in ArgFailureCode]: {
    /** What kind of failure. */
    readonly code: C;
    /** Where: the argument's name, then indexes and keys. */
    readonly path: ArgPath;
    /** What the schema asked for. */
    readonly params: ArgFailureParams[C];
  };
}[ArgFailureCode];

/** One entry of `data.details` of a 400 `rest_invalid_param`: the failure and its English message. */
export type ArgFailureDetail = ArgFailure & {
  /** The failure in English, naming the path (e.g. `line_items[2].quantity must be …`). */
  readonly message: string;
};
