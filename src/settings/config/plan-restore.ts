import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { LogPage, LogPageQuery } from '../../storage/store-log';
import type { Framework_Abstract_Settings } from '../abstract-settings';
import { parseStoredEntry, type StoredHistoryEntry } from '../history/history-entry';
import { unsealText } from '../history/history-log';
import { decryptLevel } from '../schema-versions/level-changes';
import { assertScopePath } from '../scope/scope-path';
import type { SettingsCore } from '../settings-core';
import { storeName } from '../store-calls';
import { KEY_PAGE_SIZE, storedKeyPages } from '../values/stored-keys';
import { UnsupportedByStoreError } from '../writes/unsupported-by-store';
import { type MigratedValue, migrateValues, storageText } from './document-migration';
import { readyToPlan } from './export-settings';
import { compareText } from './json-order';
import { buildPlan, type DesiredLevel, type DesiredValue } from './plan-builder';
import type { PlanErrorCode, SettingsPlan } from './settings-plan';
import { readLevels, storedScopes } from './stored-levels';

/** Options of `planRestore` (CONTRACT §13). */
export interface RestoreOptions {
  /** An ISO 8601 time, or a history entry id (the state right after that entry). */
  readonly to: string;
  /** Only this level: a scope path, or `null` for the global level. Absent: every level. */
  readonly scope?: string | null;
  /** Only these settings. Absent: every setting. */
  readonly settingIds?: readonly string[];
}

/** How many entries one read of a log takes. */
const LOG_PAGE = 100;
/** A history entry id as `newEntryId` makes them: time (9), sequence (3), process tag (12). */
const ENTRY_ID = /^[0-9a-z]{12}[0-9a-f]{12}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Whether a history entry came after the restore point. */
type After = (entry: StoredHistoryEntry) => boolean;

/** Reads a log a page at a time (the whole, bounded log at once for a store without `readLogPage`). */
function pager(core: SettingsCore): (log: string, query: LogPageQuery) => Promise<LogPage> {
  const store = core.store;
  if (typeof store.readLogPage === 'function') {
    return (log, query) => core.services.call('readLog', () => store.readLogPage!(log, query));
  }
  return async (log, query) => {
    const all = await core.services.call('readLog', () =>
      store.readLog!(log, Math.max(1, core.historyLimits.limit)),
    );
    const offset = query.offset ?? 0;
    const matching =
      query.tag === undefined ? all : all.filter((text) => parseStoredEntry(text)?.setting_id === query.tag);
    return { entries: matching.slice(offset, offset + query.limit), total: matching.length, trimmed: false };
  };
}

/** The restore point as a test of entries: a time, or an entry id found in the logs (404 when neither). */
async function cutoff(
  core: SettingsCore,
  to: string,
  levels: readonly string[],
): Promise<{ after: After; time: number }> {
  if (typeof to === 'string' && ISO_TIME.test(to) && !Number.isNaN(Date.parse(to))) {
    const time = Date.parse(to);
    return { after: (entry) => Date.parse(entry.at) > time, time };
  }
  if (typeof to === 'string' && ENTRY_ID.test(to)) {
    // An entry id says when it was made: entries order by their ids (a trimmed entry included).
    return { after: (entry) => entry.id > to, time: Number.parseInt(to.slice(0, 9), 36) };
  }
  if (typeof to === 'string' && to !== '') {
    const read = pager(core);
    for (const level of levels) {
      for (let offset = 0; ; offset += LOG_PAGE) {
        const page = await read(core.schema.logName(level), { limit: LOG_PAGE, offset });
        const found = page.entries.map(parseStoredEntry).find((entry) => entry?.id === to);
        if (found) {
          const time = Date.parse(found.at);
          return { after: (entry) => entry.id > found.id, time };
        }
        if (page.entries.length < LOG_PAGE) break;
      }
    }
  }
  throw new Framework_Plugin_Exception(
    `Unknown restore target ${JSON.stringify(to)}: give an ISO 8601 time or the id of a history entry`,
    404,
  );
}

/** The schema version the stored settings were at, at `time`: from the log of completed migrations. */
async function versionAt(core: SettingsCore, time: number): Promise<number> {
  const read = pager(core);
  let version = await core.versions.storedVersion();
  for (let offset = 0; ; offset += LOG_PAGE) {
    const page = await read(core.schema.schemaLogName, { limit: LOG_PAGE, offset });
    for (const text of page.entries) {
      try {
        const entry = JSON.parse(text) as { at?: string; from?: number };
        if (typeof entry.at === 'string' && typeof entry.from === 'number' && Date.parse(entry.at) > time) {
          version = entry.from;
        }
      } catch {
        // Not an entry of ours: skipped.
      }
    }
    if (page.entries.length < LOG_PAGE) return version;
  }
}

/** What a level's log says of the values at the restore point. */
interface LevelHistory {
  /** Per setting id: the earliest entry after the restore point (its `old` is the value then). */
  readonly earliestAfter: Map<string, StoredHistoryEntry>;
  /** The ids with an entry at or before the restore point among the entries read. */
  readonly before: Set<string>;
  /** The kept history does not reach back to the restore point (entries after it were trimmed). */
  readonly tooShort: boolean;
  /** The log lost entries at some time. */
  readonly trimmed: boolean;
}

async function levelHistory(core: SettingsCore, level: string, after: After): Promise<LevelHistory> {
  const read = pager(core);
  const history: LevelHistory = {
    earliestAfter: new Map(),
    before: new Set(),
    tooShort: false,
    trimmed: false,
  };
  let trimmed = false;
  for (let offset = 0; ; offset += LOG_PAGE) {
    const page = await read(core.schema.logName(level), { limit: LOG_PAGE, offset });
    trimmed ||= page.trimmed;
    let reached = false;
    for (const text of page.entries) {
      const entry = parseStoredEntry(text);
      if (entry === null) continue;
      if (after(entry)) history.earliestAfter.set(entry.setting_id, entry);
      else {
        history.before.add(entry.setting_id);
        reached = true;
      }
    }
    if (reached || page.entries.length < LOG_PAGE) {
      return { ...history, trimmed, tooShort: trimmed && !reached };
    }
  }
}

/** An error carried through the migration steps, unseen, for a value that cannot be restored. */
interface Unrestorable {
  readonly code: PlanErrorCode;
  readonly message: string;
}

/** The storage text of a value an entry recorded (`old`), or why it cannot be had back. */
async function textBefore(
  core: SettingsCore,
  level: string,
  entry: StoredHistoryEntry,
): Promise<MigratedValue | undefined> {
  const setting = core.schema.get(entry.setting_id);
  if (entry.old === null) return undefined;
  const masked = setting === undefined || setting.isSecret();
  if (!masked) return { text: storageText(entry.old) };
  const sealed = entry.sealed?.old;
  if (sealed !== undefined) {
    if (entry.sealed?.asStored === true) return { text: sealed };
    if (core.cipher !== undefined) {
      const text = await unsealText(core.cipher, core.schema.logName(level), entry.id, 'old', sealed);
      if (text !== undefined) return { text };
    }
  }
  const unrestorable: Unrestorable = {
    code: 'secret_not_restorable',
    message: `The earlier value of the secret "${entry.setting_id}" cannot be restored: ${core.cipher === undefined ? 'without a cipher, history keeps secrets masked only' : 'history does not hold it'}`,
  };
  return { opaque: unrestorable };
}

/**
 * `settings.planRestore({ to })` (CONTRACT §13): the plan that brings the named values (every
 * setting at every level, or one level) back to what they were at `to`, rebuilt from each level's
 * history, migrated from the schema version of that time to today's, checked like an import.
 */
export async function planRestore(
  container: Framework_Abstract_Settings,
  core: SettingsCore,
  options: RestoreOptions,
): Promise<SettingsPlan> {
  const store = core.store;
  if (typeof store.commit !== 'function' || typeof store.readLog !== 'function') {
    throw new UnsupportedByStoreError('history', storeName(store));
  }
  if (typeof options !== 'object' || options === null) {
    throw new Framework_Plugin_Exception('planRestore needs { to }', 400);
  }
  await readyToPlan(core);
  const registered = core.settings().map((setting) => setting.getId());
  const named =
    options.settingIds === undefined
      ? registered
      : registered.filter((id) => options.settingIds!.includes(id));
  let levels: string[];
  if (options.scope === null) levels = [''];
  else if (options.scope !== undefined) {
    assertScopePath(options.scope);
    levels = [options.scope];
  } else {
    levels = ['', ...(await loggedOrStoredScopes(core, registered))];
  }
  const { after, time } = await cutoff(core, options.to, levels);
  const version = await versionAt(core, time);
  const desired: DesiredLevel[] = [];
  const stored = await readLevels(core, levels, [...new Set([...registered, ...core.versions.readIds])]);
  for (const level of levels) {
    const history = await levelHistory(core, level, after);
    const current = await decryptLevel(core.services, level, stored.get(level)!);
    const read = pager(core);
    // The level's values at the restore point, by id (old ids included, for the migration steps).
    const past = new Map<string, MigratedValue>();
    const ids = new Set([...current.texts.keys(), ...current.unreadable, ...history.earliestAfter.keys()]);
    for (const id of ids) {
      const entry = history.earliestAfter.get(id);
      if (entry !== undefined) {
        const value = await textBefore(core, level, entry);
        if (value !== undefined) past.set(id, value);
        continue;
      }
      if (!current.has(id)) continue;
      // Unchanged since, unless it has no history at all and nothing was trimmed: not stored then.
      if (!history.before.has(id) && !history.trimmed) {
        const page = await read(core.schema.logName(level), { limit: 1, tag: id });
        if (page.entries.length === 0) continue;
      }
      const text = current.texts.get(id);
      if (text !== undefined) past.set(id, { text });
      else
        past.set(id, {
          opaque: { code: 'value_invalid', message: `The stored secret "${id}" cannot be decrypted` },
        });
    }
    const migrated = version < core.versions.code ? await migrateValues(core, level, past, version) : past;
    const values = new Map<string, DesiredValue>();
    for (const id of named) {
      const setting = core.schema.get(id)!;
      if (history.tooShort && (current.has(id) || history.earliestAfter.has(id))) {
        values.set(id, {
          kind: 'error',
          code: 'history_too_short',
          message: `The history kept at this level does not reach back to ${options.to}`,
        });
        continue;
      }
      const value = migrated.get(id);
      if (value === undefined) values.set(id, { kind: 'delete' });
      else if ('opaque' in value) {
        const problem = value.opaque as Unrestorable;
        values.set(id, { kind: 'error', code: problem.code, message: problem.message });
      } else if (setting.isSecret()) values.set(id, { kind: 'secret-text', text: value.text });
      else values.set(id, { kind: 'value', value: setting.codec.decode(value.text) ?? value.text });
    }
    desired.push({ key: level, values });
  }
  return buildPlan(container, core, desired, false);
}

/** Every scope with a stored value of the plugin or a history log, in code-unit order. */
async function loggedOrStoredScopes(core: SettingsCore, ids: readonly string[]): Promise<string[]> {
  const scopes = new Set(await storedScopes(core, ids));
  const prefix = `${core.schema.logName('')}@`;
  for await (const page of storedKeyPages(core.services, prefix, KEY_PAGE_SIZE, true)) {
    for (const name of page) scopes.add(name.slice(prefix.length));
  }
  return [...scopes].sort(compareText);
}
