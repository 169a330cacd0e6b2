import { brandClass, hasBrandedInstance } from '../../errors/brand';

/**
 * A handler result with a status and headers. A handler that returns a plain value answers
 * 200 with that value as JSON; one that returns a `RestResponse` chooses status and headers.
 * A `null` or `undefined` body with status 204 sends no body. `instanceof RestResponse` holds
 * across the ESM and CommonJS builds of one install, so a plugin built against the other
 * module format is answered the same.
 *
 * @example
 * ```ts
 * return new RestResponse({ success: true, data: item }, 201, { Location: `/api/acme/v1/items/${item.id}` });
 * ```
 */
export class RestResponse {
  /** The value sent as JSON. */
  readonly body: unknown;
  /** The HTTP status. */
  readonly status: number;
  /** Extra response headers. */
  readonly headers: Record<string, string>;

  /**
   * @param body - the value sent as JSON
   * @param status - HTTP status, 200 by default
   * @param headers - extra response headers
   */
  constructor(body: unknown, status = 200, headers: Record<string, string> = {}) {
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`RestResponse: status must be an integer from 200 to 599, got ${status}`);
    }
    this.body = body;
    this.status = status;
    this.headers = { ...headers };
  }

  /** Sets (replaces) one response header. */
  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  /** Brand-based `instanceof`, so that responses from the other build (ESM/CJS) are recognised. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrandedInstance(this, value);
  }
}
brandClass(RestResponse, 'RestResponse');
