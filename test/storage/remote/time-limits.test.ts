/**
 * One time-limit mechanism: the settings layer's `storeTimeoutMs` bounds store calls, so the
 * networked stores have no operation limit of their own by default (`timeoutMs` is opt-in, for
 * standalone use), while their change feeds bound each connection attempt (LISTEN, SUBSCRIBE)
 * by themselves. Clients that never answer stand in for a hung server; timers are faked.
 */
import type { OptionStoreError } from 'commerce-plugin-framework';
import { PostgresOptionStore, type PostgresQueryable } from 'commerce-plugin-framework/stores/postgres';
import {
  type RedisCommandClient,
  RedisOptionStore,
  type RedisSubscriber,
} from 'commerce-plugin-framework/stores/redis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEED_CONNECT_TIMEOUT_MS } from '../../../src/storage/remote/remote-store-core';

const HOUR_MS = 3_600_000;
const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** Whether `promise` has settled, checked after the timers were advanced. */
function track(promise: Promise<unknown>): { settled: () => boolean; error: () => unknown } {
  let settled = false;
  let error: unknown;
  promise.then(
    () => {
      settled = true;
    },
    (caught: unknown) => {
      settled = true;
      error = caught;
    },
  );
  return { settled: () => settled, error: () => error };
}

/** A pg Client stand-in whose every query hangs (LISTEN included). */
function hungConnection(): PostgresQueryable {
  return {
    query: never,
    connect: async () => {},
    end: async () => {},
    on: () => {},
    removeListener: () => {},
  } as PostgresQueryable;
}

/** An ioredis stand-in whose every command hangs, with a subscriber whose SUBSCRIBE hangs. */
function hungRedis(): RedisCommandClient {
  const subscriber: RedisSubscriber = {
    status: 'ready',
    connect: async () => {},
    subscribe: never,
    on: () => undefined,
    disconnect: () => {},
  };
  return {
    get: never,
    mget: never,
    eval: never,
    lrange: never,
    scan: never,
    duplicate: () => subscriber,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** What a test may set on the store it opens. */
interface Limits {
  timeoutMs?: number;
  onWatchError?: (error: OptionStoreError) => void;
}

describe.each([
  [
    'PostgresOptionStore',
    (limits: Limits) => new PostgresOptionStore({ client: hungConnection(), ...limits }),
  ],
  ['RedisOptionStore', (limits: Limits) => new RedisOptionStore({ client: hungRedis(), ...limits })],
] as const)('%s time limits', (_name, open) => {
  it('has no operation time limit by default: a hung operation is still pending after an hour', async () => {
    const store = open({});
    const read = track(store.get('k'));
    const commit = track(store.commit!({ writes: [{ key: 'k', value: 'v' }] }));
    await vi.advanceTimersByTimeAsync(HOUR_MS);
    expect(read.settled()).toBe(false);
    expect(commit.settled()).toBe(false);
  });

  it('bounds operations when timeoutMs is given (standalone use)', async () => {
    const store = open({ timeoutMs: 250 });
    const read = track(store.get('k'));
    await vi.advanceTimersByTimeAsync(250);
    expect(read.settled()).toBe(true);
    expect(read.error()).toMatchObject({ operation: 'get', timedOut: true });
  });

  it('bounds each change-feed connection attempt by itself, whatever timeoutMs says', async () => {
    const errors: OptionStoreError[] = [];
    const store = open({ onWatchError: (error) => errors.push(error) });
    const unsubscribe = store.watch(() => {});
    await vi.advanceTimersByTimeAsync(FEED_CONNECT_TIMEOUT_MS - 1);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors[0]).toMatchObject({ operation: 'watch', timedOut: true });
    unsubscribe();
  });
});
