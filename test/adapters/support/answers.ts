import { request as httpRequest } from 'node:http';
import type { RestServer } from 'commerce-plugin-framework';
import { caseHeaders, casePieces, type ParityCase } from './parity-cases';

/** What a client saw: status, the headers that matter, the body (parsed when JSON). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Headers a host or its transport adds or manages on its own (framing, connection, dates,
 * `X-Powered-By`): not compared. Everything else must be equal.
 */
const TRANSPORT_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-powered-by',
]);

function answer(status: number, headers: Iterable<[string, string]>, text: string): Answer {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) if (!TRANSPORT_HEADERS.has(name)) kept[name] = value;
  let body: unknown = text;
  if ((kept['content-type'] ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status, headers: kept, body };
}

/** Sends a case straight to `server.fetch`, as a Fetch `Request` (streamed for chunked bodies). */
export async function viaFetch(server: RestServer, origin: string, testCase: ParityCase): Promise<Answer> {
  const headers = caseHeaders(testCase);
  const init: RequestInit & { duplex?: 'half' } = { method: testCase.method, headers };
  const body = testCase.body;
  if (body !== undefined) {
    const pieces = await casePieces(body);
    const endless = 'declared' in body;
    init.body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
        if (!endless) controller.close();
      },
    });
    init.duplex = 'half';
  }
  const response = await server.fetch(new Request(`${origin}${testCase.path}`, init));
  return answer(response.status, response.headers, await response.text());
}

/**
 * Sends a case over HTTP/1.1 with `node:http` (exact request line, Content-Length or chunked as
 * the case says; a "declared" body is never finished: the answer must come anyway).
 */
export async function viaHttp(origin: string, testCase: ParityCase): Promise<Answer> {
  const url = new URL(origin);
  const headers = caseHeaders(testCase);
  const body = testCase.body;
  const pieces = body === undefined ? [] : await casePieces(body);
  if (body !== undefined) {
    if ('declared' in body) headers['content-length'] = String(body.declared);
    else if (!('chunks' in body)) headers['content-length'] = String(Buffer.byteLength(pieces.join('')));
  }
  return new Promise<Answer>((resolve, reject) => {
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      method: testCase.method,
      path: testCase.path,
      headers,
      agent: false,
    });
    let answered = false;
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        answered = true;
        const pairs: [string, string][] = [];
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) pairs.push([name, Array.isArray(value) ? value.join(', ') : value]);
        }
        resolve(answer(response.statusCode ?? 0, pairs, Buffer.concat(chunks).toString('utf8')));
        request.destroy();
      });
    });
    // A server that stops reading a body and closes may reset the connection under a client
    // still writing: only an error before the answer counts.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    for (const piece of pieces) request.write(piece);
    if (body === undefined || !('declared' in body)) request.end();
  });
}
