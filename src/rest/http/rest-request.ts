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
  /** The most items a settings batch may hold (`createRestServer`'s `maxBatchItems`, default 100). */
  readonly maxBatchItems?: number;
  /**
   * Who reaches which scope of the settings routes (`createRestServer`'s `canAccessScope`);
   * asked with `''` for the global level. Absent: whoever passes the route's permission.
   */
  readonly canAccessScope?: (user: RestUser, scope: string, pluginId: string) => boolean | Promise<boolean>;
}

/**
 * The request as handlers, permission callbacks and argument steps see it. `P` types
 * `params` (and `get`) when the endpoint's arguments are known precisely: see `InferParams`.
 */
export interface RestRequest<P extends Record<string, unknown> = Record<string, unknown>> {
  /** The HTTP method, upper case (`HEAD` requests run the `GET` handler with `HEAD` here). */
  readonly method: string;
  /** The full request URL. */
  readonly url: URL;
  /** The request headers. */
  readonly headers: Headers;
  /** The validated, sanitised arguments with defaults applied; precedence path > body > query. */
  readonly params: P;
  /** The parsed JSON body, `undefined` when there is none. */
  readonly body: unknown;
  /** The authenticated user, or `null`. */
  readonly user: RestUser | null;
  /** `params[name]`. */
  get<K extends keyof P & string>(name: K): P[K];
  /** `params[name]` (`undefined` for an argument the endpoint does not declare). */
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
