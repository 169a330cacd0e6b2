/**
 * Serialises operations per key: an operation on a set of keys starts after every earlier
 * operation on any of those keys has settled. Writes, deletes and re-reads of one setting
 * therefore reach the store, and then memory, in the order they were asked for, so memory
 * and store agree on the last one.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `operation` once every earlier operation on `keys` has settled; resolves or rejects with it. */
  run<T>(keys: readonly string[], operation: () => Promise<T>): Promise<T> {
    const earlier: Promise<unknown>[] = [];
    for (const key of keys) {
      const tail = this.#tails.get(key);
      if (tail) earlier.push(tail);
    }
    const result =
      earlier.length === 0
        ? operation()
        : (earlier.length === 1 ? earlier[0]! : Promise.all(earlier)).then(operation);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    for (const key of keys) this.#tails.set(key, tail);
    void tail.then(() => {
      for (const key of keys) if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Whether an operation on `key` is queued or running. */
  isBusy(key: string): boolean {
    return this.#tails.has(key);
  }
}
