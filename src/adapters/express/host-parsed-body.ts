import type { IncomingMessage } from 'node:http';
import { type BodySource, NO_BODY } from '../node/node-exchange';

/** An Express request: a `node:http` request that a body parser may have read into `body`. */
export interface ParsedIncomingMessage extends IncomingMessage {
  /** What a body parser (`express.json()`, `express.urlencoded()`, …) made of the body. */
  body?: unknown;
}

const URLENCODED = /^application\/x-www-form-urlencoded\b/i;

/** Whether a host middleware has already read the whole body (what body-parser itself checks). */
export function bodyAlreadyRead(req: IncomingMessage): boolean {
  return req.complete && !req.readable;
}

function formBytes(body: object): Uint8Array {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') form.append(name, value);
    else if (Array.isArray(value))
      for (const item of value) if (typeof item === 'string') form.append(name, item);
  }
  return Buffer.from(form.toString());
}

/**
 * The body of a request whose body a host middleware already read, rebuilt from what it made
 * of it, so the REST pipeline checks it as if it had read it itself:
 *
 * - a `Buffer` (`express.raw()`) as it is; a string (`express.text()`) as UTF-8;
 * - a form (`express.urlencoded()`) encoded again, for the admin pages;
 * - anything else (`express.json()`) serialised again with `JSON.stringify`: no second parse
 *   of the original text, and the pipeline still checks that it is an object, its depth and its
 *   `__proto__` keys. The size limit counts the `Content-Length` the client sent when there was
 *   one, else the re-serialised text.
 *
 * Nothing parsed (`req.body` undefined) is no body.
 */
export function hostParsedBody(req: ParsedIncomingMessage): BodySource {
  const { body } = req;
  if (body === undefined) return NO_BODY;
  const declared = Number(req.headers['content-length']);
  const sent = (bytes: Uint8Array): BodySource => ({
    kind: 'bytes',
    bytes,
    sentBytes: Number.isSafeInteger(declared) ? declared : bytes.byteLength,
  });
  if (body instanceof Uint8Array) return sent(body);
  if (typeof body === 'string') return sent(Buffer.from(body));
  if (typeof body === 'object' && body !== null && URLENCODED.test(req.headers['content-type'] ?? '')) {
    return sent(formBytes(body));
  }
  const text = JSON.stringify(body);
  return text === undefined ? NO_BODY : sent(Buffer.from(text));
}
