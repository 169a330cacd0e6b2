import type { Framework_Abstract_Settings } from '../abstract-settings';
import type { Framework_Setting } from '../setting';
import type { SettingsCore } from '../settings-core';
import { migrateDocumentLevel } from './document-migration';
import { readyToPlan } from './export-settings';
import { buildPlan, type DesiredLevel, type DesiredValue } from './plan-builder';
import { checkDocument, isEnvironmentReference, isSecretReference } from './settings-document';
import type { SettingsPlan } from './settings-plan';

/** Options of `planImport`. */
export interface ImportOptions {
  /** Also plan the removal of every stored value the document does not list (every level of the store). */
  readonly prune?: boolean;
  /** Where `{ "$env": "NAME" }` reads from; default the process environment, where there is one. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The process environment on runtimes that have one (Node, Bun, Deno's compatibility layer); else none. */
function processEnvironment(): Readonly<Record<string, string | undefined>> {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env ?? {};
}

/** The types whose value an environment variable gives as it is (others are read as JSON). */
const TEXT_TYPES = new Set(['string', 'url', 'email']);

/** What one document value asks for. */
function desiredOf(
  setting: Framework_Setting | undefined,
  value: unknown,
  env: ImportOptions['env'],
): DesiredValue {
  if (value === null) return { kind: 'delete' };
  if (setting === undefined || !setting.isSecret()) return { kind: 'value', value };
  if (isSecretReference(value)) return { kind: 'fingerprint', fingerprint: value.$secret };
  if (isEnvironmentReference(value)) {
    const text = env?.[value.$env];
    if (text === undefined) {
      return {
        kind: 'error',
        code: 'env_missing',
        message: `The environment variable ${value.$env} is not set`,
      };
    }
    if (TEXT_TYPES.has(setting.getType()) && !setting.isMulti()) return { kind: 'value', value: text };
    try {
      return { kind: 'value', value: JSON.parse(text) as unknown };
    } catch {
      return {
        kind: 'error',
        code: 'value_invalid',
        message: `The environment variable ${value.$env} does not hold JSON, as a ${setting.getType()} secret needs`,
      };
    }
  }
  return {
    kind: 'error',
    code: 'secret_in_clear',
    message: `The secret "${setting.getId()}" is given in clear: use {"$secret": fingerprint} or {"$env": "NAME"}`,
  };
}

/**
 * `settings.planImport(document)` (CONTRACT §13): an older document is first migrated (in
 * memory); each listed value different from what is stored becomes a change, `null` a delete,
 * secrets come by fingerprint (kept) or from the environment; every value is checked as a write
 * would check it, and every problem listed in `errors`.
 *
 * @throws `Framework_Plugin_Exception` (400) for a document that is not one for this plugin, or is newer
 */
export async function planImport(
  container: Framework_Abstract_Settings,
  core: SettingsCore,
  document: unknown,
  options: ImportOptions = {},
): Promise<SettingsPlan> {
  const checked = checkDocument(document, core.pluginId, core.versions.code);
  await readyToPlan(core);
  const env = options.env ?? processEnvironment();
  const levels: DesiredLevel[] = [];
  for (const [key, listed] of Object.entries(checked.levels)) {
    const values =
      checked.schema_version < core.versions.code
        ? await migrateDocumentLevel(core, key, listed, checked.schema_version)
        : listed;
    const desired = new Map<string, DesiredValue>();
    for (const [id, value] of Object.entries(values))
      desired.set(id, desiredOf(core.schema.get(id), value, env));
    levels.push({ key, values: desired });
  }
  return buildPlan(container, core, levels, options.prune === true);
}
