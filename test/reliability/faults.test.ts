/**
 * Faults: several settings instances on one store's data write and delete concurrently while
 * a seeded schedule fails and delays their store calls (memory, PGlite, PostgreSQL, Redis).
 * After quiescence:
 * - no acknowledged write is lost: for every setting, a fresh instance reads the value of an
 *   acknowledged operation that no other acknowledged operation strictly followed in real
 *   time (the last acknowledged write, or one concurrent with it);
 * - no rejected write is visible, neither at the end nor in any read made during the run;
 * - every instance's memory converges to what the store holds.
 *
 * Injected failures happen before the store is called (see FaultInjectingStore), so a
 * rejected write is known not to have happened. Store timeouts are tested below them: a
 * store that never answers is answered with 503 `rest_store_unavailable`.
 */
import {
  Framework_Abstract_Settings,
  MemoryOptionStore,
  type OptionStore,
  OptionStoreError,
} from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSuite } from '../storage/fixtures/postgres-suite';
import { deleteStoreKeys } from '../storage/fixtures/redis-cleanup';
import { FaultInjectingStore, noFaults, seededSchedule } from '../support/fault-injecting-store';
import { suitePglite } from '../support/pglite-template';
import { describeWithService } from '../support/services';
import { ADMIN_TOKEN, expectRestError, SETTINGS_PATH, send, shopServer } from './support/shop';

const SEED = 0xfa17;
console.log(`[reliability] faults fast-check seed ${SEED}`);
const FILE_TAG = `${process.pid}_${Date.now().toString(36)}`;

/** Three settings whose written values are all distinct, so a value names its write. */
class ChaosSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('label', 'string');
    this.registerSetting('limit', 'integer');
    this.registerSetting('rules', 'object');
  }
}
const SETTINGS = ['label', 'limit', 'rules'] as const;
type SettingId = (typeof SETTINGS)[number];

/** The value of write number `n` to `setting`: distinct for every write of a run. */
function writtenValue(setting: SettingId, n: number): unknown {
  switch (setting) {
    case 'label':
      return `w${n}`;
    case 'limit':
      return n;
    case 'rules':
      return { write: n, tags: [`w${n}`] };
  }
}
/** The write number a read value names, or null for nothing stored. */
function writeOf(setting: SettingId, value: unknown): number | null {
  if (value === null) return null;
  switch (setting) {
    case 'label':
      return Number((value as string).slice(1));
    case 'limit':
      return value as number;
    case 'rules':
      return (value as { write: number }).write;
  }
}

interface PlannedOperation {
  readonly writer: number;
  readonly setting: SettingId;
  readonly kind: 'update' | 'delete' | 'read';
  /** Milliseconds to wait before starting. */
  readonly startAfterMs: number;
}

/** A run: the fault schedule's seed and the operations. */
interface Plan {
  readonly faultSeed: number;
  readonly operations: readonly PlannedOperation[];
}

const plan: fc.Arbitrary<Plan> = fc.record({
  faultSeed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  operations: fc.array(
    fc.record({
      writer: fc.nat({ max: 2 }),
      setting: fc.constantFrom(...SETTINGS),
      kind: fc.constantFrom('update', 'update', 'update', 'delete', 'read'),
      startAfterMs: fc.nat({ max: 4 }),
    }),
    { minLength: 5, maxLength: 30 },
  ),
});

/** One finished operation, with its real-time interval. */
interface Outcome {
  readonly operation: PlannedOperation;
  /** The write number of an update. */
  readonly write: number;
  readonly start: number;
  readonly end: number;
  readonly acknowledged: boolean;
  /** For reads: the write number seen (null: nothing stored). */
  readonly seen?: number | null;
}

/** What a store kind gives a run: instances over the same data, a fresh one, and how to end them. */
interface StoreKind {
  /** `count` stores over one shared data set for run `run`, plus a factory for fresh instances. */
  open(run: number, count: number): Promise<{ stores: OptionStore[]; fresh: () => OptionStore }>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function eventually(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
}

/** Runs one planned chaos run and checks every invariant. */
async function chaosRun(
  kind: StoreKind,
  run: number,
  { faultSeed, operations }: Plan,
): Promise<{ rejected: number }> {
  const pluginId = `chaos${run}`;
  const { stores, fresh } = await kind.open(run, 3);
  const faulty = stores.map((store) => new FaultInjectingStore(store));
  const writers = faulty.map((store) => new ChaosSettings(pluginId, store));
  const freshStores: OptionStore[] = [];
  try {
    // Each instance loads first, as a server does on its first request (which also subscribes
    // it to the store's change feed). An instance that writes before it ever loaded is the
    // subject of its own test below.
    for (const writer of writers) await writer.load();
    faulty.forEach((store, index) => {
      store.setSchedule(
        seededSchedule(faultSeed + index, {
          failRate: 0.3,
          delayRate: 0.6,
          maxDelayMs: 4,
          operations: ['set', 'delete', 'getMany'],
        }),
      );
    });
    const t0 = performance.now();
    const outcomes = await Promise.all(
      operations.map(async (operation, index): Promise<Outcome> => {
        await sleep(operation.startAfterMs);
        const writer = writers[operation.writer]!;
        const start = performance.now() - t0;
        let acknowledged = true;
        let seen: number | null | undefined;
        try {
          if (operation.kind === 'update')
            await writer.updateValue(operation.setting, writtenValue(operation.setting, index));
          else if (operation.kind === 'delete') await writer.deleteValue(operation.setting);
          else seen = writeOf(operation.setting, await writer.getValue(operation.setting));
        } catch (error) {
          expect(error).toBeInstanceOf(OptionStoreError);
          acknowledged = false;
        }
        return {
          operation,
          write: index,
          start,
          end: performance.now() - t0,
          acknowledged,
          ...(seen === undefined ? {} : { seen }),
        };
      }),
    );
    for (const store of faulty) store.setSchedule(noFaults);

    const readFresh = async (): Promise<Map<SettingId, number | null>> => {
      const store = fresh();
      freshStores.push(store);
      const reader = new ChaosSettings(pluginId, store);
      await reader.load();
      reader.dispose();
      return new Map(SETTINGS.map((id) => [id, writeOf(id, reader.getSetting(id)!.getValue())]));
    };
    const final = await readFresh();

    const rejectedUpdates = new Set(
      outcomes.filter((o) => o.operation.kind === 'update' && !o.acknowledged).map((o) => o.write),
    );
    for (const setting of SETTINGS) {
      const acked = outcomes.filter(
        (o) => o.operation.setting === setting && o.operation.kind !== 'read' && o.acknowledged,
      );
      const finalWrite = final.get(setting)!;
      // Candidates for the operation the final state comes from.
      const candidates: Array<{ end: number }> =
        finalWrite === null
          ? [{ end: Number.NEGATIVE_INFINITY }, ...acked.filter((o) => o.operation.kind === 'delete')]
          : acked.filter((o) => o.operation.kind === 'update' && o.write === finalWrite);
      if (finalWrite !== null) {
        expect(
          rejectedUpdates.has(finalWrite),
          `${setting}: the rejected write ${finalWrite} is visible`,
        ).toBe(false);
        expect(
          candidates,
          `${setting}: final value from write ${finalWrite}, which was not acknowledged`,
        ).toHaveLength(1);
      }
      const explained = candidates.some((candidate) => !acked.some((other) => other.start > candidate.end));
      expect(explained, `${setting}: an acknowledged operation was lost (final: ${finalWrite})`).toBe(true);
    }
    // No read during the run saw a rejected write.
    for (const outcome of outcomes) {
      if (outcome.seen !== undefined && outcome.seen !== null) {
        expect(rejectedUpdates.has(outcome.seen), `a read saw the rejected write ${outcome.seen}`).toBe(
          false,
        );
      }
    }
    // Every instance's memory converges to the store (through watch, without load()).
    const converged = await eventually(async () => {
      for (const writer of writers) {
        for (const setting of SETTINGS) {
          if (writeOf(setting, await writer.getValue(setting)) !== final.get(setting)) return false;
        }
      }
      return true;
    }, 5_000);
    expect(converged, 'instances converge to the store').toBe(true);
    return { rejected: rejectedUpdates.size };
  } finally {
    for (const writer of writers) writer.dispose();
    for (const store of [...faulty, ...freshStores]) await store.close?.();
  }
}

/** The property over one store kind. */
function chaosProperty(name: string, kind: () => StoreKind, numRuns: number, seedOffset: number): void {
  it(`${name}: no acknowledged write lost, no rejected write visible, memory converges (${numRuns} seeded runs)`, async () => {
    let run = 0;
    let rejected = 0;
    const storeKind = kind();
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        rejected += (await chaosRun(storeKind, run++, p)).rejected;
      }),
      { seed: SEED + seedOffset, numRuns, endOnFailure: true },
    );
    expect(rejected).toBeGreaterThan(0);
  });
}

describe('fault injection over every store', () => {
  chaosProperty(
    'MemoryOptionStore',
    () => ({
      async open(_run, count) {
        const base = new MemoryOptionStore();
        const stores: OptionStore[] = [base];
        for (let index = 1; index < count; index++) stores.push(base.share());
        return { stores, fresh: () => base.share() };
      },
    }),
    60,
    0,
  );

  const database = suitePglite();
  chaosProperty(
    'PostgresOptionStore on PGlite',
    () => ({
      async open(run, count) {
        const table = `rel_chaos_${run}`;
        const make = () => new PostgresOptionStore({ client: database(), table });
        return { stores: Array.from({ length: count }, make), fresh: make };
      },
    }),
    30,
    1,
  );
});

describeWithService('DATABASE_URL', 'fault injection over PostgreSQL', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 8, prefix: 'rel_chaos' });
  const table = newTable();
  chaosProperty(
    'PostgresOptionStore on a pg Pool',
    () => ({
      async open(_run, count) {
        const make = () => new PostgresOptionStore({ client: pool, table });
        return { stores: Array.from({ length: count }, make), fresh: make };
      },
    }),
    30,
    2,
  );
});

describeWithService('REDIS_URL', 'fault injection over Redis', (url) => {
  const client = new Redis(url);
  const keyPrefix = `cpf-test:reliability:${FILE_TAG}:`;
  afterAll(async () => {
    await deleteStoreKeys(client, keyPrefix);
    client.disconnect();
  });
  chaosProperty(
    'RedisOptionStore',
    () => ({
      async open(_run, count) {
        const make = () => new RedisOptionStore({ client, keyPrefix });
        return { stores: Array.from({ length: count }, make), fresh: make };
      },
    }),
    30,
    3,
  );
});

describe('an instance that writes before it ever read', () => {
  // Bug: `updateValue` marks the setting fresh without subscribing to the store's change feed
  // (only load/getValue/ensureLoaded subscribe). Changes other instances make afterwards are
  // never reported to it, and `getValue` trusts the fresh value: it reads its own old write
  // forever (until `load()`, or a later change of that key after something else subscribed).
  it('still follows the changes other instances make afterwards', async () => {
    const base = new MemoryOptionStore();
    const first = new ChaosSettings('early', base);
    const second = new ChaosSettings('early', base.share());
    await first.updateValue('label', 'from first');
    await second.updateValue('label', 'from second');
    expect(await eventually(async () => (await first.getValue('label')) === 'from second', 2_000)).toBe(true);
  });

  it('still follows them after a delete', async () => {
    const base = new MemoryOptionStore();
    const first = new ChaosSettings('early', base);
    const second = new ChaosSettings('early', base.share());
    await first.deleteValue('limit');
    await second.updateValue('limit', 7);
    expect(await eventually(async () => (await first.getValue('limit')) === 7, 2_000)).toBe(true);
  });
});

describe('store timeouts', () => {
  it('a store that never answers a read: 503 rest_store_unavailable once storeTimeoutMs has passed', async () => {
    const shop = shopServer({ settings: { storeTimeoutMs: 50 } });
    shop.store.setSchedule(() => ({ kind: 'hang' }));
    const read = await send(shop.server, 'GET', `${SETTINGS_PATH}/title`, { token: ADMIN_TOKEN });
    expectRestError(read, 503, 'rest_store_unavailable');
    const list = await send(shop.server, 'GET', SETTINGS_PATH, { token: ADMIN_TOKEN });
    expectRestError(list, 503, 'rest_store_unavailable');
    const status = await send(shop.server, 'GET', '/api/commerce/v3/system_status', { token: ADMIN_TOKEN });
    expectRestError(status, 503, 'rest_store_unavailable');
    expect(shop.reported.length).toBeGreaterThanOrEqual(3);
    expect(shop.reported.every((error) => error instanceof OptionStoreError && error.timedOut)).toBe(true);
    shop.store.releaseHung();
  });

  it('a store that never answers a write: 503, and memory keeps the last known value', async () => {
    const shop = shopServer({ settings: { storeTimeoutMs: 50 } });
    await shop.plugin.settings.load();
    shop.store.setSchedule((call) => (call.operation === 'set' ? { kind: 'hang' } : { kind: 'pass' }));
    const write = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      json: { value: 'late' },
    });
    expectRestError(write, 503, 'rest_store_unavailable');
    expect(shop.plugin.settings.getSetting('title')!.getValue()).toBe('Original title');
    // A later write to another setting is not stuck behind the hung one.
    shop.store.setSchedule(noFaults);
    const other = await send(shop.server, 'PUT', `${SETTINGS_PATH}/retries`, {
      token: ADMIN_TOKEN,
      json: { value: 9 },
    });
    expect(other.status).toBe(200);
    shop.store.releaseHung();
  });

  it('writes to the same setting queued behind a hung one time out too, and are applied in order once it answers', async () => {
    const shop = shopServer({ settings: { storeTimeoutMs: 50 } });
    await shop.plugin.settings.load();
    shop.store.setSchedule((call) =>
      call.operation === 'set' && call.value === 'first' ? { kind: 'hang' } : { kind: 'pass' },
    );
    const first = send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      json: { value: 'first' },
    });
    const second = send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      json: { value: 'second' },
    });
    expectRestError(await first, 503, 'rest_store_unavailable');
    expectRestError(await second, 503, 'rest_store_unavailable');
    // The outcome of a timed-out write is unknown, not "failed": once the store answers, the
    // queued writes land in the order they were made, and the last one wins.
    shop.store.releaseHung();
    expect(
      await eventually(async () => (await shop.data.get('framework_shop_title')) === 'second', 2_000),
    ).toBe(true);
  });
});

describeWithService('DATABASE_URL', 'store timeouts on PostgreSQL', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 4, prefix: 'rel_timeout' });
  const locker = new pg.Client({ connectionString: url });
  const table = newTable();
  // Runs before the suite's tables are dropped: the locker's transaction would hold the drop.
  afterAll(async () => {
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end().catch(() => undefined);
  });

  it('a row locked by another transaction: the PUT answers 503 within storeTimeoutMs; the write lands after the lock', async () => {
    const store = new PostgresOptionStore({ client: pool, table });
    const shop = shopServer({ store, settings: { storeTimeoutMs: 200 } });
    await store.set('framework_shop_title', 'before');
    await shop.plugin.settings.load();
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(`SELECT value FROM "${table}" WHERE key = $1 FOR UPDATE`, ['framework_shop_title']);
    try {
      const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
        token: ADMIN_TOKEN,
        json: { value: 'blocked' },
      });
      expectRestError(answer, 503, 'rest_store_unavailable');
      expect(shop.plugin.settings.getSetting('title')!.getValue()).toBe('before');
    } finally {
      await locker.query('ROLLBACK');
    }
    // The blocked statement commits once the lock is gone: a 503 for a timeout means "unknown",
    // and the instance then follows the store (the store reports its own late write).
    expect(await eventually(async () => (await store.get('framework_shop_title')) === 'blocked', 5_000)).toBe(
      true,
    );
    expect(
      await eventually(async () => (await shop.plugin.settings.getValue('title')) === 'blocked', 5_000),
    ).toBe(true);
    shop.plugin.settings.dispose();
    await store.close();
  });
});
