/**
 * Polls `condition` until it holds or `timeoutMs` has passed; resolves to whether it held.
 * Waits are bounded: nothing in the suite asserts how fast a store is, only that it gets
 * there within a generous limit.
 */
export async function waitUntil(
  condition: () => boolean,
  timeoutMs: number,
  intervalMs = 10,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
