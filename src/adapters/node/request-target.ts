import type { IncomingMessage } from 'node:http';

/** Where a `node:http` request is aimed: its path and query, and its absolute URL when it had to be worked out. */
export interface RequestTarget {
  /** The path as it arrived (percent-encoded), dot segments resolved. */
  readonly pathname: string;
  /** The raw query string without `?`; `''` when there is none. */
  readonly search: string;
  /**
   * The absolute URL as text, set when the target had to be parsed; otherwise it is the
   * request's origin followed by the target exactly as it arrived (built only when asked for).
   */
  readonly url?: string;
}

/** Host header values that are safe to put in a URL: a name, IPv4 or `[IPv6]`, and a port. */
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * Request targets that a WHATWG URL parser keeps exactly as they are: origin-form, URL path
 * and query characters only, no dot segment (`/.`, `%2e`), no backslash. Anything else takes
 * the slow path through `new URL`, so the path the pipeline sees is the one a Fetch `Request`
 * for the same request would have.
 */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/%?]*$/;
const ENCODED_DOT = /%2e/i;

/** The `Host` header, or `localhost` when it is missing or could not be part of a URL. */
export function safeHost(host: string | undefined): string {
  return host !== undefined && SAFE_HOST.test(host) ? host : 'localhost';
}

/** The origin of a `node:http` request: `http(s)://` plus its (checked) `Host` header. */
export function requestOrigin(req: IncomingMessage, protocol?: string): string {
  const scheme = protocol ?? ((req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http');
  return `${scheme}://${safeHost(req.headers.host)}`;
}

/**
 * Reads path and query from a request target (`req.url`, relative to the mount point in
 * Express). Plain targets are split as they are; others are parsed like a Fetch `Request`
 * parses its URL (dot segments, percent-encoding), which needs the request's origin.
 *
 * @param rawTarget - the request target as it arrived
 * @param origin - gives `http://host:port` (or `https://…`), only called for targets that need parsing
 */
export function readRequestTarget(rawTarget: string, origin: () => string): RequestTarget {
  if (PLAIN_TARGET.test(rawTarget) && !rawTarget.includes('/.') && !ENCODED_DOT.test(rawTarget)) {
    const query = rawTarget.indexOf('?');
    return query === -1
      ? { pathname: rawTarget, search: '' }
      : { pathname: rawTarget.slice(0, query), search: rawTarget.slice(query + 1) };
  }
  return parseTarget(rawTarget, origin());
}

function parseTarget(rawTarget: string, origin: string): Required<RequestTarget> {
  let parsed: URL | null = null;
  try {
    // Origin-form (`/path`) is appended to the origin (not resolved against it, so that `//x`
    // stays a path); absolute-form (`http://host/path`, sent to proxies) is taken as it is.
    parsed = new URL(rawTarget.startsWith('/') ? origin + rawTarget : rawTarget);
  } catch {
    parsed = null;
  }
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    // `*` (OPTIONS *) or something unparsable: no route has such a path, so the pipeline
    // answers 404; the URL handed to `authenticate` stays valid.
    return { url: `${origin}/`, pathname: rawTarget, search: '' };
  }
  parsed.hash = '';
  return { url: parsed.href, pathname: parsed.pathname, search: parsed.search.slice(1) };
}
