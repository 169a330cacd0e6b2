/**
 * The nonces used within the timestamp window, per consumer key: a request signed with a
 * nonce already used is a replay. A nonce is remembered for as long as its request's timestamp
 * would be accepted; forgotten ones are swept at most once a second.
 */
export class NonceCache {
  readonly #windowSeconds: number;
  /** `key nonce` → when its timestamp stops being accepted, in seconds. */
  readonly #expiries = new Map<string, number>();
  #lastSweep = 0;

  /** @param windowSeconds - how far a timestamp may be from the server's clock */
  constructor(windowSeconds: number) {
    this.#windowSeconds = windowSeconds;
  }

  /**
   * Records a nonce; `false` when it was already used with this key.
   *
   * @param timestamp - the request's `oauth_timestamp`, in seconds (already checked against the window)
   * @param now - the current time, in seconds
   */
  use(consumerKey: string, nonce: string, timestamp: number, now: number): boolean {
    if (now > this.#lastSweep) {
      this.#lastSweep = now;
      for (const [entry, expiry] of this.#expiries) if (expiry < now) this.#expiries.delete(entry);
    }
    const entry = `${consumerKey} ${nonce}`;
    if (this.#expiries.has(entry)) return false;
    this.#expiries.set(entry, timestamp + this.#windowSeconds);
    return true;
  }
}
