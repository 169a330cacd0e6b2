/**
 * A test folder for `cpf`: the fixture's `cpf.config.ts`, a fresh store (a PGlite data directory,
 * or a table of its own on PostgreSQL), a runner that points the program at it, the library's own
 * view of the same data, and every run's output kept, to check at the end that no secret was
 * ever printed.
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Framework_Abstract_Settings, Framework_Plugin, OptionStore } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { expect } from 'vitest';
import { dropOptionTables } from '../../storage/fixtures/postgres-cleanup';
import { freshPgliteDirectory } from '../../support/pglite-template';
import { serviceUrl } from '../../support/services';
import { type FixtureEnv, fixturePlugins } from '../fixtures/cli-fixture';
import { type CliResult, fixtureFolder, removeFolder, runCli } from './cli-run';

/** Where a session's data lives. */
export type SessionStore = 'pglite' | 'postgres';

/** The fixture's plugins as the library opens them, for a test to compare with. */
export interface LibraryPlugins {
  readonly all: readonly Framework_Plugin[];
  readonly shop: Framework_Abstract_Settings;
  readonly blog: Framework_Abstract_Settings;
}

/** One test file's folder, store and runs. */
export interface CliSession {
  /** The folder (the working directory of every run). */
  readonly folder: string;
  /** The store the program and the library share. */
  readonly store: SessionStore;
  /** The variables that select the fixture's store. */
  readonly env: Readonly<Record<string, string>>;
  /** Runs `cpf ...args` in the folder; `env` adds variables, `input` is standard input. */
  cpf(
    args: readonly string[],
    options?: { env?: Readonly<Record<string, string>>; input?: string },
  ): Promise<CliResult>;
  /**
   * The fixture's plugins opened by the library on the same data (after the program exited and
   * closed it), for `work`; closed afterwards. `env` as the fixture reads it (`CPF_TEST_SCHEMA`).
   */
  library<T>(work: (plugins: LibraryPlugins) => Promise<T>, env?: FixtureEnv): Promise<T>;
  /** Fails when any run so far printed one of `secrets`, on standard output or error. */
  expectNeverPrinted(secrets: readonly string[]): void;
  /** Removes the folder and the data. */
  remove(): Promise<void>;
}

/**
 * PostgreSQL when `DATABASE_URL` is set — a program run then connects in milliseconds, where
 * PGlite starts a database each time (a second or more on a loaded machine) — else PGlite.
 * PGlite stays covered by the files that ask for it (read commands, the terminal, the README).
 */
export function quickestStore(): SessionStore {
  return serviceUrl('DATABASE_URL') === undefined ? 'pglite' : 'postgres';
}

/** Opens the fixture's plugins on `store` for `work`, then disposes them and closes the store. */
async function openLibrary<T>(
  store: OptionStore,
  work: (plugins: LibraryPlugins) => Promise<T>,
  env: FixtureEnv,
): Promise<T> {
  const all = fixturePlugins(store, store, env);
  try {
    return await work({ all, shop: all[0]!.getSettingsHandler()!, blog: all[1]!.getSettingsHandler()! });
  } finally {
    for (const plugin of all) plugin.getSettingsHandler()?.dispose();
    await store.close?.();
  }
}

/** Makes the folder, its config and a fresh store of the kind asked for. */
export async function cliSession(store: SessionStore = 'pglite'): Promise<CliSession> {
  const folder = await fixtureFolder();
  let env: Record<string, string>;
  let library: CliSession['library'];
  let dropData: () => Promise<void>;
  if (store === 'postgres') {
    const url = serviceUrl('DATABASE_URL');
    if (url === undefined) throw new Error('a PostgreSQL session needs DATABASE_URL');
    const table = `cpf_cli_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    env = { CPF_TEST_STORE: 'postgres', CPF_TEST_DATABASE_URL: url, CPF_TEST_TABLE: table };
    library = async (work, fixtureEnv = {}) => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      try {
        return await openLibrary(new PostgresOptionStore({ client: pool, table }), work, fixtureEnv);
      } finally {
        await pool.end();
      }
    };
    dropData = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await dropOptionTables(client, table);
      } finally {
        await client.end();
      }
    };
    // The table and its log tables exist before the first run, as on PGlite's template.
    await library(async ({ shop }) => shop.getHistory({ limit: 1 }));
  } else {
    const dataDir = join(folder, 'data');
    await freshPgliteDirectory(dataDir);
    env = { CPF_TEST_STORE: 'pglite', CPF_TEST_DATA_DIR: dataDir };
    library = async (work, fixtureEnv = {}) => {
      const db = new PGlite(dataDir);
      await db.waitReady;
      try {
        return await openLibrary(new PostgresOptionStore({ client: db }), work, fixtureEnv);
      } finally {
        await db.close();
      }
    };
    dropData = async () => {};
  }
  const outputs: CliResult[] = [];
  return {
    folder,
    store,
    env,
    async cpf(args, options = {}) {
      const result = await runCli(args, {
        cwd: folder,
        env: { ...env, ...options.env },
        ...(options.input === undefined ? {} : { input: options.input }),
      });
      outputs.push(result);
      return result;
    },
    library,
    expectNeverPrinted(secrets) {
      for (const { stdout, stderr } of outputs) {
        for (const secret of secrets) {
          expect(stdout).not.toContain(secret);
          expect(stderr).not.toContain(secret);
        }
      }
    },
    async remove() {
      await dropData();
      await removeFolder(folder);
    },
  };
}
