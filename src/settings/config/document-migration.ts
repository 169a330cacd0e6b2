import stableStringify from 'fast-json-stable-stringify';
import { LevelTexts } from '../schema-versions/level-texts';
import { runMigrationStep } from '../schema-versions/run-migration-step';
import type { SettingsCore } from '../settings-core';

/** A document value's storage form, by its JSON type (CONTRACT §4): what a migration step reads as `text`. */
export function storageText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return stableStringify(value);
}

/** A value as a migration step sees it: a stored text, or something it cannot read that moves with renames. */
export type MigratedValue = { readonly text: string } | { readonly opaque: unknown };

/** Marks a value a migration step cannot see as text. */
const OPAQUE = '\u0000cpf-opaque:';

/**
 * Runs the migration steps after `fromVersion` on one level's values, in memory: an older
 * document (CONTRACT §13) or a past state rebuilt from history is brought to today's schema
 * before it is planned. Opaque values (secret references, a restore's errors) move with renames
 * and are given back as they were.
 *
 * @throws `MigrationFailedError` (500) naming the step and the level when a step throws
 */
export async function migrateValues(
  core: SettingsCore,
  scope: string,
  values: ReadonlyMap<string, MigratedValue>,
  fromVersion: number,
): Promise<Map<string, MigratedValue>> {
  const opaque: unknown[] = [];
  const state = new LevelTexts();
  for (const [id, value] of values) {
    if ('text' in value) state.texts.set(id, value.text);
    else {
      state.texts.set(id, `${OPAQUE}${opaque.length}`);
      opaque.push(value.opaque);
    }
  }
  for (const step of core.versions.migrations) {
    if (step.version <= fromVersion) continue;
    await runMigrationStep(core.schema, step, scope, state);
  }
  const migrated = new Map<string, MigratedValue>();
  for (const [id, text] of state.texts) {
    migrated.set(
      id,
      text.startsWith(OPAQUE) ? { opaque: opaque[Number(text.slice(OPAQUE.length))] } : { text },
    );
  }
  return migrated;
}

/** Whether a document value is a secret reference, which migration steps cannot read. */
function isReference(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === '$secret' || keys[0] === '$env');
}

/**
 * One level of an older document brought to today's schema: values become their storage texts
 * for the steps (secret references and `null` move with renames unseen), and are read back with
 * today's registration (a text that no longer reads stays a text: the plan reports it invalid).
 */
export async function migrateDocumentLevel(
  core: SettingsCore,
  scope: string,
  values: Readonly<Record<string, unknown>>,
  fromVersion: number,
): Promise<Record<string, unknown>> {
  const input = new Map<string, MigratedValue>();
  for (const [id, value] of Object.entries(values)) {
    input.set(id, value === null || isReference(value) ? { opaque: value } : { text: storageText(value) });
  }
  const migrated: Record<string, unknown> = {};
  for (const [id, value] of await migrateValues(core, scope, input, fromVersion)) {
    if ('opaque' in value) migrated[id] = value.opaque;
    else migrated[id] = core.schema.get(id)?.codec.decode(value.text) ?? value.text;
  }
  return migrated;
}
