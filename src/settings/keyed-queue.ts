/**
 * Serialises operations per key: an operation on a set of keys starts after every earlier
 * operation on any of those keys has settled. Writes, deletes and re-reads of one setting
 * therefore reach the store, and then memory, in the order they were asked for, so memory
 * and store agree on the last one.
 *
 * Each operation costs one extra promise (its tail, which never rejects, so that a failed
 * operation does not stop the next) and one callback, which removes the keys the operation
 * still holds as it settles: a key of no pending operation is not in the map.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `operation` once every earlier operation on `keys` has settled; resolves or rejects with it. */
  run<T>(keys: readonly string[], operation: () => Promise<T>): Promise<T> {
    const tails = this.#tails;
    let first: Promise<void> | undefined;
    let earlier: Promise<void>[] | undefined;
    for (const key of keys) {
      const tail = tails.get(key);
      if (tail === undefined || tail === first) continue;
      if (first === undefined) first = tail;
      else if (earlier === undefined) earlier = [first, tail];
      else earlier.push(tail);
    }
    const result =
      first === undefined
        ? operation()
        : (earlier === undefined ? first : Promise.all(earlier)).then(operation);
    const tail: Promise<void> = result.then(
      () => this.#release(keys, tail),
      () => this.#release(keys, tail),
    );
    for (const key of keys) tails.set(key, tail);
    return result;
  }

  /** An operation settled: the keys whose last operation it was are free. */
  #release(keys: readonly string[], tail: Promise<void>): void {
    for (const key of keys) if (this.#tails.get(key) === tail) this.#tails.delete(key);
  }

  /** Whether an operation on `key` is queued or running. */
  isBusy(key: string): boolean {
    return this.#tails.has(key);
  }
}
