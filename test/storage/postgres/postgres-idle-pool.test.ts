import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { expect, it } from 'vitest';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';
import { eventually, ShopSettings } from '../fixtures/shop-settings';

/**
 * The idle-pool trap (issue 15): a reader's pool closes its idle connections after
 * `idleTimeoutMillis`; the re-read after a change notification must not open a new one (a
 * connect is several round trips), so it runs on the store's own, warm LISTEN connection.
 */
describeWithService('DATABASE_URL', 'PostgresOptionStore re-reads after a notification', (url) => {
  const { pool: admin, table: newTable } = postgresSuite(url, { max: 1, prefix: 'cpf_idle' });
  const table = newTable();

  it('after the pool closed its idle connections, without opening a new one', async () => {
    const IDLE_MS = 50;
    const readerPool = new pg.Pool({ connectionString: url, idleTimeoutMillis: IDLE_MS, max: 2 });
    readerPool.on('error', () => {});
    let connects = 0;
    readerPool.on('connect', () => {
      connects++;
    });
    const writerPool = new pg.Pool({ connectionString: url, max: 1 });
    writerPool.on('error', () => {});
    const readerStore = new PostgresOptionStore({ client: readerPool, table });
    const writerStore = new PostgresOptionStore({ client: writerPool, table });
    const reader = new ShopSettings('idle', readerStore);
    const writer = new ShopSettings('idle', writerStore);
    try {
      await writer.updateValue('title', 'first');
      await reader.load();
      expect(await reader.getValue('title')).toBe('first');

      for (let change = 0; change < 3; change++) {
        // Wait until the pool has closed every idle connection.
        expect(await eventually(() => readerPool.totalCount === 0, 5_000)).toBe(true);
        const connectsBefore = connects;
        const value = `change ${change}`;
        await writer.updateValue('title', value);
        // Read through the settings' own refresh, as Framework_Setting.getValue() is.
        const seen = await eventually(() => reader.getSetting('title')?.getValue() === value, 5_000);
        expect(seen).toBe(true);
        expect(await reader.getValue('title')).toBe(value);
        expect(connects).toBe(connectsBefore);
        expect(readerPool.totalCount).toBe(0);
      }
    } finally {
      reader.dispose();
      writer.dispose();
      await readerStore.close();
      await writerStore.close();
      await readerPool.end();
      await writerPool.end();
    }
  });

  it('reads through the pool while the feed connection is busy or gone', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', () => {});
    const store = new PostgresOptionStore({ client: pool, table });
    const writer = new PostgresOptionStore({ client: admin, table });
    const unwatch = store.watch(() => {});
    try {
      await writer.set('k1', 'v1');
      // Many concurrent reads: one may run on the feed connection, the others on the pool.
      const reads = await Promise.all(Array.from({ length: 8 }, () => store.get('k1')));
      expect(reads).toEqual(Array(8).fill('v1'));
      unwatch();
      expect(await store.getMany(['k1'])).toEqual(new Map([['k1', 'v1']]));
    } finally {
      await store.close();
      await pool.end();
    }
  });
});
