import { invalidParamsError } from '../args/compiled-arg';
import { restError } from '../errors/rest-error-factory';
import { crossSiteError, isCrossSiteWrite, type TrustedOriginSet } from '../http/cross-site';
import { internalError, toRestError } from '../http/error-mapping';
import type { RestExchange } from '../http/exchange';
import { isJsonContentType } from '../http/media-type';
import { isBlankBody, parseJsonBody } from '../http/parse-json-body';
import type { RestError } from '../http/rest-error';
import { PipelineRequest, type RestServerInfo } from '../http/rest-request';
import type { RestResult } from '../http/rest-result';
import type { RouteMatcher } from '../registry/route-matcher';
import type { CompiledEndpoint, RegisteredRoute } from '../registry/route-registry';
import { checkUser, type RestUser } from '../rest-user';
import { jsonResult, toResult, withoutBody } from './json-result';
import { type DispatchRoute, INDEX_ALLOW, type IndexRoute, RouteTable } from './route-table';

/** What the pipeline needs from the server's options. */
export interface PipelineOptions {
  readonly info: RestServerInfo;
  readonly maxBodyBytes: number;
  readonly authenticate: ((request: Request) => RestUser | null | Promise<RestUser | null>) | undefined;
  /** The header-only form of `authenticate`, when it has one (see `HeaderAuthenticator`). */
  readonly authenticateFromHeader: ((header: (name: string) => string | null) => RestUser | null) | undefined;
  readonly onError: ((error: unknown, request: Request) => void) | undefined;
  /** Origins whose cookie-authenticated writes are accepted besides the request's own (see `isCrossSiteWrite`). */
  readonly trustedOrigins: TrustedOriginSet;
}

function decodePathValue(raw: string, name: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalidParamsError({
      [name]: { code: 'rest_invalid_param', path: [name], params: { reason: 'encoding' } },
    });
  }
}

function forbidden(user: RestUser | null): RestError {
  return user === null
    ? restError('rest_forbidden', 'Sorry, you must be authenticated to do that.', {}, { status: 401 })
    : restError('rest_forbidden', 'Sorry, you are not allowed to do that.', {}, { status: 403 });
}

/**
 * The one dispatch pipeline behind `server.fetch` and every adapter. Checks run in the
 * contract's order: route and method (404, 405), cross-site writes without credentials of
 * their own (403), body (413, 415, 400), arguments (400), authentication and permission
 * (401, 403), handler. What can be prepared is prepared once, in the {@link RouteTable}
 * (matcher, `Allow` headers, OPTIONS answers, indexes); this class holds the request stages.
 */
export class RestPipeline {
  readonly #options: PipelineOptions;
  readonly #matcher: RouteMatcher<DispatchRoute>;
  readonly #indexes: ReadonlyMap<string, IndexRoute>;

  /**
   * @param routes - the registered routes (the registry is sealed by the caller)
   * @param namespaces - the namespaces, for the indexes
   * @throws {@link Framework_Plugin_Exception} (400) when two routes have the same shape
   */
  constructor(routes: readonly RegisteredRoute[], namespaces: readonly string[], options: PipelineOptions) {
    this.#options = options;
    const table = new RouteTable(routes, namespaces, options.info.restRoot);
    this.#matcher = table.matcher;
    this.#indexes = table.indexes;
  }

  /**
   * Answers one request; never throws or rejects: every failure becomes an error result.
   * Answers synchronously when no step of the request (body, authenticate, permission,
   * handler) returned a promise, sparing turns of the event loop on the hot path.
   */
  dispatch(exchange: RestExchange): RestResult | Promise<RestResult> {
    let path = exchange.pathname;
    if (path.length > 1 && path.charCodeAt(path.length - 1) === 47) path = path.slice(0, -1);
    try {
      const match = this.#matcher.match(path);
      if (match === null) return this.#answerIndex(path, exchange.method);
      const target = match.route;
      const method = exchange.method;
      if (method === 'OPTIONS') return jsonResult(200, target.optionsBody, { allow: target.allow });
      const isHead = method === 'HEAD';
      const endpoint = target.route.byMethod.get(isHead ? 'GET' : method);
      if (endpoint === undefined) throw this.#methodNotAllowed(target.allow, method);
      if (isCrossSiteWrite(exchange, this.#options.trustedOrigins)) throw crossSiteError();
      const result = this.#run(exchange, target, match.values, endpoint);
      if (result instanceof Promise) {
        return result.then(
          (settled) => (isHead ? withoutBody(settled) : settled),
          (error: unknown) => this.#errorResult(error, exchange),
        );
      }
      return isHead ? withoutBody(result) : result;
    } catch (error) {
      return this.#errorResult(error, exchange);
    }
  }

  /** Turns anything thrown into an error result, reporting internal errors to `onError`. */
  #errorResult(thrown: unknown, exchange: RestExchange): RestResult {
    const { error, internal, reported } = toRestError(thrown);
    if (internal) this.reportError(reported, exchange);
    let body: string | null = null;
    try {
      if (exchange.method !== 'HEAD') body = JSON.stringify(error.toJSON());
    } catch (unserialisable) {
      // A RestError whose data cannot be JSON (a BigInt, a cycle) is itself a server error.
      this.reportError(unserialisable, exchange);
      return this.internalErrorResult(exchange);
    }
    return jsonResult(error.status, body, error.headers);
  }

  /** The 500 `rest_internal_error` answer. */
  internalErrorResult(exchange: RestExchange): RestResult {
    const error = internalError();
    return jsonResult(error.status, exchange.method === 'HEAD' ? null : JSON.stringify(error.toJSON()));
  }

  /** Passes an internal error to the host's `onError`, which must not break the answer. */
  reportError(error: unknown, exchange: RestExchange): void {
    const { onError } = this.#options;
    if (!onError) return;
    try {
      onError(error, exchange.toRequest());
    } catch {
      // A failing logger must not turn into a different answer.
    }
  }

  /** 405: the path exists, the method does not; `Allow` lists the route's methods. */
  #methodNotAllowed(allow: string, method: string): RestError {
    return restError(
      'rest_method_not_allowed',
      `The route exists but does not accept ${method.toUpperCase()}.`,
      {},
      { headers: { Allow: allow } },
    );
  }

  #answerIndex(path: string, method: string): RestResult {
    const index = this.#indexes.get(path);
    if (index === undefined) {
      throw restError('rest_no_route', 'No route was found matching the URL and request method.');
    }
    if (method === 'GET') return jsonResult(200, index.body);
    if (method === 'HEAD') return jsonResult(200, null);
    if (method === 'OPTIONS') return jsonResult(200, index.body, { allow: INDEX_ALLOW });
    throw this.#methodNotAllowed(INDEX_ALLOW, method);
  }

  /** The checks and the handler, in the contract's order; each stage waits only for a real promise. */
  #run(
    exchange: RestExchange,
    target: DispatchRoute,
    values: readonly string[],
    endpoint: CompiledEndpoint,
  ): RestResult | Promise<RestResult> {
    const bytes = exchange.readBody(this.#options.maxBodyBytes);
    if (bytes instanceof Promise) {
      return bytes.then((settled) => this.#afterBody(exchange, target, values, endpoint, settled));
    }
    return this.#afterBody(exchange, target, values, endpoint, bytes);
  }

  #afterBody(
    exchange: RestExchange,
    target: DispatchRoute,
    values: readonly string[],
    endpoint: CompiledEndpoint,
    bytes: Uint8Array | null,
  ): RestResult | Promise<RestResult> {
    const options = this.#options;
    const body = bytes === null ? undefined : this.#parseBody(bytes, exchange);
    let pathParams: Record<string, string> | null = null;
    if (values.length > 0) {
      pathParams = {};
      const names = target.paramNames;
      for (let index = 0; index < names.length; index++) {
        const name = names[index]!;
        pathParams[name] = decodePathValue(values[index]!, name);
      }
    }
    const request = new PipelineRequest(exchange, options.info, pathParams ?? {}, body);
    if (options.authenticate === undefined)
      return this.#afterAuthentication(exchange, endpoint, request, pathParams, null);

    // The user is known before argument steps run (custom validate/sanitize may read it), but
    // an authentication failure is reported only at the permission step, after argument errors.
    let user: ReturnType<NonNullable<PipelineOptions['authenticate']>>;
    try {
      const fromHeader = options.authenticateFromHeader;
      user =
        fromHeader !== undefined
          ? fromHeader((name) => exchange.header(name))
          : options.authenticate(exchange.toRequest());
    } catch (error) {
      return this.#afterAuthentication(exchange, endpoint, request, pathParams, { error });
    }
    if (user instanceof Promise) {
      return user.then(
        (settled) => this.#authenticated(exchange, endpoint, request, pathParams, settled),
        (error: unknown) => this.#afterAuthentication(exchange, endpoint, request, pathParams, { error }),
      );
    }
    return this.#authenticated(exchange, endpoint, request, pathParams, user);
  }

  #authenticated(
    exchange: RestExchange,
    endpoint: CompiledEndpoint,
    request: PipelineRequest,
    pathParams: Record<string, string> | null,
    user: unknown,
  ): RestResult | Promise<RestResult> {
    try {
      request.user = checkUser(user);
    } catch (error) {
      return this.#afterAuthentication(exchange, endpoint, request, pathParams, { error });
    }
    return this.#afterAuthentication(exchange, endpoint, request, pathParams, null);
  }

  #afterAuthentication(
    exchange: RestExchange,
    endpoint: CompiledEndpoint,
    request: PipelineRequest,
    pathParams: Record<string, string> | null,
    authFailure: { error: unknown } | null,
  ): RestResult | Promise<RestResult> {
    request.params = endpoint.args.run(
      pathParams,
      request.body as Record<string, unknown> | undefined,
      takesQueryArguments(exchange) ? exchange.search : '',
      request,
    );
    if (authFailure !== null) throw authFailure.error;
    const verdict = endpoint.permission(request);
    if (verdict instanceof Promise)
      return verdict.then((allowed) => this.#afterPermission(endpoint, request, allowed));
    return this.#afterPermission(endpoint, request, verdict);
  }

  #afterPermission(
    endpoint: CompiledEndpoint,
    request: PipelineRequest,
    allowed: unknown,
  ): RestResult | Promise<RestResult> {
    if (allowed !== true) throw forbidden(request.user);
    const value = endpoint.handler(request);
    return value instanceof Promise ? value.then(toResult) : toResult(value);
  }

  #parseBody(bytes: Uint8Array, exchange: RestExchange): Record<string, unknown> | undefined {
    if (bytes.length === 0 || isBlankBody(bytes)) return undefined;
    if (!isJsonContentType(exchange.header('content-type'))) {
      throw restError(
        'rest_unsupported_media_type',
        'The request body must be JSON, sent with Content-Type: application/json.',
      );
    }
    return parseJsonBody(bytes);
  }
}

/** Methods whose query string holds arguments whatever the request's content type. */
const QUERY_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

/**
 * Whether the query string counts as arguments of this request. GET, HEAD, OPTIONS and DELETE
 * take it always (DELETE's arguments, such as `force`, travel in the query by convention, and
 * no browser sends a cross-site DELETE without a CORS preflight). POST, PUT and PATCH take it
 * only with a JSON `Content-Type`, which another site cannot send without a preflight: a form
 * post, a `no-cors` fetch or `navigator.sendBeacon` (form types, `text/plain`, or no type at
 * all) cannot write anything through query arguments, even with the site's cookies.
 */
function takesQueryArguments(exchange: RestExchange): boolean {
  return QUERY_METHODS.has(exchange.method) || isJsonContentType(exchange.header('content-type'));
}
