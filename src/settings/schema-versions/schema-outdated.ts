import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/**
 * A write refused because the stored settings are not at this instance's schema version (code
 * 409, REST 409 `rest_schema_outdated`): an old release during a rolling deploy (the stored
 * version is newer), a migration running right now, or migrations this instance is due to run
 * first (`migrateOnLoad: false`). Nothing was stored; reads go on.
 */
export class SchemaOutdatedError extends Framework_Plugin_Exception {
  /** The stored schema version (while a migration runs: the version it brings the levels to). */
  readonly stored: number;
  /** This instance's `schemaVersion`. */
  readonly schemaVersion: number;

  /**
   * @param plugin - the settings container's id
   * @param stored - the stored version (a running migration's target)
   * @param schemaVersion - this instance's version
   * @param migrating - a migration is running now
   */
  constructor(plugin: string, stored: number, schemaVersion: number, migrating = false) {
    super(
      stored > schemaVersion
        ? `The settings of "${plugin}" are at schema version ${stored}, newer than this instance's ${schemaVersion}: it only reads them (an older release during a rolling deploy?)`
        : migrating
          ? `The settings of "${plugin}" are being migrated to schema version ${stored}: try again when it is done`
          : `The settings of "${plugin}" are at schema version ${stored} and this instance expects ${schemaVersion}: run migrate() first`,
      409,
    );
    this.name = 'SchemaOutdatedError';
    this.stored = stored;
    this.schemaVersion = schemaVersion;
  }
}
brandClass(SchemaOutdatedError, 'SchemaOutdatedError');
