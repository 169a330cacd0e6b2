import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { restError } from '../errors/rest-error-factory';
import type { RestError } from './rest-error';

/**
 * Refusing cross-site writes that ride on the browser's ambient credentials (CSRF).
 *
 * A browser attaches a site's cookies (and HTTP authentication it remembers) to requests that
 * other sites make to it, and some of those need no CORS preflight: a form post,
 * `fetch(url, { method: 'POST', mode: 'no-cors' })`, `navigator.sendBeacon`. A write that
 * carries no `Authorization` header of its own can only be authenticated by such ambient
 * credentials, so when it comes from another site it is refused — decided from the Fetch
 * metadata the browser sends (`Sec-Fetch-Site`), or, from browsers that do not send it (older
 * ones; plain-HTTP sites other than localhost), from `Origin` against the request's own
 * origin. Requests that carry neither header are not from a browser page and pass.
 */

/**
 * Origins whose cookie-authenticated writes a server accepts besides its own, as browsers
 * send them in `Origin` (`https://shop.example`, `http://localhost:3000`), or `'*'` to accept
 * every origin (switching the check off).
 */
export type TrustedOrigins = readonly string[] | '*';

/** The compiled {@link TrustedOrigins}: `'*'`, or the set of origins. */
export type TrustedOriginSet = '*' | ReadonlySet<string>;

/** What the check reads of a request (a `RestExchange` has all of it). */
export interface CrossSiteRequest {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The absolute request URL, as the server sees it (its origin is the request's own). */
  readonly url: string;
  /** One header's value (`name` in lower case), or `null`. */
  header(name: string): string | null;
}

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `Authorization` schemes a browser attaches by itself once the user signed in (HTTP
 * authentication it remembers): ambient credentials like cookies. Any other scheme (`Bearer`,
 * an API key scheme) was put there by the page's own code, which another site cannot do for
 * this one.
 */
const AMBIENT_SCHEMES: ReadonlySet<string> = new Set(['basic', 'digest', 'negotiate', 'ntlm']);

/**
 * Checks the `trustedOrigins` option and compiles it.
 *
 * @param option - `undefined` (no other origin), `'*'` or a list of serialised origins
 * @param where - names the option in errors, e.g. `createRestServer: trustedOrigins`
 * @throws {@link Framework_Plugin_Exception} (400) for anything else, or an entry that is not
 *   exactly a serialised `http`/`https` origin (`scheme://host[:port]`, lower case, no path or
 *   trailing slash, no default port), naming the entry and its serialised form when it has one
 */
export function compileTrustedOrigins(option: unknown, where: string): TrustedOriginSet {
  if (option === undefined) return new Set();
  if (option === '*') return '*';
  if (!Array.isArray(option)) {
    throw new Framework_Plugin_Exception(`${where} must be a list of origins or '*'`, 400);
  }
  const origins = new Set<string>();
  option.forEach((entry: unknown, index) => {
    let origin: string | null = null;
    if (typeof entry === 'string') {
      try {
        const url = new URL(entry);
        if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
      } catch {
        origin = null;
      }
    }
    if (origin === null || origin !== entry) {
      const hint = origin === null ? '' : `; did you mean ${JSON.stringify(origin)}?`;
      throw new Framework_Plugin_Exception(
        `${where}[${index}] ${JSON.stringify(entry)} is not an origin as browsers send it in the Origin header (http or https, scheme://host[:port], no path or trailing slash)${hint}`,
        400,
      );
    }
    origins.add(origin);
  });
  return origins;
}

/** Whether the request carries credentials of its own (an `Authorization` header the browser does not attach by itself). */
function carriesOwnCredentials(request: CrossSiteRequest): boolean {
  const authorization = request.header('authorization')?.trim();
  if (!authorization) return false;
  const scheme = authorization.split(/\s/, 1)[0]!.toLowerCase();
  return !AMBIENT_SCHEMES.has(scheme);
}

function ownOrigin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Whether a request is a write (any method but GET, HEAD, OPTIONS) that relies on ambient
 * credentials (no `Authorization` header of its own) and comes from another site: its
 * `Sec-Fetch-Site` is `cross-site` or `same-site`, or, without that header, its `Origin`
 * differs from the request's own origin (`Origin: null` always differs). An `Origin` listed in
 * `trusted` is accepted; `'*'` accepts every request.
 */
export function isCrossSiteWrite(request: CrossSiteRequest, trusted: TrustedOriginSet): boolean {
  if (trusted === '*' || SAFE_METHODS.has(request.method) || carriesOwnCredentials(request)) return false;
  const origin = request.header('origin');
  if (origin !== null && trusted.has(origin)) return false;
  const site = request.header('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return true;
  if (site === 'same-origin' || site === 'none') return false;
  return origin !== null && origin !== ownOrigin(request.url);
}

/** The answer to a refused cross-site write: 403 `rest_cross_site_request`. */
export function crossSiteError(): RestError {
  return restError(
    'rest_cross_site_request',
    'This request changes data, comes from another site and carries no Authorization header, so it was refused. Send it from this site, or with an Authorization header.',
  );
}
