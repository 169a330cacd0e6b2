/**
 * A JSON Schema as plain data, as an endpoint's documentation declares it: JSON Schema 2020-12
 * (the dialect of OpenAPI 3.1: `const`, `oneOf`, `anyOf`, `$ref`…), or the draft-04 spellings
 * that route arguments and item schemas use (`required: true` on a property, boolean
 * `exclusiveMinimum`, `readonly`), which the OpenAPI generator converts. A schema named in
 * {@link EndpointDocs.schemas} is referred to with {@link componentRef}.
 */
export type DocSchema = { readonly [keyword: string]: unknown };

/** A response or request header, as documented. */
export interface HeaderDoc {
  /** What the header carries (CommonMark). */
  readonly description: string;
  /** The schema of its value, e.g. `{ type: 'integer', minimum: 0 }`; default `{ type: 'string' }`. */
  readonly schema?: DocSchema;
  /** Whether every such response (or request) carries it; default `false`. */
  readonly required?: boolean;
  /**
   * Its name in the document's `components` (`headers`, or `parameters` for a request header)
   * when several places carry it; default the header's name. Give one when a header of that name
   * means something else here (e.g. `If-Match` compared with another tag).
   */
  readonly component?: string;
}

/** An answer that is not an error: the success answer, or another one (`201`, `304`…). */
export interface ResponseDoc {
  /** The HTTP status, e.g. `200`, `201` or `304`. */
  readonly status: number;
  /** What the answer means (CommonMark). */
  readonly description: string;
  /** The schema of the JSON body; absent for an answer without a body (`204`, `304`). */
  readonly schema?: DocSchema;
  /** The headers of the answer, by name (e.g. `X-Total`, `Location`, `ETag`). */
  readonly headers?: Readonly<Record<string, HeaderDoc>>;
  /**
   * Its name in the document's `components.responses` when several operations give this very
   * answer (e.g. `acme_pay.settings.max_retries`, one setting's object for its GET, writes and
   * DELETE); default the one schema its body refers to and the status (`acme.v1.items_200`),
   * else `<operationId>_<status>`.
   */
  readonly component?: string;
}

/**
 * The body an error answer has:
 * - `error`: the framework's error body `{code, message, data: {status, …}}` (a thrown
 *   `RestError`, or an error of the pipeline);
 * - `message`: the envelope `{success: false, message}` (`notFoundResponse`, or a
 *   `RestResponse` of that shape with another status);
 * - `errors`: the envelope `{success: false, errors: […]}` (`validationFailedResponse`).
 */
export type ErrorBodyKind = 'error' | 'message' | 'errors';

/** An error answer an endpoint gives, besides the ones the pipeline gives on every route. */
export interface ErrorDoc {
  /** The HTTP status, e.g. `404` or `412`. */
  readonly status: number;
  /** The body's shape; default `error`. */
  readonly body?: ErrorBodyKind;
  /** The error codes (body `error`), e.g. `['rest_precondition_failed']`: listed in the description. */
  readonly codes?: readonly string[];
  /** When it happens (CommonMark); default: the codes. */
  readonly description?: string;
  /** Body `error`: the schema of `data` beyond `status`, e.g. `{ required: ['etag'], properties: { etag: { type: 'string' } } }`. */
  readonly data?: DocSchema;
  /** Body `errors`: the schema of one item of `errors` (default: any JSON value). */
  readonly items?: DocSchema;
  /** The headers of the answer, by name. */
  readonly headers?: Readonly<Record<string, HeaderDoc>>;
}

/**
 * What the OpenAPI document says about one endpoint, declared on its
 * {@link EndpointDefinition.docs}. Every member is optional: an endpoint without docs is
 * documented from its arguments, with a `2XX` answer of any JSON. The errors the pipeline
 * itself gives (400 for arguments and JSON, 401/403 from the permission, 404 for a path
 * parameter of the wrong type, 405, 413, 415, 500) are added by the generator; declare only
 * the endpoint's own.
 */
export interface EndpointDocs {
  /** A one-line summary; default `METHOD /route`. */
  readonly summary?: string;
  /** A longer description (CommonMark). */
  readonly description?: string;
  /** The success answer and any other non-error answers (e.g. `304`); default a `2XX` of any JSON. */
  readonly responses?: readonly ResponseDoc[];
  /** The endpoint's own error answers (merged with the pipeline's by status). */
  readonly errors?: readonly ErrorDoc[];
  /**
   * The documented schema of some arguments, replacing the one derived from their
   * `ArgSchema` (their place and whether they are required stay as the arguments say), e.g.
   * the exact value schema of one setting for `value`.
   */
  readonly argSchemas?: Readonly<Record<string, DocSchema>>;
  /**
   * Arguments documented as query parameters although the method takes a JSON body (e.g. a
   * `scope` on `PUT`). The pipeline reads an argument from the path, else the body, else the
   * query, so both places work; this says which one clients should use.
   */
  readonly queryArgs?: readonly string[];
  /** Request headers the endpoint reads, by name (e.g. `If-Match`). */
  readonly requestHeaders?: Readonly<Record<string, HeaderDoc>>;
  /**
   * The name of the JSON request body in the document's `components.requestBodies` when several
   * operations take this very body (e.g. PUT, POST and PATCH of one setting); default
   * `<operationId>_body`.
   */
  readonly bodyComponent?: string;
  /**
   * Schemas this endpoint adds to `components.schemas`, by name (`[A-Za-z0-9._-]+`), for
   * {@link componentRef}. Endpoints may add the same name only with the same schema.
   */
  readonly schemas?: Readonly<Record<string, DocSchema>>;
  /**
   * Documents the endpoint at concrete paths instead of its `{param}` template: one path
   * per variant, its path parameters replaced by the variant's values, and the variant's docs
   * replacing the same members of these. The settings routes list one path per setting this
   * way. An empty list documents no path at all.
   */
  readonly variants?: readonly EndpointVariant[];
}

/** One concrete path of an endpoint documented through {@link EndpointDocs.variants}. */
export interface EndpointVariant {
  /** The value of each path parameter, e.g. `{ setting_id: 'max_retries' }`. */
  readonly params: Readonly<Record<string, string>>;
  /** What differs at this path: replaces the same members of the endpoint's docs. */
  readonly docs: Omit<EndpointDocs, 'variants'>;
}

/**
 * An endpoint's documentation as declared: the docs, or a function that builds them when the
 * document is generated (so that they can list what exists then, e.g. the settings).
 */
export type EndpointDocsDeclaration = EndpointDocs | (() => EndpointDocs);

/** A reference to a schema declared in {@link EndpointDocs.schemas}: `{ $ref: '#/components/schemas/<name>' }`. */
export function componentRef(name: string): DocSchema {
  return { $ref: `#/components/schemas/${name}` };
}
