import type { Readable } from 'node:stream';

/**
 * A Fetch `ReadableStream` over a Node stream that touches the Node stream only when someone
 * reads (`highWaterMark: 0`: nothing is pulled ahead). Until then the Node stream stays
 * untouched, so a host framework can still hand the request to its next handler.
 *
 * @param onFirstRead - called once, when the first chunk is asked for
 */
export function lazyWebStream(stream: Readable, onFirstRead: () => void): ReadableStream<Uint8Array> {
  let iterator: AsyncIterator<Uint8Array | string> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (iterator === null) {
          onFirstRead();
          iterator = stream[Symbol.asyncIterator]();
        }
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(typeof value === 'string' ? new TextEncoder().encode(value) : value);
      },
      async cancel() {
        // Stop reading without destroying the stream (which would close the socket before the
        // answer is written): pause it; the caller closes the connection after answering.
        stream.pause();
      },
    },
    { highWaterMark: 0 },
  );
}
