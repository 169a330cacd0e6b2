/** How a lost LISTEN connection is retried: exponential backoff between two bounds. */
export interface ReconnectOptions {
  /** The wait before the first retry, in ms. Default 100. */
  initialDelayMs?: number;
  /** The longest wait between two retries, in ms. Default 5000. */
  maxDelayMs?: number;
}

const DEFAULT_INITIAL_DELAY_MS = 100;
const DEFAULT_MAX_DELAY_MS = 5_000;

/**
 * The wait before retry number `attempt` (0 for the first): the initial delay doubled per
 * attempt, capped at the maximum, with up to half of it taken off at random so that many
 * instances that lost their connections together do not reconnect in lockstep.
 */
export function reconnectDelay(attempt: number, options: ReconnectOptions = {}): number {
  const initial = Math.max(1, options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS);
  const max = Math.max(initial, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  const full = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(full / 2 + (Math.random() * full) / 2);
}
