import { catalogueErrorDoc } from '../rest/errors/error-docs';
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
    ...catalogueErrorDoc('rest_no_route', {
      when: 'a path parameter does not have its type (no route matches the path).',
    }),
    applies: (facts) => facts.hasIntegerPathParam,
  },
  {
    ...catalogueErrorDoc('rest_method_not_allowed', {
      when: 'the path exists, but not with the method sent (see `Allow`).',
      headers: {
        Allow: {
          description: 'The methods the path answers, comma-separated (HEAD and OPTIONS included).',
          required: true,
        },
      },
    }),
    applies: (facts) => !facts.answersEveryMethod,
  },
  { ...catalogueErrorDoc('rest_body_too_large'), applies: (facts) => facts.hasBody },
  { ...catalogueErrorDoc('rest_unsupported_media_type'), applies: (facts) => facts.hasBody },
  { ...catalogueErrorDoc('rest_invalid_json'), applies: (facts) => facts.hasBody },
  {
    ...catalogueErrorDoc('rest_missing_callback_param', {
      when: 'a required argument is missing (`data.params` lists them).',
    }),
    applies: (facts) => facts.hasRequiredArgs,
  },
  {
    ...catalogueErrorDoc('rest_invalid_param', {
      when: 'an argument is invalid (`data.params`: a message per argument; `data.details`: `{code, message, path, params}` per argument).',
    }),
    applies: (facts) => facts.hasArgs,
  },
  {
    ...catalogueErrorDoc('rest_forbidden', {
      status: 401,
      when: 'the endpoint needs an authenticated user.',
    }),
    applies: (facts) => !facts.isPublic,
  },
  {
    ...catalogueErrorDoc('rest_forbidden', { status: 403, when: 'the authenticated user may not do this.' }),
    applies: (facts) => !facts.isPublic,
  },
  { ...catalogueErrorDoc('rest_cross_site_request'), applies: (facts) => facts.isWrite },
  {
    ...catalogueErrorDoc('rest_forbidden_context', {
      status: 401,
      when: 'the `context` asked for (e.g. `edit`) needs an authenticated manager.',
    }),
    applies: (facts) => facts.hasGuardedContext,
  },
  {
    ...catalogueErrorDoc('rest_forbidden_context', {
      status: 403,
      when: 'the `context` asked for (e.g. `edit`) needs the management capability.',
    }),
    applies: (facts) => facts.hasGuardedContext,
  },
  { ...catalogueErrorDoc('rest_internal_error'), applies: always },
];

/** The errors the pipeline can answer for an operation with these facts. */
export function frameworkErrors(facts: OperationFacts): ErrorDoc[] {
  return FRAMEWORK_ERRORS.filter((error) => error.applies(facts)).map(
    ({ applies: _applies, ...error }) => error,
  );
}
