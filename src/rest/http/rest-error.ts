import { brandClass, hasBrandedInstance } from '../../errors/brand';

/** The JSON body of every REST error: `{code, message, data: {status, …}}`. */
export interface RestErrorBody {
  /** The machine-readable error code (snake_case), e.g. `rest_invalid_param`. */
  code: string;
  /** What was wrong, for a human; never holds internals or stack traces. */
  message: string;
  /** The HTTP status, repeated in the body, plus any extra members the error carries (e.g. `params`). */
  data: {
    /** The HTTP status the error is answered with, e.g. 400. */
    status: number;
  } & Record<string, unknown>;
}

/**
 * A REST error as data: a machine-readable `code` (snake_case, e.g. `rest_invalid_param`),
 * a human-readable `message`, the HTTP `status` and extra `data` for the client.
 *
 * Handlers and permission callbacks may throw one to answer with exactly that error; the
 * server answers it as `{code, message, data: {status, …data}}` with that status.
 * `instanceof RestError` holds across the ESM and CommonJS builds of one install, so a plugin
 * built against the other module format is answered the same.
 *
 * @example
 * ```ts
 * throw new RestError('acme_out_of_stock', 'Item 7 is out of stock.', 409, { item: 7 });
 * ```
 */
export class RestError extends Error {
  /** The machine-readable error code, e.g. `rest_no_route`. */
  readonly code: string;
  /** The HTTP status to answer with. */
  readonly status: number;
  /** Extra members of the body's `data` (besides `status`). */
  readonly data: Readonly<Record<string, unknown>>;
  /** Extra response headers (e.g. `Allow` for 405). */
  readonly headers: Readonly<Record<string, string>>;

  /**
   * @param code - machine-readable code
   * @param message - what was wrong, for a human (sent to the client: no internals)
   * @param status - HTTP status, 400 by default
   * @param data - extra `data` members
   * @param headers - extra response headers
   */
  constructor(
    code: string,
    message: string,
    status = 400,
    data: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RestError';
    this.code = code;
    this.status = status;
    this.data = data;
    this.headers = headers;
  }

  /** The wire form `{code, message, data: {status, …}}`. */
  toJSON(): RestErrorBody {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }

  /** Brand-based `instanceof`, so that errors from the other build (ESM/CJS) are recognised. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrandedInstance(this, value);
  }
}
brandClass(RestError, 'RestError');
