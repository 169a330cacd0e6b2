import type { RestResult } from '../rest/http/rest-result';

/** What a host framework's mount does with a request path. */
export type MountClaim =
  /** Under the REST root: the server answers, 404 included. */
  | 'own'
  /** An admin-page path: the server answers unless it has no such page. */
  | 'admin'
  /** Neither: the host's own routes handle it. */
  | 'pass';

/**
 * Which requests a REST server mounted inside a host app (Express, Hono) claims: everything
 * under its `restRoot` (so 404 and 405 come from the server, as with `server.fetch`), and the
 * paths under its `adminPathPrefix` when it serves admin pages. Everything else is the host's.
 */
export class MountScope {
  readonly #restRoot: string;
  readonly #restPrefix: string;
  readonly #adminPrefix: string | null;

  /**
   * @param restRoot - the server's REST root (`server.info.restRoot`), e.g. `/api`
   * @param adminPathPrefix - where the server serves admin pages (`server.adminPathPrefix`), or `null`
   */
  constructor(restRoot: string, adminPathPrefix: string | null) {
    this.#restRoot = restRoot;
    this.#restPrefix = `${restRoot}/`;
    this.#adminPrefix = adminPathPrefix;
  }

  /** Who answers a request for `pathname`. */
  claim(pathname: string): MountClaim {
    if (this.#restRoot === '' || pathname === this.#restRoot || pathname.startsWith(this.#restPrefix)) {
      return 'own';
    }
    return this.#adminPrefix !== null && pathname.startsWith(this.#adminPrefix) ? 'admin' : 'pass';
  }

  /** Whether a result says "nothing here" (the server has no route or admin page for the path). */
  static isNotFound(result: RestResult): boolean {
    return result.kind === 'json' ? result.status === 404 : result.response.status === 404;
  }
}
