import { OptionStoreError, type OptionStoreOperation } from '../errors/option-store-error';
import type { OptionStore } from '../storage/option-store';

/** The name a store is reported under in errors: its class name. */
export function storeName(store: OptionStore): string {
  const name = (store as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'OptionStore';
}

/** `error` as the {@link OptionStoreError} of `operation` on `store` (an `OptionStoreError` as it is). */
function storeCallError(
  error: unknown,
  store: OptionStore,
  operation: OptionStoreOperation,
): OptionStoreError {
  return error instanceof OptionStoreError
    ? error
    : new OptionStoreError(operation, { cause: error, store: storeName(store) });
}

/** Runs one store call; any failure (rejection or synchronous throw) becomes an {@link OptionStoreError}. */
export function callStore<T>(
  store: OptionStore,
  operation: OptionStoreOperation,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return call().then(undefined, (error: unknown) => {
      throw storeCallError(error, store, operation);
    });
  } catch (error) {
    return Promise.reject(storeCallError(error, store, operation));
  }
}

/** A store call that has a deadline. */
interface PendingCall {
  readonly deadline: number;
  readonly operation: OptionStoreOperation;
  /** Rejects the call's promise. */
  readonly reject: (error: unknown) => void;
  /** The deadline passed (the call was rejected). */
  timedOut: boolean;
  /** Its own timer, where the calls have one each (see {@link StoreDeadlines}). */
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * How long past its time the shared timer may be before a call takes it for lost. A timer that
 * is late because the event loop was busy fires as soon as the loop is free; one that is this
 * late while store calls keep coming was dropped by the runtime.
 */
export const LOST_TIMER_MS = 1000;

/**
 * Whether timers here end with the request that set them: Cloudflare Workers (workerd) drop a
 * request's pending timers when it ends, so a timer shared by calls of several requests cannot
 * be trusted. Recognised by `navigator.userAgent`, which Workers set to `Cloudflare-Workers`.
 */
function timersEndWithRequests(): boolean {
  const navigator = (globalThis as { navigator?: { userAgent?: unknown } }).navigator;
  return navigator?.userAgent === 'Cloudflare-Workers';
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
 *
 * Where the runtime drops a request's timers when the request ends (Cloudflare Workers), the
 * shared timer would die with the request that armed it while calls of later requests still
 * count on it. There each call has a timer of its own, armed in its own request and cleared
 * when it settles. Elsewhere, a call that finds the shared timer more than {@link LOST_TIMER_MS}
 * past its time takes it for lost (a runtime that drops timers too): it expires the calls whose
 * time is up and switches the container to a timer per call.
 */
export class StoreDeadlines {
  readonly #store: OptionStore;
  readonly #timeoutMs: number;
  /** The calls the shared timer serves, oldest first (empty once there is a timer per call). */
  readonly #pending = new Set<PendingCall>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the shared timer should fire. */
  #due = 0;
  /** A timer per call instead of the shared one. */
  #perCall: boolean;

  /**
   * @param store - the store, named in timed-out errors
   * @param timeoutMs - the limit in ms; 0 or not finite: none (calls are passed through)
   */
  constructor(store: OptionStore, timeoutMs: number) {
    this.#store = store;
    this.#timeoutMs = timeoutMs > 0 && Number.isFinite(timeoutMs) ? timeoutMs : 0;
    this.#perCall = timersEndWithRequests();
  }

  /**
   * Rejects with a timed-out {@link OptionStoreError} when `work` has not settled after the
   * limit. `work` itself goes on — callers that queue operations keep waiting for it, so the
   * order of writes is kept — and when it succeeds after all, `onLateSuccess` runs, so that
   * memory can catch up with a write its caller was told had failed.
   */
  run<T>(operation: OptionStoreOperation, work: Promise<T>, onLateSuccess?: () => void): Promise<T> {
    if (this.#timeoutMs === 0) return work;
    return new Promise<T>((resolve, reject) => {
      const now = Date.now();
      const pending: PendingCall = { deadline: now + this.#timeoutMs, operation, reject, timedOut: false };
      this.#track(pending, now);
      work.then(
        (value) => {
          if (pending.timedOut) onLateSuccess?.();
          else {
            this.#settle(pending);
            resolve(value);
          }
        },
        (error: unknown) => {
          if (pending.timedOut) return;
          this.#settle(pending);
          reject(error);
        },
      );
    });
  }

  /** Rejects `pending` with the timed-out error. */
  #expire(pending: PendingCall): void {
    pending.timedOut = true;
    const name = storeName(this.#store);
    pending.reject(
      new OptionStoreError(pending.operation, {
        store: name,
        timedOut: true,
        message: `${name}.${pending.operation} timed out after ${this.#timeoutMs} ms`,
      }),
    );
  }

  /** Puts a new call under a timer: the shared one (armed if none is), else its own. */
  #track(pending: PendingCall, now: number): void {
    if (!this.#perCall && this.#timer !== undefined && now > this.#due + LOST_TIMER_MS) this.#timerLost(now);
    if (this.#perCall) {
      pending.timer = this.#arm(this.#timeoutMs, () => this.#expire(pending));
      return;
    }
    this.#pending.add(pending);
    if (this.#timer === undefined) this.#armShared(now, this.#timeoutMs);
  }

  /** A call settled in time: it leaves the shared set, or its own timer is cleared. */
  #settle(pending: PendingCall): void {
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    else this.#pending.delete(pending);
  }

  /** The shared timer never fired: expire what is due, give every other call a timer of its own. */
  #timerLost(now: number): void {
    this.#perCall = true;
    this.#timer = undefined;
    for (const pending of this.#pending) {
      if (pending.deadline <= now) this.#expire(pending);
      else pending.timer = this.#arm(pending.deadline - now, () => this.#expire(pending));
    }
    this.#pending.clear();
  }

  #arm(delay: number, callback: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(callback, delay);
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  #armShared(now: number, delay: number): void {
    this.#due = now + delay;
    const timer = this.#arm(delay, () => {
      // A shared timer taken for lost that fires after all has nothing left to do.
      if (this.#timer === timer) this.#sweep();
    });
    this.#timer = timer;
  }

  /** Expires the calls whose time is up (the oldest first) and arms the timer for the next one. */
  #sweep(): void {
    this.#timer = undefined;
    const now = Date.now();
    for (const pending of this.#pending) {
      if (pending.deadline > now) {
        this.#armShared(now, pending.deadline - now);
        return;
      }
      this.#pending.delete(pending);
      this.#expire(pending);
    }
  }
}
