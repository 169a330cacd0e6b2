import type { SettingsCore } from '../settings-core';
import type { MigrateOptions, MigrationReport } from './settings-migration';

/**
 * `migrate()` (CONTRACT §11): see `run-migrations.ts`. The runner is loaded on the first call
 * (`import()`), so that an application that never migrates does not load it at start.
 */
export async function runMigrations(
  core: SettingsCore,
  options: MigrateOptions = {},
): Promise<MigrationReport> {
  const runner = await import('./run-migrations');
  return runner.runMigrations(core, options);
}
