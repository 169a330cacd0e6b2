import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { RestExchange } from '../../rest/http/exchange';
import { bodyTooLargeError } from '../../rest/http/read-body';
import { type BodyReadState, readNodeBody } from './body-reader';
import { headerValue, toFetchHeaders } from './fetch-headers';
import { lazyWebStream } from './lazy-web-stream';
import { type RequestTarget, readRequestTarget, requestOrigin } from './request-target';

/**
 * Where the body of a request comes from: nothing, a stream still to be read (the request
 * itself, or the stream a host framework hands on), or bytes a host framework already read
 * and parsed (rebuilt from its result).
 */
export type BodySource =
  | { readonly kind: 'none' }
  | { readonly kind: 'stream'; readonly stream: Readable }
  | {
      readonly kind: 'bytes';
      readonly bytes: Uint8Array;
      /** How many bytes the client sent (its `Content-Length`), when it differs from the rebuilt bytes. */
      readonly sentBytes: number;
    };

/**
 * The body source of a plain `node:http` request: none for GET and HEAD (as in the Fetch API)
 * and for a request that announces an empty body (`Content-Length: 0`, not chunked), else the
 * request stream.
 */
export function requestBodySource(req: IncomingMessage): BodySource {
  const method = req.method;
  if (method === 'GET' || method === 'HEAD') return NO_BODY;
  const { headers } = req;
  if (headers['content-length'] === '0' && headers['transfer-encoding'] === undefined) return NO_BODY;
  return { kind: 'stream', stream: req };
}

/** The source of a request without a body. */
export const NO_BODY: BodySource = Object.freeze({ kind: 'none' });

/** `RequestInit` with the `duplex` member Node's `fetch` needs for stream bodies. */
type StreamingRequestInit = RequestInit & { duplex?: 'half' };

/**
 * A {@link RestExchange} over a `node:http` request (plain, Express or Fastify), so the REST
 * pipeline runs without a Fetch `Request`: headers become a `Headers` object, and the request a
 * Fetch `Request`, only when someone asks (`authenticate`, admin pages, handlers reading
 * `request.headers`).
 */
export class NodeExchange implements RestExchange {
  readonly method: string;
  readonly pathname: string;
  readonly search: string;
  /** How body reading went: whether it stopped at the limit with the rest unread. */
  readonly bodyState: BodyReadState = { stoppedEarly: false };
  /** Whether anything started reading the body (the pipeline, or an admin page through `toRequest`). */
  bodyTouched = false;
  readonly #req: IncomingMessage;
  readonly #rawTarget: string;
  readonly #protocol: (() => string) | undefined;
  readonly #body: BodySource;
  #url: string | undefined;
  #headers: Headers | undefined;
  #request: Request | undefined;
  /** The bytes read by {@link readBody}, for a `Request` built afterwards. */
  #readBytes: Uint8Array | null = null;

  /**
   * @param req - the incoming request (for method and headers)
   * @param rawTarget - its target as the host routes it (`req.url`, or what is left of it below
   *   a mount point)
   * @param body - where its body comes from
   * @param protocol - gives `http` or `https` as the host sees it (Express and Fastify honour
   *   their proxy settings), asked only when the URL is needed; default: from the socket
   */
  constructor(req: IncomingMessage, rawTarget: string, body: BodySource, protocol?: () => string) {
    this.#req = req;
    this.#rawTarget = rawTarget;
    this.#protocol = protocol;
    this.method = req.method ?? 'GET';
    const target: RequestTarget = readRequestTarget(rawTarget, () => this.#origin());
    this.pathname = target.pathname;
    this.search = target.search;
    this.#url = target.url;
    this.#body = body;
  }

  /** The absolute URL, built on first use. */
  get url(): string {
    this.#url ??= this.#origin() + this.#rawTarget;
    return this.#url;
  }

  #origin(): string {
    return requestOrigin(this.#req, this.#protocol?.());
  }

  header(name: string): string | null {
    return headerValue(this.#req.headers[name]);
  }

  get headers(): Headers {
    this.#headers ??= toFetchHeaders(this.#req.rawHeaders);
    return this.#headers;
  }

  readBody(maxBytes: number): Promise<Uint8Array | null> | null {
    const body = this.#body;
    if (body.kind === 'none') return null;
    this.bodyTouched = true;
    if (body.kind === 'bytes') {
      if (Math.max(body.sentBytes, body.bytes.byteLength) > maxBytes) {
        return Promise.reject(bodyTooLargeError(maxBytes));
      }
      this.#readBytes = body.bytes;
      return Promise.resolve(body.bytes);
    }
    return readNodeBody(body.stream, maxBytes, this.bodyState).then((bytes) => {
      this.#readBytes = bytes;
      return bytes;
    });
  }

  /**
   * Whether reading started but stopped before the end of the body (past the limit, or an admin
   * page that gave up): the rest is still on the wire, so the connection must close after the
   * answer.
   */
  leftBodyUnread(): boolean {
    if (this.bodyState.stoppedEarly) return true;
    const body = this.#body;
    return this.bodyTouched && body.kind === 'stream' && !body.stream.readableEnded;
  }

  toRequest(): Request {
    this.#request ??= this.#buildRequest();
    return this.#request;
  }

  #buildRequest(): Request {
    const init: StreamingRequestInit = { method: this.method, headers: this.headers };
    const body = this.#body;
    if (this.method !== 'GET' && this.method !== 'HEAD' && body.kind !== 'none') {
      if (body.kind === 'bytes') init.body = body.bytes as Uint8Array<ArrayBuffer>;
      else if (this.#readBytes !== null) init.body = this.#readBytes as Uint8Array<ArrayBuffer>;
      else if (!this.bodyTouched) {
        init.body = lazyWebStream(body.stream, () => {
          this.bodyTouched = true;
        });
        init.duplex = 'half';
      }
    }
    return new Request(this.url, init);
  }
}
