/**
 * `commerce-plugin-framework/stores/postgres`: the PostgreSQL option store, for a `pg` Pool
 * or Client and for an embedded PGlite database. `pg` and `@electric-sql/pglite` are optional
 * peer dependencies: install the one you use; this entry imports neither.
 *
 * @module commerce-plugin-framework/stores/postgres
 */

export { OptionStoreError, type OptionStoreOperation } from '../../errors/option-store-error';
export type { OptionStore } from '../option-store';
export type { PostgresQueryable, QueryRows } from './postgres-client';
export { PostgresOptionStore, type PostgresOptionStoreOptions } from './postgres-option-store';
export type { ReconnectOptions } from './reconnect-delay';
