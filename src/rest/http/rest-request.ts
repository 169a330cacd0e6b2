import type { RestUser } from '../rest-user';
import type { RestExchange } from './exchange';

/** What a request knows about the server that dispatched it. */
export interface RestServerInfo {
  /** The path prefix of every REST route, e.g. `/api`. */
  readonly restRoot: string;
  /** The namespace of the host's own routes (settings, system status), e.g. `commerce/v3`. */
  readonly hostNamespace: string;
  /** The capability the settings and status routes require, e.g. `manage_commerce`. */
  readonly managementCapability: string;
}

/**
 * The request as handlers, permission callbacks and argument steps see it.
 */
export interface RestRequest {
  /** The HTTP method, upper case (`HEAD` requests run the `GET` handler with `HEAD` here). */
  readonly method: string;
  /** The full request URL. */
  readonly url: URL;
  /** The request headers. */
  readonly headers: Headers;
  /** The validated, sanitised arguments with defaults applied; precedence path > body > query. */
  readonly params: Record<string, unknown>;
  /** The parsed JSON body, `undefined` when there is none. */
  readonly body: unknown;
  /** The authenticated user, or `null`. */
  readonly user: RestUser | null;
  /** `params[name]`. */
  get(name: string): unknown;
  /** Whether the authenticated user has `capability` (false without a user). */
  userCan(capability: string): boolean;
  /** The dispatching server's settings; set on every request the server creates. */
  readonly server?: RestServerInfo;
}

/** The pipeline's {@link RestRequest}: URL and headers are read from the exchange only when asked for. */
export class PipelineRequest implements RestRequest {
  readonly method: string;
  params: Record<string, unknown>;
  body: unknown;
  user: RestUser | null = null;
  readonly server: RestServerInfo;
  readonly #exchange: RestExchange;
  #url: URL | undefined;

  /**
   * @param exchange - the incoming request
   * @param server - what the server tells its requests
   * @param params - the path parameters (replaced by the validated arguments later)
   * @param body - the parsed body
   */
  constructor(
    exchange: RestExchange,
    server: RestServerInfo,
    params: Record<string, unknown>,
    body: unknown,
  ) {
    this.#exchange = exchange;
    this.method = exchange.method;
    this.server = server;
    this.params = params;
    this.body = body;
  }

  get url(): URL {
    this.#url ??= new URL(this.#exchange.url);
    return this.#url;
  }

  get headers(): Headers {
    return this.#exchange.headers;
  }

  get(name: string): unknown {
    return Object.hasOwn(this.params, name) ? this.params[name] : undefined;
  }

  userCan(capability: string): boolean {
    return this.user?.capabilities.includes(capability) === true;
  }
}
