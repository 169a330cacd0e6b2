import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OptionStoreError } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { expect, it } from 'vitest';
import { ensureBuilt } from '../../support/ensure-built';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';
import { eventually, uniqueSuffix } from '../fixtures/shop-settings';

/**
 * A caller's `pool.end()` ends the store's use of the pool: the store kept answering reads
 * through the LISTEN connection it opened from the pool's options, and that connection kept the
 * process alive after the pool was gone.
 */
describeWithService('DATABASE_URL', 'PostgresOptionStore after its pg Pool was ended', (url) => {
  const suffix = uniqueSuffix();
  const { pool: admin, table: newTable } = postgresSuite(url, { max: 1, prefix: 'cpf_pool_end' });
  const table = newTable();
  /** The server's connections opened with `application_name`. */
  const connections = async (application: string): Promise<number> => {
    const { rows } = await admin.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [application],
    );
    return (rows[0] as { n: number }).n;
  };

  it('reads and writes reject, and the LISTEN connection ends with the pool', async () => {
    const application = `cpf-pool-end-${suffix}`;
    const pool = new pg.Pool({ connectionString: url, max: 2, application_name: application });
    pool.on('error', () => {});
    const watchErrors: OptionStoreError[] = [];
    const store = new PostgresOptionStore({
      client: pool,
      table,
      onWatchError: (error) => watchErrors.push(error),
    });
    const writer = new PostgresOptionStore({ client: admin, table });
    let resyncs = 0;
    const unwatch = store.watch(
      () => {},
      () => resyncs++,
    );
    try {
      await writer.set('k', 'v');
      expect(await eventually(() => resyncs > 0), 'the LISTEN connection is active').toBe(true);
      // Let the pool close nothing: a read right now could run on the pool or on the feed.
      expect(await store.get('k')).toBe('v');
      await pool.end();
      expect(pool.totalCount).toBe(0);
      for (const read of [() => store.get('k'), () => store.getMany(['k']), () => store.set('k', 'x')]) {
        const error = await read().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(OptionStoreError);
      }
      expect(await eventually(async () => (await connections(application)) === 0), 'no connection left').toBe(
        true,
      );
      expect(watchErrors.some((error) => error.message.includes('the pool was ended'))).toBe(true);
      await writer.set('k', 'after');
      await expect(store.get('k')).rejects.toBeInstanceOf(OptionStoreError);
    } finally {
      unwatch();
      await store.close();
    }
  });

  it('a store closed while its LISTEN connection is still opening lets the process exit at once', async () => {
    // A program (`cpf`) that fails fast closes its store right after opening it: the connection
    // attempt's time limit (the feed's 10 s connect limit) kept the process alive until it ran
    // out. Fixed, the process ends as soon as the pool does; it is given 8 s (a loaded machine
    // starts Node slowly), less than that limit.
    await ensureBuilt('pool end test');
    const dist = (file: string) =>
      pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'dist', file)).href;
    const script = `
      import pg from 'pg';
      import { PostgresOptionStore } from ${JSON.stringify(dist('stores/postgres.js'))};
      const pool = new pg.Pool({ connectionString: ${JSON.stringify(url)}, max: 2 });
      const store = new PostgresOptionStore({ client: pool, table: ${JSON.stringify(table)} });
      store.watch(() => {});
      await store.close();
      await pool.end();
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..', '..', '..'),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = await new Promise<number | null | 'still running'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running');
      }, 8_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(exited, stderr).toBe(0);
  }, 60_000);
});
