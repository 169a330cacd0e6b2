import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RestErrorCode } from '../../rest/errors/error-catalogue';
import { JSON_CONTENT_TYPE, REST_RESPONSE_HEADERS, type RestResult } from '../../rest/http/rest-result';

/** The body of a failure outside the pipeline (the pipeline itself never rejects). */
const INTERNAL_ERROR_BODY = JSON.stringify({
  code: 'rest_internal_error' satisfies RestErrorCode,
  message: 'The server could not answer the request.',
  data: { status: 500 },
});

/**
 * Writes a pipeline result to a `node:http` response: status and headers exactly as
 * `server.fetch` would answer them, the JSON text as it is (with its `Content-Length`), no body
 * for HEAD. A `Response` result (admin pages, handlers returning a `Response`) is streamed: only
 * then is a promise returned.
 *
 * @param closeConnection - ask Node to close the connection after the answer (the request body
 *   was left unread, e.g. after a 413)
 */
export function writeResult(
  res: ServerResponse,
  result: RestResult,
  isHead: boolean,
  closeConnection: boolean,
): Promise<void> | undefined {
  if (closeConnection) res.setHeader('connection', 'close');
  if (result.kind === 'json') {
    const { body, headers } = result;
    // A flat [name, value, …] list: the cheapest form for `writeHead` (no per-header `setHeader`,
    // no iteration of an object built per request).
    const list: (string | number)[] = [];
    for (const name in headers) list.push(name, headers[name]!);
    if (body === null) {
      res.writeHead(result.status, list);
      res.end();
      return undefined;
    }
    list.push('content-length', Buffer.byteLength(body));
    res.writeHead(result.status, list);
    res.end(isHead ? undefined : body);
    return undefined;
  }
  return writeResponse(res, result.response, isHead);
}

/** Writes a Fetch `Response` to a `node:http` response, keeping repeated `Set-Cookie` headers. */
export async function writeResponse(res: ServerResponse, response: Response, isHead: boolean): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  const body = response.body;
  if (body === null || isHead) {
    if (body !== null) await body.cancel();
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>), res);
}

/** Answers 500 `rest_internal_error` when something failed outside the pipeline, unless the answer has started. */
export function writeInternalError(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, {
    ...REST_RESPONSE_HEADERS,
    'content-type': JSON_CONTENT_TYPE,
    'content-length': Buffer.byteLength(INTERNAL_ERROR_BODY),
  });
  res.end(INTERNAL_ERROR_BODY);
}
