import type { ErrorDoc } from '../rest/registry/endpoint-docs';

/** What the pipeline's own checks depend on, for one documented operation. */
export interface OperationFacts {
  /** Whether the method takes a JSON body (POST, PUT, PATCH). */
  readonly hasBody: boolean;
  /** Whether the endpoint declares arguments (any of them can be invalid). */
  readonly hasArgs: boolean;
  /** Whether an argument that is not a path parameter is required. */
  readonly hasRequiredArgs: boolean;
  /** Whether a path parameter is an integer: other text there matches no route. */
  readonly hasIntegerPathParam: boolean;
  /** Whether the permission is `allowPublic()`. */
  readonly isPublic: boolean;
  /** Whether the path answers every method (GET, POST, PUT, PATCH, DELETE): then no 405 is possible. */
  readonly answersEveryMethod: boolean;
  /** Whether the method changes data (POST, PUT, PATCH, DELETE): the cross-site check applies. */
  readonly isWrite: boolean;
  /** Whether a `context` argument offers contexts beyond `view` and `embed` (which need the management capability). */
  readonly hasGuardedContext: boolean;
}

/** An error the pipeline answers by itself, and on which operations. */
interface FrameworkError extends ErrorDoc {
  readonly applies: (facts: OperationFacts) => boolean;
}

const always = () => true;

/**
 * The errors the dispatch pipeline gives on any route, before or around the handler (CONTRACT
 * §5), in the order it checks them. A check added to the pipeline for every route is
 * documented by adding a row here.
 */
const FRAMEWORK_ERRORS: readonly FrameworkError[] = [
  {
    status: 404,
    codes: ['rest_no_route'],
    description: 'rest_no_route: a path parameter does not have its type (no route matches the path).',
    applies: (facts) => facts.hasIntegerPathParam,
  },
  {
    status: 405,
    codes: ['rest_method_not_allowed'],
    description: 'rest_method_not_allowed: the path exists, but not with the method sent (see `Allow`).',
    headers: {
      Allow: {
        description: 'The methods the path answers, comma-separated (HEAD and OPTIONS included).',
        required: true,
      },
    },
    applies: (facts) => !facts.answersEveryMethod,
  },
  {
    status: 413,
    codes: ['rest_body_too_large'],
    description: 'rest_body_too_large: the body is larger than the server accepts (counted while reading).',
    applies: (facts) => facts.hasBody,
  },
  {
    status: 415,
    codes: ['rest_unsupported_media_type'],
    description: 'rest_unsupported_media_type: a body was sent with a Content-Type other than JSON.',
    applies: (facts) => facts.hasBody,
  },
  {
    status: 400,
    codes: ['rest_invalid_json'],
    description:
      'rest_invalid_json: the body is not a UTF-8 JSON object, nests deeper than 64 levels, or has a `__proto__` key.',
    applies: (facts) => facts.hasBody,
  },
  {
    status: 400,
    codes: ['rest_missing_callback_param'],
    description: 'rest_missing_callback_param: a required argument is missing (`data.params` lists them).',
    applies: (facts) => facts.hasRequiredArgs,
  },
  {
    status: 400,
    codes: ['rest_invalid_param'],
    description:
      'rest_invalid_param: an argument is invalid (`data.params`: a message per argument; `data.details`: `{code, message}` per argument).',
    applies: (facts) => facts.hasArgs,
  },
  {
    status: 401,
    codes: ['rest_forbidden'],
    description: 'rest_forbidden: the endpoint needs an authenticated user.',
    applies: (facts) => !facts.isPublic,
  },
  {
    status: 403,
    codes: ['rest_forbidden'],
    description: 'rest_forbidden: the authenticated user may not do this.',
    applies: (facts) => !facts.isPublic,
  },
  {
    status: 403,
    codes: ['rest_cross_site_request'],
    description:
      'rest_cross_site_request: a write that carries no Authorization header of its own (so relies on cookies) came from another site.',
    applies: (facts) => facts.isWrite,
  },
  {
    status: 401,
    codes: ['rest_forbidden_context'],
    description:
      'rest_forbidden_context: the `context` asked for (e.g. `edit`) needs an authenticated manager.',
    applies: (facts) => facts.hasGuardedContext,
  },
  {
    status: 403,
    codes: ['rest_forbidden_context'],
    description:
      'rest_forbidden_context: the `context` asked for (e.g. `edit`) needs the management capability.',
    applies: (facts) => facts.hasGuardedContext,
  },
  {
    status: 500,
    codes: ['rest_internal_error'],
    description: 'rest_internal_error: something failed on the server (no details are given).',
    applies: always,
  },
];

/** The errors the pipeline can answer for an operation with these facts. */
export function frameworkErrors(facts: OperationFacts): ErrorDoc[] {
  return FRAMEWORK_ERRORS.filter((error) => error.applies(facts)).map(
    ({ applies: _applies, ...error }) => error,
  );
}
