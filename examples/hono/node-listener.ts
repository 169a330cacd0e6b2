import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A Fetch-API handler: what Hono's `app.fetch` (and `server.fetch`) is. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

function safeHost(host: string | undefined): string {
  return host !== undefined && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : 'localhost';
}

/**
 * The request body as a Fetch stream that reads the Node request only when pulled, and that,
 * when its reader gives up early (a 413), pauses the request instead of destroying it, so the
 * answer can still be written; `onAbandoned` then asks for the connection to close.
 */
function bodyStream(req: IncomingMessage, onAbandoned: () => void): ReadableStream<Uint8Array> {
  let iterator: AsyncIterator<Buffer> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        iterator ??= req[Symbol.asyncIterator]();
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      cancel() {
        req.pause();
        onAbandoned();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Serves a Fetch-API handler (a Hono app's `fetch`) with `node:http`: a small stand-in for
 * `@hono/node-server`, enough for the example and its tests. On Bun, Deno or an edge runtime,
 * export the Hono app instead.
 */
export function nodeListener(handler: FetchHandler): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    let closeAfter = false;
    const method = req.method ?? 'GET';
    const toRequest = (): Request => {
      const headers = new Headers();
      for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
        headers.append(req.rawHeaders[index]!, req.rawHeaders[index + 1]!);
      }
      const hasBody = method !== 'GET' && method !== 'HEAD';
      return new Request(`http://${safeHost(req.headers.host)}${req.url ?? '/'}`, {
        method,
        headers,
        ...(hasBody
          ? {
              body: bodyStream(req, () => {
                closeAfter = true;
              }),
              duplex: 'half',
            }
          : {}),
      } as RequestInit);
    };
    // Everything inside the promise chain: a request the Fetch API refuses is a 400, not a crash.
    Promise.resolve()
      .then(toRequest)
      .then(
        (request) => handler(request),
        () => new Response('Bad Request', { status: 400 }),
      )
      .then(async (response) => {
        if (closeAfter) res.setHeader('connection', 'close');
        res.statusCode = response.status;
        for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) res.setHeader('set-cookie', cookies);
        if (response.body === null || method === 'HEAD') {
          res.end();
          return;
        }
        await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res);
      })
      .catch(() => {
        if (res.headersSent) res.destroy();
        else res.writeHead(500).end();
      });
  };
}
