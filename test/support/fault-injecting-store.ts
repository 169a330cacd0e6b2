/**
 * A fault-injecting `OptionStore` for reliability tests: it wraps any real store (memory,
 * PGlite, PostgreSQL, Redis) and, per call, passes it through, fails it, delays it or never
 * answers it, as a schedule decides. Schedules are plain functions of the call (its index,
 * operation and keys), so a seeded schedule gives the same faults for the same call order.
 *
 * Failures are injected BEFORE the wrapped store is called: a call that rejects with an
 * injected fault did not reach the store, so its write is known not to have happened. That is
 * what lets a test say "a rejected write is never visible". (A real store can also fail after
 * applying a write — a lost acknowledgement — and a timed-out write may still land; such
 * outcomes are unknown, not rejected, and are tested separately; the `fail-after` fault models
 * the lost acknowledgement.)
 *
 * The optional store capabilities (`commit`, `readLog`, `listKeys`) are hidden by default, so the
 * settings layer sees a store without them; `{ capabilities: true }` forwards them (with faults)
 * when the wrapped store has them.
 */
import type { OptionStore, StoreCommit, StoreCommitResult } from 'commerce-plugin-framework';

/** The store operations a schedule sees. */
export type FaultOperation = 'get' | 'getMany' | 'set' | 'delete' | 'commit' | 'readLog' | 'listKeys';

/** One call as the schedule sees it. */
export interface FaultCall {
  /** 0-based, counting every call of this wrapper in the order they were made. */
  readonly index: number;
  readonly operation: FaultOperation;
  /** The key, or the keys of a `getMany`. */
  readonly keys: readonly string[];
  /** The value of a `set`. */
  readonly value?: string;
}

/** What happens to one call. */
export type Fault =
  /** Forwarded at once. */
  | { readonly kind: 'pass' }
  /** Rejected with `error` (default: an `Error` saying it was injected) without reaching the store. */
  | { readonly kind: 'fail'; readonly error?: unknown }
  /** Forwarded, then rejected with an injected error whatever the store answered: a lost acknowledgement. */
  | { readonly kind: 'fail-after' }
  /** Waits `beforeMs`, forwards, then waits `afterMs` before answering with the store's answer. */
  | { readonly kind: 'delay'; readonly beforeMs: number; readonly afterMs: number }
  /** Never answers and never reaches the store (until {@link FaultInjectingStore.releaseHung}). */
  | { readonly kind: 'hang' };

/** Decides the fault of each call. */
export type FaultSchedule = (call: FaultCall) => Fault;

/** A recorded call and how it ended. */
export interface FaultRecord extends FaultCall {
  readonly fault: Fault;
  /** `pending` until it settles. */
  outcome: 'pending' | 'resolved' | 'rejected';
}

/** The fault that changes nothing. */
export const PASS: Fault = Object.freeze({ kind: 'pass' });

/** A schedule with no faults. */
export const noFaults: FaultSchedule = () => PASS;

/**
 * A small seeded PRNG (mulberry32): the same seed gives the same sequence on every platform.
 * Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rates of a {@link seededSchedule}. */
export interface SeededScheduleOptions {
  /** Probability that a call of one of `operations` fails. */
  readonly failRate?: number;
  /** Probability that a call (that does not fail) is delayed. */
  readonly delayRate?: number;
  /** Longest delay before or after the forwarded call, in ms. */
  readonly maxDelayMs?: number;
  /** The operations that may fail; default `set` and `delete`. Every operation may be delayed. */
  readonly operations?: readonly FaultOperation[];
}

/**
 * A schedule driven by a seeded PRNG: call N gets the N-th draw, so a run with the same call
 * order gets the same faults. Print the seed in the test so a failure can be replayed.
 */
export function seededSchedule(seed: number, options: SeededScheduleOptions = {}): FaultSchedule {
  const random = seededRandom(seed);
  const { failRate = 0.2, delayRate = 0.5, maxDelayMs = 5 } = options;
  const failing = new Set(options.operations ?? ['set', 'delete']);
  return (call) => {
    const failDraw = random();
    const delayDraw = random();
    const before = Math.floor(random() * (maxDelayMs + 1));
    const after = Math.floor(random() * (maxDelayMs + 1));
    if (failing.has(call.operation) && failDraw < failRate) return { kind: 'fail' };
    if (delayDraw < delayRate) return { kind: 'delay', beforeMs: before, afterMs: after };
    return PASS;
  };
}

const sleep = (ms: number) =>
  ms <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * An {@link OptionStore} around another one that injects faults chosen by a
 * {@link FaultSchedule}. `watch` is forwarded (without faults) exactly when the wrapped store
 * has one, so the settings layer sees the same capabilities; `close` is forwarded too.
 */
export class FaultInjectingStore implements OptionStore {
  /** Every call, in the order made, with its fault and outcome. */
  readonly records: FaultRecord[] = [];
  readonly watch?: OptionStore['watch'];
  readonly commit?: (commit: StoreCommit) => Promise<StoreCommitResult>;
  readonly readLog?: (log: string, limit: number) => Promise<string[]>;
  readonly listKeys?: (prefix: string) => Promise<string[]>;
  #schedule: FaultSchedule;
  readonly #hung: Array<() => void> = [];

  /**
   * @param inner - the real store
   * @param schedule - decides each call's fault; default none
   * @param options - `capabilities`: forward the wrapped store's `commit`, `readLog` and `listKeys`
   */
  constructor(
    readonly inner: OptionStore,
    schedule: FaultSchedule = noFaults,
    options: { readonly capabilities?: boolean } = {},
  ) {
    this.#schedule = schedule;
    const innerWatch = inner.watch;
    if (typeof innerWatch === 'function') {
      this.watch = (onChange, onResync) => innerWatch.call(inner, onChange, onResync);
    }
    if (!options.capabilities) return;
    const { commit, readLog, listKeys } = inner;
    if (typeof commit === 'function') {
      this.commit = (request) =>
        this.#call(
          'commit',
          request.writes.map((write) => write.key),
          undefined,
          () => commit.call(inner, request),
        );
    }
    if (typeof readLog === 'function') {
      this.readLog = (log, limit) =>
        this.#call('readLog', [log], undefined, () => readLog.call(inner, log, limit));
    }
    if (typeof listKeys === 'function') {
      this.listKeys = (prefix) =>
        this.#call('listKeys', [prefix], undefined, () => listKeys.call(inner, prefix));
    }
  }

  /** Replaces the schedule (for example with {@link noFaults} once a test's chaos is over). */
  setSchedule(schedule: FaultSchedule): void {
    this.#schedule = schedule;
  }

  /** How many calls of `operation` were made (faulted ones included). */
  count(operation: FaultOperation): number {
    return this.records.filter((record) => record.operation === operation).length;
  }

  /** Forwards every hung call to the wrapped store now (a late answer). */
  releaseHung(): void {
    for (const release of this.#hung.splice(0)) release();
  }

  get(key: string): Promise<string | undefined> {
    return this.#call('get', [key], undefined, () => this.inner.get(key));
  }

  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    return this.#call('getMany', [...keys], undefined, () => this.inner.getMany(keys));
  }

  set(key: string, value: string): Promise<void> {
    return this.#call('set', [key], value, () => this.inner.set(key, value));
  }

  delete(key: string): Promise<boolean> {
    return this.#call('delete', [key], undefined, () => this.inner.delete(key));
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }

  #call<T>(
    operation: FaultOperation,
    keys: readonly string[],
    value: string | undefined,
    forward: () => Promise<T>,
  ): Promise<T> {
    const call: FaultCall = {
      index: this.records.length,
      operation,
      keys,
      ...(value === undefined ? {} : { value }),
    };
    const fault = this.#schedule(call);
    const record: FaultRecord = { ...call, fault, outcome: 'pending' };
    this.records.push(record);
    const run = async (): Promise<T> => {
      switch (fault.kind) {
        case 'pass':
          return forward();
        case 'fail':
          throw fault.error ?? new Error(`injected ${operation} failure (call ${call.index})`);
        case 'fail-after':
          await forward();
          throw new Error(`injected ${operation} failure after the store answered (call ${call.index})`);
        case 'delay': {
          await sleep(fault.beforeMs);
          const result = await forward();
          await sleep(fault.afterMs);
          return result;
        }
        case 'hang':
          return new Promise<T>((resolve, reject) => {
            this.#hung.push(() => {
              forward().then(resolve, reject);
            });
          });
      }
    };
    const result = run();
    result.then(
      () => {
        record.outcome = 'resolved';
      },
      () => {
        record.outcome = 'rejected';
      },
    );
    return result;
  }
}
