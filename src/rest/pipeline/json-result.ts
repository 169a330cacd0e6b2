import { JsonText } from '../http/json-text';
import { RestResponse } from '../http/rest-response';
import {
  JSON_CONTENT_TYPE,
  REST_RESPONSE_HEADERS,
  type RestResult,
  withRestResponseHeaders,
} from '../http/rest-result';

/** The headers of a JSON answer: content type, {@link REST_RESPONSE_HEADERS}, then the answer's own (its `Cache-Control` wins). */
function jsonHeaders(extra?: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': JSON_CONTENT_TYPE,
    'cache-control': REST_RESPONSE_HEADERS['cache-control']!,
  };
  if (extra) for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
  headers['x-content-type-options'] = REST_RESPONSE_HEADERS['x-content-type-options']!;
  return headers;
}

/** A JSON result: status, the REST headers plus `extra`, the JSON text (`null`: no body). */
export function jsonResult(
  status: number,
  body: string | null,
  extra?: Readonly<Record<string, string>>,
): RestResult {
  return { kind: 'json', status, headers: jsonHeaders(extra), body };
}

/** A result without its body (HEAD). */
export function withoutBody(result: RestResult): RestResult {
  return result.kind === 'json' ? { ...result, body: null } : result;
}

/** A handler's return value as a result: `RestResponse` for status and headers, a `Response` as is, anything else 200 JSON. */
export function toResult(value: unknown): RestResult {
  if (value instanceof RestResponse) {
    const noBody = value.status === 204 || value.status === 205 || value.status === 304;
    return jsonResult(value.status, noBody ? null : stringify(value.body), value.headers);
  }
  if (value instanceof Response) return { kind: 'response', response: withRestResponseHeaders(value) };
  return jsonResult(200, stringify(value));
}

function stringify(value: unknown): string {
  if (value instanceof JsonText) return value.text;
  return JSON.stringify(value) ?? 'null';
}
