import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { testOptionStore } from 'commerce-plugin-framework/testing';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';

describeWithService('DATABASE_URL', 'PostgresOptionStore on PostgreSQL', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 4, prefix: 'cpf_conformance' });
  const table = newTable();

  testOptionStore('PostgresOptionStore (pg Pool)', () => new PostgresOptionStore({ client: pool, table }), {
    makeSibling: () => new PostgresOptionStore({ client: pool, table }),
  });
});
