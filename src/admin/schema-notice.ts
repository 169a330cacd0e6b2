import type { Framework_Abstract_Settings } from '../settings/abstract-settings';

/** Stored versions above this are not versions a record names (an unreadable record reads as one). */
const LARGEST_SHOWN_VERSION = 999_999_999;

/**
 * What the settings page says when the stored settings are not at this server's schema version
 * (CONTRACT §11: the settings layer then refuses every write with 409), so that the page shows
 * the values read-only instead of a form that cannot save.
 *
 * - stored newer: an old release during a rolling deploy — "…saved by a newer version of the
 *   plugin (schema 3; this server runs 2). They can be read here but not changed until this
 *   server is updated."
 * - stored older: migrations are due (`migrateOnLoad: false`, or one is running);
 * - the same: a migration is running right now (the settings layer's refusal names its target).
 *
 * @param stored - the stored schema version (`getSchemaVersion()`, or `SchemaOutdatedError.stored`)
 * @param code - this server's schema version (`getCodeSchemaVersion()`, or `SchemaOutdatedError.schemaVersion`)
 */
export function schemaNotice(stored: number, code: number): string {
  if (stored > code) {
    const versions =
      stored > LARGEST_SHOWN_VERSION
        ? `this server runs schema ${code}`
        : `schema ${stored}; this server runs ${code}`;
    return `These settings were saved by a newer version of the plugin (${versions}). They can be read here but not changed until this server is updated.`;
  }
  if (stored < code) {
    return `These settings were saved by an older version of the plugin (schema ${stored}; this server runs ${code}) and are not migrated yet. They can be read here but not changed until the migration has run.`;
  }
  return 'These settings are being migrated to a new schema version right now. They can be read here but not changed until the migration has finished; reload the page in a moment.';
}

/**
 * The notice of {@link schemaNotice} when the stored schema version is not this server's,
 * else `undefined` (the settings can be saved). Reads the stored version (one store read).
 *
 * @throws `OptionStoreError` when the store fails
 */
export async function readSchemaNotice(settings: Framework_Abstract_Settings): Promise<string | undefined> {
  const [stored, code] = [await settings.getSchemaVersion(), settings.getCodeSchemaVersion()];
  return stored === code ? undefined : schemaNotice(stored, code);
}
