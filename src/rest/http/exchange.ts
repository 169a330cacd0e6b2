import { readStreamWithin } from './read-body';

/**
 * The light form of one incoming request that the dispatch pipeline works on. `server.fetch`
 * builds one from a Fetch `Request`; host adapters (node:http, …) may build their own and call
 * `server.handleExchange(exchange)` without constructing a Fetch `Request` per call.
 *
 * Everything is read lazily: the pipeline reads the query string only for routes with
 * arguments, the headers only when someone asks, and the Fetch `Request` (for `authenticate`
 * and admin pages) only when needed.
 */
export interface RestExchange {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The absolute request URL as text (e.g. `http://localhost:3000/api/acme/v1/items?page=2`). */
  readonly url: string;
  /** The path, percent-encoded as it arrived, without query or fragment, dot segments resolved. */
  readonly pathname: string;
  /** The raw query string, without the leading `?`; `''` when there is none. */
  readonly search: string;
  /** One header's value (`name` in lower case), or `null`. */
  header(name: string): string | null;
  /** All headers. */
  readonly headers: Headers;
  /**
   * The body bytes, read within `maxBytes` (rejecting with 413 `rest_body_too_large` past it).
   * `null` (directly, or as the promise's value) when the request has no body: answering `null`
   * synchronously spares bodiless requests a turn of the event loop.
   */
  readBody(maxBytes: number): Promise<Uint8Array | null> | null;
  /** The request as a Fetch `Request` (built on first call by adapters; body not guaranteed readable). */
  toRequest(): Request;
}

/** Splits an absolute URL's text into path and query without building a `URL`. */
export function splitRequestUrl(url: string): {
  /** The path, still percent-encoded; `/` when the URL has none. */
  pathname: string;
  /** The query string without its leading `?` (and without any `#fragment`); empty when there is none. */
  search: string;
} {
  const schemeEnd = url.indexOf('://');
  let pathStart = schemeEnd === -1 ? 0 : url.indexOf('/', schemeEnd + 3);
  if (pathStart === -1) pathStart = url.length;
  let end = url.indexOf('#', pathStart);
  if (end === -1) end = url.length;
  const queryStart = url.indexOf('?', pathStart);
  if (queryStart !== -1 && queryStart < end) {
    return { pathname: url.slice(pathStart, queryStart) || '/', search: url.slice(queryStart + 1, end) };
  }
  return { pathname: url.slice(pathStart, end) || '/', search: '' };
}

/** A {@link RestExchange} over a Fetch `Request`. */
export class FetchExchange implements RestExchange {
  readonly method: string;
  readonly url: string;
  readonly pathname: string;
  readonly search: string;
  readonly #request: Request;

  /** @param request - the incoming request */
  constructor(request: Request) {
    this.#request = request;
    this.method = request.method;
    this.url = request.url;
    const { pathname, search } = splitRequestUrl(request.url);
    this.pathname = pathname;
    this.search = search;
  }

  header(name: string): string | null {
    return this.#request.headers.get(name);
  }

  get headers(): Headers {
    return this.#request.headers;
  }

  readBody(maxBytes: number): Promise<Uint8Array | null> | null {
    const body = this.#request.body;
    if (body === null) return null;
    return readStreamWithin(body, maxBytes);
  }

  toRequest(): Request {
    return this.#request;
  }
}
