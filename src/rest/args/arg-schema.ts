import type { RestRequest } from '../http/rest-request';

/** The JSON types an argument can have. */
export type ArgType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** The string formats an argument can be checked against. */
export type ArgFormat = 'email' | 'uri' | 'date-time' | 'uuid' | 'ip' | 'hex-color';

/**
 * The schema of one route argument: JSON-Schema-draft-04-style keywords plus two custom
 * steps. Per argument: type and keyword checks, then `validate`, then `sanitize`; a custom step
 * never switches the type check off. Optional arguments that are absent are not validated.
 *
 * Query-string and path values are coerced to the type (`"5"` → 5, `"true"`/`"1"` → true,
 * `"a,b"` → `["a","b"]`); JSON body values must already have it.
 */
export interface ArgSchema {
  /** The type, or a list of types (the first that fits wins). No type: any value. */
  type?: ArgType | readonly ArgType[] | readonly string[];
  /**
   * `true` on an argument (or on a property schema): it must be present. On an object schema,
   * a list of the property names that must be present (draft-04 form).
   */
  required?: boolean | readonly string[];
  /** The value used when the argument is absent; checked against the schema at registration. */
  default?: unknown;
  /** Help text (shown by OPTIONS and in the OpenAPI document). */
  description?: string;
  /** The allowed values (deep equality for arrays and objects). */
  enum?: readonly unknown[];
  /** Lowest allowed number (inclusive unless `exclusiveMinimum`). */
  minimum?: number;
  /** Highest allowed number (inclusive unless `exclusiveMaximum`). */
  maximum?: number;
  /** Makes `minimum` exclusive (draft-04 boolean form). */
  exclusiveMinimum?: boolean;
  /** Makes `maximum` exclusive (draft-04 boolean form). */
  exclusiveMaximum?: boolean;
  /** Fewest characters (Unicode code points) of a string. */
  minLength?: number;
  /** Most characters (Unicode code points) of a string. */
  maxLength?: number;
  /**
   * A regular expression a string must match (compiled once, with the `u` flag, not anchored
   * unless you anchor it). Strings longer than 1 000 UTF-16 units are rejected without running
   * it, and patterns that can backtrack in more than linear time per start position (a repeated
   * part that can match one text in several ways, like `(a+)+` or `(\w+\s?)*`; two runs that
   * can share a text, like `.*.*` or `.+@.+`) are refused at registration.
   */
  pattern?: string;
  /** A format a string must have. */
  format?: ArgFormat | (string & {});
  /** Fewest elements of an array. */
  minItems?: number;
  /** Most elements of an array. */
  maxItems?: number;
  /** Whether an array's elements must be distinct (deep equality). */
  uniqueItems?: boolean;
  /** The schema of each element of an array. */
  items?: ArgSchema;
  /** The schemas of an object's properties. */
  properties?: Record<string, ArgSchema>;
  /** Whether properties not listed in `properties` are allowed (`true` by default), or their schema. */
  additionalProperties?: boolean | ArgSchema;
  /**
   * A custom check after the keyword checks: `true` accepts; `false` or a message rejects
   * (400 `rest_invalid_param`).
   */
  validate?(value: unknown, request: RestRequest, name: string): boolean | string;
  /** A custom transformation after `validate`; its result is the argument's value. */
  sanitize?(value: unknown, request: RestRequest, name: string): unknown;
  /** Contexts (`view`, `edit`, `embed`) a property appears in; used by item schemas, ignored by validation. */
  context?: readonly string[];
  /** Marks a property the client cannot set; documentation only, ignored by validation. */
  readonly?: boolean;
  /** A short title; documentation only. */
  title?: string;
}
