import stableStringify from 'fast-json-stable-stringify';
import * as z from 'zod/mini';
import type { ControlType } from './control-types';
import { describeValue } from './describe-value';
import { describeInvalidJsonValue } from './json-value';
import { describeUnstorableText } from './text-rules';

/** The seven setting types. */
export const SETTING_TYPES = ['string', 'url', 'email', 'integer', 'float', 'boolean', 'object'] as const;

/** One of the seven setting types: `string`, `url`, `email`, `integer`, `float`, `boolean`, `object`. */
export type SettingType = (typeof SETTING_TYPES)[number];

/**
 * The TypeScript type of one value of each setting type (for `object`: any JSON value but
 * `null`). Multi settings hold arrays of these.
 */
export interface SettingValueTypes {
  /** Well-formed Unicode text without NUL characters. */
  string: string;
  /** An `http://` or `https://` URL with a host, kept exactly as given. */
  url: string;
  /** An email address of 6 to 254 characters. */
  email: string;
  /** A safe integer. */
  integer: number;
  /** A finite number. */
  float: number;
  /** `true` or `false`. */
  boolean: boolean;
  /** Any JSON value but `null`, at most 64 levels deep. */
  object: JsonValue;
}

/** A JSON value as the `object` setting type accepts it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON-Schema (draft-04) fragment. */
export type JsonSchemaFragment = Readonly<Record<string, unknown>>;

/** Returned by a type's `decode` when stored text cannot be read as that type. */
export const UNREADABLE: unique symbol = Symbol('unreadable stored text');

/**
 * One row of the setting-type table: everything the package knows about a type. Validation,
 * storage, the REST schema, OpenAPI and the admin form all read the same row.
 */
export interface SettingTypeDefinition {
  /** The type's name. */
  readonly type: SettingType;
  /**
   * Strict check of one value (no coercion), with messages that say what was wrong. Built with
   * `zod/mini` (functions, not methods: an edge bundle keeps only the schema kinds used; every
   * message is set here, so no locale is needed).
   */
  readonly schema: z.ZodMiniType;
  /**
   * A quick check that answers true only for values {@link schema} accepts (false says
   * nothing: the schema then decides and gives the message). Spares the schema's machinery on
   * the write and read of every change.
   */
  readonly accepts?: (value: unknown) => boolean;
  /** One value (already valid) as stored text. */
  encode(value: unknown): string;
  /** Stored text as a candidate value (validated by the caller), or {@link UNREADABLE}. */
  decode(text: string): unknown;
  /** JSON Schema of one value. */
  readonly jsonSchema: JsonSchemaFragment;
  /** The control used when a setting of this type has none. */
  readonly defaultControl: ControlType;
}

const received = (issue: { input?: unknown }) => `received ${describeValue(issue.input)}`;

/** A check that adds the message `describe` gives (when it gives one) as a custom issue. */
const rule = <T>(describe: (value: T) => string | undefined) =>
  z.check<T>((payload) => {
    const problem = describe(payload.value);
    if (problem)
      payload.issues.push({ code: 'custom', message: problem, input: payload.value, continue: true });
  });

const unstorableText = (text: string) => {
  const problem = describeUnstorableText(text);
  return problem ? `text ${problem}` : undefined;
};

const storableString = (expected: string, describe?: (text: string) => string | undefined) => {
  const base = z
    .string({ error: (issue) => `expected ${expected}, ${received(issue)}` })
    .check(rule(unstorableText));
  return describe === undefined ? base : base.check(rule(describe));
};

const URL_FORBIDDEN = /[\s\p{Cc}]/u;
const URL_SCHEME = /^https?:\/\//i;

function describeInvalidUrl(text: string): string | undefined {
  if (URL_FORBIDDEN.test(text)) return 'a URL must not contain white space or control characters';
  if (!URL_SCHEME.test(text)) return 'a URL must start with http:// or https://';
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'not a valid URL';
  }
  return parsed.hostname === '' ? 'a URL must have a host' : undefined;
}

const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const EMAIL_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

function describeInvalidEmail(text: string): string | undefined {
  if (text.length < 6 || text.length > 254) return 'an email address has 6 to 254 characters';
  const parts = text.split('@');
  if (parts.length !== 2) return 'an email address has exactly one @';
  const [local = '', domain = ''] = parts;
  if (!EMAIL_LOCAL.test(local)) return 'invalid characters before the @ of the email address';
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => EMAIL_LABEL.test(label))) {
    return 'the domain of the email address must be dotted labels of letters, digits and inner hyphens';
  }
  return undefined;
}

/** Text the `string` type accepts: a string every store holds. */
const isStorableText = (value: unknown): value is string =>
  typeof value === 'string' && describeUnstorableText(value) === undefined;

const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** Numbers read from text: `-0` is stored as `0` and must read back as `0`. */
const normaliseZero = (n: number) => (n === 0 ? 0 : n);

function decodeNumber(text: string, truncate: boolean): unknown {
  if (!DECIMAL_TEXT.test(text)) return UNREADABLE;
  const n = Number(text);
  return normaliseZero(truncate ? Math.trunc(n) : n);
}

/** Parses stored JSON text (`-0` read as `0`, as for numbers), or answers {@link UNREADABLE}. */
export function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text, (_key, value: unknown) => (value === 0 ? 0 : value));
  } catch {
    return UNREADABLE;
  }
}

const TRUE_TEXT = /^(?:yes|true|1)$/i;

const definitions: readonly SettingTypeDefinition[] = [
  {
    type: 'string',
    schema: storableString('a string'),
    accepts: isStorableText,
    encode: (value) => value as string,
    decode: (text) => text,
    jsonSchema: { type: 'string' },
    defaultControl: 'text',
  },
  {
    type: 'url',
    schema: storableString('a URL string', describeInvalidUrl),
    accepts: (value) => isStorableText(value) && describeInvalidUrl(value) === undefined,
    encode: (value) => value as string,
    decode: (text) => text,
    jsonSchema: { type: 'string', format: 'uri' },
    defaultControl: 'text',
  },
  {
    type: 'email',
    schema: storableString('an email address string', describeInvalidEmail),
    accepts: (value) => isStorableText(value) && describeInvalidEmail(value) === undefined,
    encode: (value) => value as string,
    decode: (text) => text,
    jsonSchema: { type: 'string', format: 'email' },
    defaultControl: 'email',
  },
  {
    type: 'integer',
    schema: z
      .number({ error: (issue) => `expected an integer, ${received(issue)}` })
      .check(
        z.refine(Number.isSafeInteger, { error: (issue) => `expected a safe integer, ${received(issue)}` }),
      ),
    accepts: Number.isSafeInteger,
    encode: (value) => String(value),
    decode: (text) => decodeNumber(text, true),
    jsonSchema: { type: 'integer' },
    defaultControl: 'number',
  },
  {
    type: 'float',
    schema: z.number({ error: (issue) => `expected a finite number, ${received(issue)}` }),
    accepts: (value) => typeof value === 'number' && Number.isFinite(value),
    encode: (value) => String(value),
    decode: (text) => decodeNumber(text, false),
    jsonSchema: { type: 'number' },
    defaultControl: 'number',
  },
  {
    type: 'boolean',
    schema: z.boolean({ error: (issue) => `expected a boolean, ${received(issue)}` }),
    accepts: (value) => typeof value === 'boolean',
    encode: (value) => (value ? 'yes' : 'no'),
    decode: (text) => TRUE_TEXT.test(text),
    jsonSchema: { type: 'boolean' },
    defaultControl: 'checkbox',
  },
  {
    type: 'object',
    schema: z
      .unknown()
      .check(
        rule((value: unknown) =>
          value === null ? 'expected a JSON value other than null' : describeInvalidJsonValue(value),
        ),
      ),
    encode: (value) => stableStringify(value),
    decode: decodeJson,
    jsonSchema: { type: ['object', 'array', 'string', 'number', 'boolean'] },
    defaultControl: 'textarea',
  },
];

/** The setting-type table, by type name. */
export const SETTING_TYPE_DEFINITIONS: ReadonlyMap<string, SettingTypeDefinition> = new Map(
  definitions.map((definition) => [definition.type, definition]),
);

/** Whether `type` is one of the seven setting types. */
export function isSettingType(type: unknown): type is SettingType {
  return typeof type === 'string' && SETTING_TYPE_DEFINITIONS.has(type);
}
