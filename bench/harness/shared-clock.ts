/**
 * A clock that several processes on one machine read alike: `process.hrtime` is the system's
 * monotonic clock (`CLOCK_MONOTONIC` on Linux), the same in every process, so a time taken in
 * one process can be subtracted from a time taken in another. Times are nanoseconds since a
 * base the processes agree on (the parent's reading when it starts the children), so they stay
 * exact as JavaScript numbers however long the machine has been up.
 */

/** A reading of the monotonic clock, as text (for IPC), to serve as the common base. */
export function clockBase(): string {
  return process.hrtime.bigint().toString();
}

/** A function returning the nanoseconds since `base` (a {@link clockBase} reading). */
export function sharedClock(base: string): () => number {
  const origin = BigInt(base);
  return () => Number(process.hrtime.bigint() - origin);
}
