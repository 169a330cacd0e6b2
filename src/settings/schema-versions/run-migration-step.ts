import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { SettingsSchema } from '../schema/settings-schema';
import type { LevelTexts } from './level-texts';
import { MigrationFailedError } from './migration-failed';
import { MigrationLevelView } from './migration-level-view';
import type { SettingsMigration } from './settings-migration';

/**
 * Runs one migration step on a level's texts (changed in place), for the migration runner and
 * for a settings document migrated before planning alike: its failures name the step and the
 * level (a `Framework_Plugin_Exception`'s message as the reason, anything else as the cause).
 */
export async function runMigrationStep(
  schema: SettingsSchema,
  step: SettingsMigration,
  scope: string,
  state: LevelTexts,
): Promise<void> {
  const view = new MigrationLevelView(scope, schema, state, new Set(step.reads ?? []));
  try {
    await step.up(view);
  } catch (error) {
    const reason =
      error instanceof Framework_Plugin_Exception ? error.message : 'its up() threw (see the cause)';
    throw new MigrationFailedError(step.version, step.name, scope, reason, error);
  }
}
