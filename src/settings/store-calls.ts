import { OptionStoreError, type OptionStoreOperation } from '../errors/option-store-error';
import type { OptionStore } from '../storage/option-store';

/** The name a store is reported under in errors: its class name. */
export function storeName(store: OptionStore): string {
  const name = (store as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'OptionStore';
}

/** Runs one store call; any failure (rejection or synchronous throw) becomes an {@link OptionStoreError}. */
export async function callStore<T>(
  store: OptionStore,
  operation: OptionStoreOperation,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof OptionStoreError
      ? error
      : new OptionStoreError(operation, { cause: error, store: storeName(store) });
  }
}

/**
 * The one time limit of the settings layer's store calls (`storeTimeoutMs`): rejects with a
 * timed-out {@link OptionStoreError} when `work` has not settled after `timeoutMs` (no limit when
 * it is 0 or not finite). `work` itself goes on — callers that queue operations keep waiting for
 * it, so the order of writes is kept — and when it succeeds after all, `onLateSuccess` runs, so
 * that memory can catch up with a write its caller was told had failed.
 */
export function withStoreTimeout<T>(
  store: OptionStore,
  operation: OptionStoreOperation,
  timeoutMs: number,
  work: Promise<T>,
  onLateSuccess?: () => void,
): Promise<T> {
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) return work;
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(
        new OptionStoreError(operation, {
          store: storeName(store),
          timedOut: true,
          message: `${storeName(store)}.${operation} timed out after ${timeoutMs} ms`,
        }),
      );
    }, timeoutMs);
    work.then(
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
