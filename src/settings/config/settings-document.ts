import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/** The `format` of a settings document. */
export const SETTINGS_DOCUMENT_FORMAT = 'commerce-plugin-settings';

/**
 * A plugin's stored settings as a document (CONTRACT §13): the same for the API, REST and the
 * CLI. `levels` maps `''` (the global level) and each scope path to the values stored there, by
 * setting id; a secret appears only as `{ "$secret": fingerprint }` (export) or
 * `{ "$env": "NAME" }` (written by hand, read from the environment on import).
 */
export interface SettingsDocument {
  /** Always `commerce-plugin-settings`. */
  format: 'commerce-plugin-settings';
  /** The document format's version: 1. */
  version: 1;
  /** The settings container's id. */
  plugin: string;
  /** The schema version the values are in (older documents are migrated on import). */
  schema_version: number;
  /** `''` = global, else a scope path → setting id → value. */
  levels: Record<string, Record<string, unknown>>;
}

/** A secret kept as it is: its fingerprint, as an export gives it. */
export interface SecretReference {
  /** The keyed fingerprint of the secret's value. */
  readonly $secret: string;
}

/** A secret read from the environment on import. */
export interface EnvironmentReference {
  /** The environment variable's name. */
  readonly $env: string;
}

/** Whether `value` is `{ "$secret": "…" }`. */
export function isSecretReference(value: unknown): value is SecretReference {
  return isReference(value, '$secret');
}

/** Whether `value` is `{ "$env": "…" }`. */
export function isEnvironmentReference(value: unknown): value is EnvironmentReference {
  return isReference(value, '$env');
}

function isReference(value: unknown, member: string): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 1 && keys[0] === member && typeof (value as Record<string, unknown>)[member] === 'string'
  );
}

function refused(message: string): Framework_Plugin_Exception {
  return new Framework_Plugin_Exception(`Not a settings document for this plugin: ${message}`, 400);
}

/**
 * Checks a document as a whole (code 400 when it is not one for `plugin`, or is newer than
 * `schemaVersion`); its values are checked one by one by the plan.
 */
export function checkDocument(document: unknown, plugin: string, schemaVersion: number): SettingsDocument {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw refused('expected a JSON object');
  }
  const candidate = document as Partial<SettingsDocument>;
  if (candidate.format !== SETTINGS_DOCUMENT_FORMAT)
    throw refused(`its format is not "${SETTINGS_DOCUMENT_FORMAT}"`);
  if (candidate.version !== 1) throw refused('its version is not 1');
  if (candidate.plugin !== plugin)
    throw refused(`it is for plugin ${JSON.stringify(candidate.plugin)}, not "${plugin}"`);
  const version = candidate.schema_version;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw refused('its schema_version is not an integer of at least 1');
  }
  if (version > schemaVersion) {
    throw refused(`its schema_version ${version} is newer than this code's ${schemaVersion}`);
  }
  const levels = candidate.levels;
  if (typeof levels !== 'object' || levels === null || Array.isArray(levels))
    throw refused('levels is not an object');
  for (const [scope, values] of Object.entries(levels)) {
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      throw refused(`the level ${JSON.stringify(scope)} is not an object of values`);
    }
  }
  return candidate as SettingsDocument;
}
