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

/** Turns a {@link RestResult} into a Fetch `Response`. */
export function toFetchResponse(result: RestResult): Response {
  if (result.kind === 'response') return result.response;
  return new Response(result.body, { status: result.status, headers: result.headers });
}
