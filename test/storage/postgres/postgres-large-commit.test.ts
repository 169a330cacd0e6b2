import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { afterAll, expect, it } from 'vitest';
import { JIT_FREE_COMMIT_ROWS } from '../../../src/storage/postgres/jit-free-commit';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';

/**
 * The paths of large commits (issues 21 and 22): a large commit on a pg Pool runs in a transaction
 * of its own with JIT compilation off — still one atomic conditional step, refused as a whole, and
 * the pool's connections come back as they were (JIT on, no transaction open); many logs sharing
 * their bounds send their entries as one JSON array, stored as a text[] parameter stores them.
 */
describeWithService('DATABASE_URL', 'PostgresOptionStore: large commits, many logs', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 2, prefix: 'cpf_large' });
  const table = newTable();
  const store = new PostgresOptionStore({ client: pool, table });
  afterAll(() => store.close());

  const rows = JIT_FREE_COMMIT_ROWS;
  const keys = Array.from({ length: rows / 2 }, (_, index) => `large_${index}@s${index % 100}`);
  const logs = (text: string) =>
    Array.from({ length: 100 }, (_, log) => ({
      name: `large@s${log}`,
      entries: keys.filter((_, index) => index % 100 === log).map((key) => `${key}=${text}`),
      keep: 1000,
      maxBytes: 1 << 20,
    }));

  it('applies every write and entry, refuses as a whole, and gives its connection back as it was', async () => {
    const first = await store.commit({
      writes: keys.map((key) => ({ key, value: 'one', expect: null })),
      logs: logs('one'),
    });
    expect(first).toEqual({ ok: true });
    const stored = await store.getMany(keys);
    expect(stored.size).toBe(keys.length);
    expect(new Set(stored.values())).toEqual(new Set(['one']));
    await expect(store.readLog('large@s7', 100)).resolves.toHaveLength(
      logs('').find((log) => log.name === 'large@s7')!.entries.length,
    );

    // One key changed meanwhile: nothing of the commit is stored or logged.
    await store.set(keys[10]!, 'other');
    const refused = await store.commit({
      writes: keys.map((key) => ({ key, value: 'two', expect: 'one' })),
      logs: logs('two'),
    });
    expect(refused).toEqual({ ok: false, current: new Map([[keys[10]!, 'other']]) });
    expect((await store.getMany(keys.slice(0, 5))).get(keys[0]!)).toBe('one');
    await expect(store.readLog('large@s7', 100)).resolves.toHaveLength(
      logs('').find((log) => log.name === 'large@s7')!.entries.length,
    );

    // Both connections of the pool: JIT as the server has it, no transaction left open.
    const connections = await Promise.all([pool.connect(), pool.connect()]);
    try {
      for (const connection of connections) {
        const { rows: settings } = await connection.query(
          "SELECT current_setting('jit') = (SELECT boot_val FROM pg_settings WHERE name = 'jit') OR current_setting('jit') = (SELECT reset_val FROM pg_settings WHERE name = 'jit') AS same, now() = statement_timestamp() AS outside",
        );
        expect(settings[0]).toEqual({ same: true, outside: true });
      }
    } finally {
      for (const connection of connections) connection.release();
    }
  });

  it('stores a lone surrogate of an entry as U+FFFD whether the commit has one log or many, with shared bounds or not', async () => {
    const lone = 'x\ud800y \\ud800 "quoted"';
    const bounds = { keep: 10, maxBytes: 1000 };
    await store.commit({
      writes: [{ key: 'lone@one', value: '1' }],
      log: { name: 'lone@one', entries: [lone], ...bounds },
    });
    await store.commit({
      writes: [{ key: 'lone@a', value: '1' }],
      logs: [
        { name: 'lone@a', entries: [lone, 'second'], ...bounds },
        { name: 'lone@b', entries: ['😀 pair'], ...bounds },
      ],
    });
    await store.commit({
      writes: [{ key: 'lone@c', value: '1' }],
      logs: [
        { name: 'lone@c', entries: ['first', lone], keep: 10 },
        { name: 'lone@d', entries: [lone], keep: 20, maxBytes: 2000 },
      ],
    });
    const expected = 'x\ufffdy \\ud800 "quoted"';
    await expect(store.readLog('lone@one', 5)).resolves.toEqual([expected]);
    await expect(store.readLog('lone@a', 5)).resolves.toEqual(['second', expected]);
    await expect(store.readLog('lone@b', 5)).resolves.toEqual(['😀 pair']);
    await expect(store.readLog('lone@c', 5)).resolves.toEqual([expected, 'first']);
    await expect(store.readLog('lone@d', 5)).resolves.toEqual([expected]);
  });
});
