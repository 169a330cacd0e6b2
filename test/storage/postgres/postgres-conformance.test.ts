import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { testOptionStore } from 'commerce-plugin-framework/testing';
import pg from 'pg';
import { afterAll } from 'vitest';
import { describeWithService } from '../../support/services';
import { dropOptionTables } from '../fixtures/postgres-cleanup';

describeWithService('DATABASE_URL', 'PostgresOptionStore on PostgreSQL', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  const table = `cpf_conformance_${Math.random().toString(36).slice(2, 10)}`;
  afterAll(async () => {
    await dropOptionTables(pool, table);
    await pool.end();
  });

  testOptionStore('PostgresOptionStore (pg Pool)', () => new PostgresOptionStore({ client: pool, table }), {
    makeSibling: () => new PostgresOptionStore({ client: pool, table }),
  });
});
