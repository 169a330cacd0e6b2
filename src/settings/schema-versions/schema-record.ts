/**
 * The plugin's schema record (docs/architecture.md, "Schema versions"): the stored text of
 * `<prefix>_<plugin>:schema` — `"3"` when every level is at version 3, `"2>3"` while a migration
 * from 2 to 3 runs (the global level is at 3 already, scopes are at 2 or 3, and no write lands).
 */

/** A schema record as read. */
export interface SchemaRecord {
  /** The version every level had reached when the record was last complete. */
  readonly version: number;
  /** While a migration runs: the version it brings the levels to. */
  readonly target?: number;
}

/** The version a record stands for with regard to writers: the target while migrating, else the version. */
export function recordCeiling(record: SchemaRecord): number {
  return record.target ?? record.version;
}

const RECORD = /^([1-9][0-9]{0,8})(?:>([1-9][0-9]{0,8}))?$/;

/** Reads a record's text; `undefined` for text that is not one. */
export function parseSchemaRecord(text: string): SchemaRecord | undefined {
  const match = RECORD.exec(text);
  if (match === null) return undefined;
  const version = Number(match[1]);
  if (match[2] === undefined) return { version };
  const target = Number(match[2]);
  return target > version ? { version, target } : undefined;
}

/** The text of a record. */
export function formatSchemaRecord(record: SchemaRecord): string {
  return record.target === undefined ? String(record.version) : `${record.version}>${record.target}`;
}

/** Reads a scope's marker (a version), `undefined` when absent or not a version. */
export function parseLevelMarker(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9][0-9]{0,8}$/.test(text)) return undefined;
  return Number(text);
}
