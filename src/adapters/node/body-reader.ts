import type { Readable } from 'node:stream';
import { restError } from '../../rest/errors/rest-error-factory';
import { bodyTooLargeError } from '../../rest/http/read-body';
import type { RestError } from '../../rest/http/rest-error';

/** The error for a client that went away before its body arrived (nobody reads the answer). */
function clientGoneError(): RestError {
  return restError('rest_request_aborted', 'The client closed the connection before sending the whole body.');
}

function ignoreError(): void {}

/** What {@link readNodeBody} reports besides the bytes. */
export interface BodyReadState {
  /** Set when reading stopped at the limit: the rest of the body is still on the wire. */
  stoppedEarly: boolean;
}

/**
 * Reads a Node request body (an `IncomingMessage`, or the stream a host framework hands on),
 * counting bytes as they arrive, and stops at `maxBytes`: the stream is paused, not destroyed,
 * so the 413 answer can still be written (the caller then closes the connection, since the rest
 * of the body is unread). The 413 error is the REST layer's own, so every host answers exactly
 * as `server.fetch` does.
 *
 * @throws {@link RestError} 413 `rest_body_too_large` past the limit
 */
export function readNodeBody(stream: Readable, maxBytes: number, state: BodyReadState): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const stopListening = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onGone);
      stream.off('aborted', onGone);
      stream.off('close', onClose);
    };
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += bytes.byteLength;
      chunks.push(bytes);
      if (total > maxBytes) {
        stopListening();
        // Left unread from here on: a later error of the stream (the client resetting) has
        // nobody to tell and must not become an uncaught exception.
        stream.on('error', ignoreError);
        stream.pause();
        state.stoppedEarly = true;
        reject(bodyTooLargeError(maxBytes));
      }
    };
    const onEnd = (): void => {
      stopListening();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onGone = (): void => {
      stopListening();
      reject(clientGoneError());
    };
    const onClose = (): void => {
      if (!stream.readableEnded) onGone();
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onGone);
    stream.on('aborted', onGone);
    stream.on('close', onClose);
  });
}
