/**
 * A progress line on standard error for long exports and migrations: shown only on a terminal,
 * redrawn in place at most every 100 ms, and erased when done (so it never mixes with output).
 */
import type { OutputStream } from '../cli-io';

/** A progress line. */
export interface Progress {
  /** Shows `text` (throttled). */
  update(text: string): void;
  /** Erases the line and stops any timer. */
  done(): void;
}

const ERASE = '\r\u001b[K';
const NONE: Progress = { update() {}, done() {} };

/** A progress line on `stream`, or one that shows nothing when it is not a terminal. */
export function progressLine(stream: OutputStream): Progress {
  if (stream.isTTY !== true) return NONE;
  let shown = false;
  let last = 0;
  return {
    update(text) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      shown = true;
      stream.write(`${ERASE}${text}`);
    },
    done() {
      if (shown) stream.write(ERASE);
      shown = false;
    },
  };
}

/**
 * Runs `work` while a line `label… 1.2 s` ticks on `stream` (from half a second on, on a terminal
 * only), then erases it. `label` may be a function, read at each tick (a count that grows).
 */
export async function withElapsed<T>(
  stream: OutputStream,
  label: string | (() => string),
  work: () => Promise<T>,
): Promise<T> {
  const progress = progressLine(stream);
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = (Date.now() - started) / 1000;
    const text = typeof label === 'function' ? label() : label;
    if (seconds >= 0.5) progress.update(`${text}… ${seconds.toFixed(1)} s`);
  }, 100);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    progress.done();
  }
}

/** A byte count for people: `532 B`, `12.4 kB`, `3.1 MB`. */
export function byteText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
