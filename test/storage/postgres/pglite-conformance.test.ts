import { PGlite } from '@electric-sql/pglite';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { testOptionStore } from 'commerce-plugin-framework/testing';
import { afterAll } from 'vitest';

// One in-memory database for the file; every store instance uses the same table.
const database = new PGlite();
afterAll(() => database.close());

testOptionStore('PostgresOptionStore on PGlite', () => new PostgresOptionStore({ client: database }), {
  makeSibling: () => new PostgresOptionStore({ client: database }),
});
