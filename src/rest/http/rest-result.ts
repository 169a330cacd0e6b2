/**
 * What the dispatch pipeline answers, before it becomes a Fetch `Response`: adapters may write
 * it to their host's response directly (`kind: 'json'`), or pass a ready `Response` on
 * (`kind: 'response'`, e.g. an admin page or a handler that returned a `Response`).
 */
export type RestResult =
  | {
      /** A JSON (or empty) answer the adapter writes itself. */
      readonly kind: 'json';
      /** The HTTP status. */
      readonly status: number;
      /** Response headers, `content-type` included when there is a body. */
      readonly headers: Readonly<Record<string, string>>;
      /** The JSON text, or `null` for no body (HEAD, 204). */
      readonly body: string | null;
    }
  | {
      /** A ready Fetch `Response`, passed on as it is. */
      readonly kind: 'response';
      /** The response to send: status, headers and body included. */
      readonly response: Response;
    };

/** The `Content-Type` of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The headers every REST answer carries (successes, errors, OPTIONS, indexes): answers hold
 * settings and secrets, so no cache keeps them (a handler's own `Cache-Control` wins), and no
 * browser reads a JSON answer as anything else.
 */
export const REST_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
});

/**
 * A handler's Fetch `Response` with {@link REST_RESPONSE_HEADERS} added: `Cache-Control` when
 * it has none, `X-Content-Type-Options` always.
 */
export function withRestResponseHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  if (!headers.has('cache-control')) headers.set('cache-control', REST_RESPONSE_HEADERS['cache-control']!);
  headers.set('x-content-type-options', REST_RESPONSE_HEADERS['x-content-type-options']!);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Turns a {@link RestResult} into a Fetch `Response`. */
export function toFetchResponse(result: RestResult): Response {
  if (result.kind === 'response') return result.response;
  return new Response(result.body, { status: result.status, headers: result.headers });
}
