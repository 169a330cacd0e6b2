import { restError } from '../errors/rest-error-factory';
import type { RestError } from './rest-error';

/** The error for a body over the limit: 413 `rest_body_too_large`. */
export function bodyTooLargeError(maxBytes: number): RestError {
  return restError('rest_body_too_large', `The request body is larger than the limit of ${maxBytes} bytes.`, {
    max_bytes: maxBytes,
  });
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a request body stream, counting bytes as they arrive. Stops reading (and cancels the
 * stream) as soon as more than `maxBytes` arrived, whatever `Content-Length` said.
 *
 * @returns the body bytes (empty when the stream was empty)
 * @throws {@link RestError} 413 `rest_body_too_large`
 */
export async function readStreamWithin(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        throw bodyTooLargeError(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return concat(chunks, total);
}

/**
 * Reads body chunks from an async iterable (a `node:http` request, say) with the same limit
 * as {@link readStreamWithin}. Once over the limit it stops pulling chunks and rejects, but does
 * NOT end the source (a `for await` exit would destroy a Node stream, and its socket, before the
 * 413 could be written): answer first, then drain or close the request.
 */
export async function readChunksWithin(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const collected: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) throw bodyTooLargeError(maxBytes);
    collected.push(value);
  }
  return concat(collected, total);
}
