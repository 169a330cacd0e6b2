/**
 * Keeps a server running until SIGINT (Ctrl+C) or SIGTERM, then runs `close` and exits with
 * code 0 (1 when closing fails or takes longer than `timeoutMs`; a second signal exits at once).
 */
export function runUntilSignal(close: () => Promise<void>, timeoutMs = 10_000): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      console.log(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: shutting down…`);
    // Give up after a while rather than hang (e.g. a database that stopped answering).
    const deadline = setTimeout(() => {
      console.error(`Shutdown took longer than ${timeoutMs / 1000} s; exiting.`);
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    close().then(
      () => {
        console.log('Stopped.');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The `PORT` variable as a port number (default 3000; 0 picks a free port); exits with a message when invalid. */
export function portFromEnv(value: string | undefined, fallback = 3000): number {
  const port = value === undefined || value === '' ? fallback : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number (0 picks a free one), got "${value}"`);
    process.exit(2);
  }
  return port;
}
