import { OptionStoreError, type OptionStoreOperation } from '../errors/option-store-error';
import type { OptionStore } from '../storage/option-store';

/** The name a store is reported under in errors: its class name. */
export function storeName(store: OptionStore): string {
  const name = (store as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'OptionStore';
}

/** Runs one store call; any failure (rejection or synchronous throw) becomes an {@link OptionStoreError}. */
export function callStore<T>(
  store: OptionStore,
  operation: OptionStoreOperation,
  call: () => Promise<T>,
): Promise<T> {
  const wrap = (error: unknown) =>
    error instanceof OptionStoreError
      ? error
      : new OptionStoreError(operation, { cause: error, store: storeName(store) });
  try {
    return call().then(undefined, (error: unknown) => {
      throw wrap(error);
    });
  } catch (error) {
    return Promise.reject(wrap(error));
  }
}

/** A store call that has a deadline. */
interface PendingCall {
  readonly deadline: number;
  /** Rejects the call's promise with the timed-out error. */
  readonly expire: () => void;
}

/**
 * The one time limit of a settings container's store calls (`storeTimeoutMs`), kept with ONE
 * timer for all of them instead of a timer per call: arming and clearing a timer per store
 * call cost more than the rest of the call's bookkeeping on a path that runs once per change.
 * Every call gets the same limit, so the calls in flight expire in the order they started: the
 * timer is armed for the oldest one and, when it fires, rejects the calls whose time is up and
 * is armed again for the next. A call that settles just leaves the set; the timer is not
 * cleared (it fires at most once per `timeoutMs` while calls keep coming, finds nothing due,
 * and is armed again only when some call is still in flight). The timer is `unref`'d: it
 * never keeps a process alive by itself.
 */
export class StoreDeadlines {
  readonly #store: OptionStore;
  readonly #timeoutMs: number;
  readonly #pending = new Set<PendingCall>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param store - the store, named in timed-out errors
   * @param timeoutMs - the limit in ms; 0 or not finite: none (calls are passed through)
   */
  constructor(store: OptionStore, timeoutMs: number) {
    this.#store = store;
    this.#timeoutMs = timeoutMs > 0 && Number.isFinite(timeoutMs) ? timeoutMs : 0;
  }

  /**
   * Rejects with a timed-out {@link OptionStoreError} when `work` has not settled after the
   * limit. `work` itself goes on — callers that queue operations keep waiting for it, so the
   * order of writes is kept — and when it succeeds after all, `onLateSuccess` runs, so that
   * memory can catch up with a write its caller was told had failed.
   */
  run<T>(operation: OptionStoreOperation, work: Promise<T>, onLateSuccess?: () => void): Promise<T> {
    const timeoutMs = this.#timeoutMs;
    if (timeoutMs === 0) return work;
    return new Promise<T>((resolve, reject) => {
      let timedOut = false;
      const name = storeName(this.#store);
      const pending: PendingCall = {
        deadline: Date.now() + timeoutMs,
        expire: () => {
          timedOut = true;
          reject(
            new OptionStoreError(operation, {
              store: name,
              timedOut: true,
              message: `${name}.${operation} timed out after ${timeoutMs} ms`,
            }),
          );
        },
      };
      this.#pending.add(pending);
      if (this.#timer === undefined) this.#arm(timeoutMs);
      work.then(
        (value) => {
          if (timedOut) onLateSuccess?.();
          else {
            this.#pending.delete(pending);
            resolve(value);
          }
        },
        (error: unknown) => {
          if (timedOut) return;
          this.#pending.delete(pending);
          reject(error);
        },
      );
    });
  }

  #arm(delay: number): void {
    const timer = setTimeout(() => this.#sweep(), delay);
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }

  /** Expires the calls whose time is up (the oldest first) and arms the timer for the next one. */
  #sweep(): void {
    this.#timer = undefined;
    const now = Date.now();
    for (const pending of this.#pending) {
      if (pending.deadline > now) {
        this.#arm(pending.deadline - now);
        return;
      }
      this.#pending.delete(pending);
      pending.expire();
    }
  }
}
