import { brandClass, hasBrandedInstance } from './brand';

/** The store operations an {@link OptionStoreError} can name. */
export type OptionStoreOperation =
  | 'get'
  | 'getMany'
  | 'set'
  | 'delete'
  | 'watch'
  | 'connect'
  | 'close'
  | (string & {});

/**
 * A store failed (rejected or timed out). The settings layer wraps every store rejection in
 * one, with the original error as `cause`, and leaves its in-memory state as it was before the
 * call. The REST layer answers it with 503 `rest_store_unavailable`, without its details.
 */
export class OptionStoreError extends Error {
  /** The operation that failed: `get`, `getMany`, `set`, `delete`, … */
  readonly operation: OptionStoreOperation;
  /** The store that failed, e.g. `PostgresOptionStore`, when known. */
  readonly store: string | undefined;
  /** True when the operation did not answer in time. */
  readonly timedOut: boolean;

  /**
   * @param operation - the store operation that failed
   * @param options - `cause`: the original error; `store`: the store's name; `timedOut`; `message` to override the default
   */
  constructor(
    operation: OptionStoreOperation,
    options: { cause?: unknown; store?: string; timedOut?: boolean; message?: string } = {},
  ) {
    const where = options.store ? `${options.store}.${operation}` : `option store ${operation}`;
    const what = options.timedOut ? 'timed out' : 'failed';
    const reason =
      options.cause instanceof Error
        ? `: ${options.cause.message}`
        : options.cause
          ? `: ${String(options.cause)}`
          : '';
    super(options.message ?? `${where} ${what}${reason}`, { cause: options.cause });
    this.name = 'OptionStoreError';
    this.operation = operation;
    this.store = options.store;
    this.timedOut = options.timedOut ?? false;
  }

  /** Brand-based `instanceof`, so that errors from the other build (ESM/CJS) are recognised. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrandedInstance(this, value);
  }
}
brandClass(OptionStoreError, 'OptionStoreError');
