/**
 * Migrations run exactly once per level across processes (CONTRACT §11): 8 Node processes
 * migrating one PostgreSQL table (and one Redis key prefix) of 1,000 scopes at once, with a step
 * that increments a counter; and a process killed with SIGKILL mid-migration, after which
 * `migrate()` finishes the rest without repeating a level.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import type { MigrationReport, OptionStore } from '../../../src/index';
import { PostgresOptionStore } from '../../../src/storage/postgres/index';
import { RedisOptionStore } from '../../../src/storage/redis/index';
import { postgresSuite } from '../../storage/fixtures/postgres-suite';
import { deleteStoreKeys } from '../../storage/fixtures/redis-cleanup';
import { describeWithService } from '../../support/services';
import { CounterSettings, counterKey, scopes } from './support/counter-settings';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const SCOPES = scopes(1000);
const LEVELS = ['', ...SCOPES];
const PROCESSES = 8;

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Every level holds counter 0, at schema version 1. */
async function seed(store: OptionStore): Promise<void> {
  const writes = LEVELS.map((scope) => ({ key: counterKey(scope), value: '0' }));
  for (let start = 0; start < writes.length; start += 250) {
    await store.commit!({ writes: writes.slice(start, start + 250) });
  }
  await store.commit!({ writes: [{ key: 'framework_counted:schema', value: '1' }] });
}

/** Each level's counter is 1 (not 0: skipped, not 2: repeated), the record is 2, and each level's history has one migration entry. */
async function expectEachLevelOnce(store: OptionStore): Promise<void> {
  const found = await store.getMany(LEVELS.map(counterKey));
  const wrong = LEVELS.filter((scope) => found.get(counterKey(scope)) !== '1');
  expect(wrong).toEqual([]);
  expect(await store.get('framework_counted:schema')).toBe('2');
  const settings = new CounterSettings(store);
  for (const scope of ['', 's0', 's499', 's999']) {
    const history = await settings.level(scope).getHistory();
    expect(
      history.filter((entry) => entry.via === 'migration'),
      `history of "${scope}"`,
    ).toHaveLength(1);
  }
  settings.dispose();
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts a migrating process; resolves to its report (or rejects when it fails). */
function peer(args: readonly string[]): { child: ChildProcess; report: Promise<MigrationReport> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/settings/schema-versions/support/migrate-peer.ts', ...args],
    { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  const report = new Promise<MigrationReport>((resolve, reject) => {
    child.on('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out.trim()) as MigrationReport);
      else reject(new Error(`peer exited with ${code}: ${err.slice(0, 2000)}`));
    });
  });
  return { child, report };
}

/** The reports of processes that all ran the one step: together they changed every level once. */
function expectReportsCover(reports: readonly MigrationReport[]): void {
  const ran = reports.flatMap((report) => report.steps);
  expect(ran.reduce((sum, step) => sum + step.changed, 0)).toBe(LEVELS.length);
  expect(ran.reduce((sum, step) => sum + step.levels, 0)).toBe(LEVELS.length);
  for (const report of reports) expect(report.to).toBe(2);
}

describeWithService('DATABASE_URL', 'migrations exactly once across processes on PostgreSQL', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 4, prefix: 'migrate' });

  it(`${PROCESSES} processes migrating 1,000 scopes at once: each level changes once`, async () => {
    const table = newTable();
    const store = new PostgresOptionStore({ client: pool, table });
    await seed(store);
    const peers = Array.from({ length: PROCESSES }, () => peer(['postgres', url, table]));
    expectReportsCover(await Promise.all(peers.map((each) => each.report)));
    await expectEachLevelOnce(store);
    await store.close();
  }, 120_000);

  it('a process killed with SIGKILL mid-migration: migrate() finishes the rest, no level repeated', async () => {
    const table = newTable();
    const store = new PostgresOptionStore({ client: pool, table });
    await seed(store);
    const slow = peer(['postgres', url, table, '3']);
    slow.report.catch(() => undefined);
    // Wait until some levels are migrated (their markers written), then kill it.
    await expect
      .poll(
        async () => {
          const { rows } = await pool.query(
            `SELECT count(*)::int AS n FROM "${table}" WHERE key LIKE 'framework\\_counted:schema@%'`,
          );
          return (rows[0] as { n: number }).n;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBeGreaterThan(50);
    slow.child.kill('SIGKILL');
    await new Promise((resolve) => slow.child.once('exit', resolve));
    // A commit the process had sent still runs to its end on the server (PostgreSQL finishes a
    // statement whose client is gone): count once the migrated levels stop changing.
    const migrated = async (): Promise<number> => {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM "${table}" WHERE value = '1' AND key LIKE 'framework\\_counted\\_counter%'`,
      );
      return (rows[0] as { n: number }).n;
    };
    let before = await migrated();
    for (let settled = false; !settled; ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = await migrated();
      settled = now === before;
      before = now;
    }
    expect(before).toBeGreaterThan(50);
    expect(before).toBeLessThan(LEVELS.length);
    const settings = new CounterSettings(store);
    const report = await settings.migrate();
    // The rest only: the levels the killed process had done are not counted again.
    expect(report.steps[0]!.changed).toBe(LEVELS.length - before);
    settings.dispose();
    await expectEachLevelOnce(store);
    await store.close();
  }, 120_000);
});

describeWithService('REDIS_URL', 'migrations exactly once across processes on Redis', (url) => {
  const client = new Redis(url);
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await deleteStoreKeys(client, prefix);
    client.disconnect();
  });

  it(`${PROCESSES} processes migrating 1,000 scopes at once: each level changes once`, async () => {
    const prefix = `cpf-test:migrate:${unique()}:`;
    prefixes.push(prefix);
    const store = new RedisOptionStore({ client, keyPrefix: prefix });
    await seed(store);
    const peers = Array.from({ length: PROCESSES }, () => peer(['redis', url, prefix]));
    expectReportsCover(await Promise.all(peers.map((each) => each.report)));
    await expectEachLevelOnce(store);
    await store.close();
  }, 120_000);
});
