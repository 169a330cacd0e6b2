import { OptionStoreError, type OptionStoreOperation } from '../../errors/option-store-error';

/** What {@link runStoreOperation} needs to know about the store running the operation. */
export interface StoreOperationContext {
  /** The store's name for error messages, e.g. `PostgresOptionStore`. */
  readonly store: string;
  /** How long the operation may take; 0 or a non-finite number: no limit. */
  readonly timeoutMs: number;
}

/**
 * Runs one store operation: a failure (rejection or synchronous throw) becomes an
 * {@link OptionStoreError} naming the store and the operation, with the original error as
 * `cause`; an operation that has not settled after `timeoutMs` rejects with a timed-out one.
 *
 * A timed-out operation is not cancelled (a driver cannot take back a command it sent): when
 * it resolves later anyway, `onLateSuccess` runs, so that the store can tell its own
 * subscribers about a write whose caller was told it failed.
 */
export function runStoreOperation<T>(
  context: StoreOperationContext,
  operation: OptionStoreOperation,
  work: () => Promise<T>,
  onLateSuccess?: () => void,
): Promise<T> {
  const { store, timeoutMs } = context;
  let running: Promise<T>;
  try {
    running = work();
  } catch (error) {
    running = Promise.reject(error);
  }
  const wrapped = running.catch((error: unknown) => {
    throw error instanceof OptionStoreError
      ? error
      : new OptionStoreError(operation, { cause: error, store });
  });
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) return wrapped;

  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(
        new OptionStoreError(operation, {
          store,
          timedOut: true,
          message: `${store}.${operation} timed out after ${timeoutMs} ms (its outcome is unknown)`,
        }),
      );
    }, timeoutMs);
    wrapped.then(
      (value) => {
        clearTimeout(timer);
        if (timedOut) onLateSuccess?.();
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(error);
      },
    );
  });
}

/** The error for an operation on a store that was closed. */
export function closedStoreError(store: string, operation: OptionStoreOperation): OptionStoreError {
  return new OptionStoreError(operation, {
    store,
    cause: new Error('the store is closed'),
    message: `${store}.${operation} failed: the store is closed`,
  });
}

/**
 * Checks an operation's arguments before it runs: `check` answers them as the store reads them
 * (defaults applied, a cursor parsed) or throws a `TypeError`, which rejects the operation as it
 * is — a caller's mistake, not a store failure — before anything is sent.
 */
export function withCheckedArguments<A, T>(check: () => A, run: (checked: A) => Promise<T>): Promise<T> {
  let checked: A;
  try {
    checked = check();
  } catch (error) {
    return Promise.reject(error);
  }
  return run(checked);
}
