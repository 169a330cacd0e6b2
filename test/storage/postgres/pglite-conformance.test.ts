import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { testOptionStore } from 'commerce-plugin-framework/testing';
import { afterAll } from 'vitest';
import { freshPglite } from '../../support/pglite-template';

// One in-memory database for the file; every store instance uses the same table.
const database = await freshPglite();
afterAll(() => database.close());

testOptionStore('PostgresOptionStore on PGlite', () => new PostgresOptionStore({ client: database }), {
  makeSibling: () => new PostgresOptionStore({ client: database }),
});
