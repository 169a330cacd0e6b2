import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { StoreCommit, StoreLogAppend, StoreWrite } from '../../storage/store-commit';
import { newEntryId } from '../history/history-entry';
import { historyAppend } from '../history/history-log';
import { levelValues } from '../rules/level-values';
import { runRules } from '../rules/run-rules';
import { scopeChain } from '../scope/scope-path';
import type { SettingsCore } from '../settings-core';
import { storeName } from '../store-calls';
import { type FoundScope, streamScopes } from '../values/scope-stream';
import { canListKeys } from '../values/stored-keys';
import { UnsupportedByStoreError } from '../writes/unsupported-by-store';
import { countChanged, decryptLevel, levelChanges, type StoredLevel } from './level-changes';
import type { LevelTexts } from './level-texts';
import { MigrationFailedError } from './migration-failed';
import { MigrationLease } from './migration-lease';
import { runMigrationStep } from './run-migration-step';
import { SchemaOutdatedError } from './schema-outdated';
import {
  formatSchemaRecord,
  parseLevelMarker,
  parseSchemaRecord,
  recordCeiling,
  type SchemaRecord,
} from './schema-record';
import type {
  MigrateOptions,
  MigrationReport,
  MigrationStepReport,
  SettingsMigration,
} from './settings-migration';

/** How many scopes one read (and, where the store commits across partitions, one commit) takes. */
const LEVELS_PER_BATCH = 100;
/** How many writes one commit of several levels holds at most. */
const WRITES_PER_COMMIT = 1500;
/** How often the whole migration starts over after losing a race for the record. */
const MAX_RESTARTS = 8;

/** Per step: the levels it ran on and the texts it changed. */
type StepCounts = Map<number, { levels: number; changed: number }>;

/** One level's migration, ready to commit. */
interface LevelCommit {
  readonly scope: string;
  readonly writes: StoreWrite[];
  readonly log: StoreLogAppend | undefined;
  readonly counts: StepCounts;
}

/** What one run knows while it works. */
interface Run {
  readonly core: SettingsCore;
  readonly dryRun: boolean;
  readonly actor: MigrateOptions['actor'];
  /** Every id the plugin's values live under (registered and read), in scan order. */
  readonly ids: readonly string[];
  /**
   * The ids each level's texts hold: `ids`, or only those the steps touch when every step
   * declares them and there are no rules (`SettingsMigration.touches`).
   */
  readonly levelIds: readonly string[];
  /** The ids no longer registered that held secrets. */
  readonly secrets: ReadonlySet<string>;
  /** The version levels without a marker are at (the version the running migration started from). */
  readonly phaseFrom: number;
  /** The global level's texts once migrated (for the rules of scopes). */
  global: LevelTexts;
  readonly counts: StepCounts;
}

/**
 * `migrate()` (CONTRACT §11, docs/architecture.md "Schema versions"): brings every stored level
 * of a plugin to the container's `schemaVersion`, exactly once per level however many instances
 * run it, each level in one atomic commit conditional on its marker, the scopes streamed a page
 * at a time.
 */
export async function runMigrations(
  core: SettingsCore,
  options: MigrateOptions = {},
): Promise<MigrationReport> {
  for (let restart = 0; ; restart++) {
    const outcome = await attempt(core, options);
    if (outcome !== 'restart') return outcome;
    if (restart >= MAX_RESTARTS) {
      throw new Framework_Plugin_Exception(
        `Migrating "${core.pluginId}" kept losing races for its schema record: try again`,
        500,
      );
    }
  }
}

function stepsBetween(core: SettingsCore, from: number, to: number): SettingsMigration[] {
  return core.versions.migrations.filter((step) => step.version > from && step.version <= to);
}

async function attempt(core: SettingsCore, options: MigrateOptions): Promise<MigrationReport | 'restart'> {
  const { versions, services, schema } = core;
  const dryRun = options.dryRun === true;
  const code = versions.code;
  const text = await versions.read();
  const record = text === undefined ? undefined : parseSchemaRecord(text);
  if (text !== undefined && record === undefined) {
    throw new SchemaOutdatedError(core.pluginId, Number.MAX_SAFE_INTEGER, code);
  }
  if (record !== undefined && recordCeiling(record) > code) {
    throw new SchemaOutdatedError(core.pluginId, recordCeiling(record), code);
  }
  const nothing = (version: number): MigrationReport => ({
    from: version,
    to: version,
    dry_run: dryRun,
    steps: [],
  });
  if (record === undefined && !(await versions.hasStoredValue())) {
    // A fresh install runs no step: its version is recorded.
    if (!dryRun && !(await recordFresh(core))) return 'restart';
    return nothing(code);
  }
  const from = record?.version ?? 1;
  if (record !== undefined && record.target === undefined && from === code) return nothing(code);
  if (typeof core.store.commit !== 'function' && !dryRun) {
    throw new UnsupportedByStoreError('migrations', storeName(core.store));
  }
  if (!canListKeys(services)) throw new UnsupportedByStoreError('migrations', storeName(core.store));

  let lease: MigrationLease | 'done' | undefined;
  if (!dryRun) {
    lease = await MigrationLease.acquire(services, schema.migrationLeaseKey, async () => {
      const now = await versions.read();
      return now === formatSchemaRecord({ version: code });
    });
    if (lease === 'done') return nothing(code);
  }
  try {
    // The record may have moved while this instance waited for the lease.
    const current = await versions.read();
    if (current !== text) return 'restart';
    const counts: StepCounts = new Map(
      stepsBetween(core, from, code).map((step) => [step.version, { levels: 0, changed: 0 }]),
    );
    const ids = [
      ...new Set([...[...schema.settings()].map((setting) => setting.getId()), ...versions.readIds]),
    ].sort();
    const run: Run = {
      core,
      dryRun,
      actor: options.actor ?? null,
      ids,
      levelIds: levelIdsOf(core, stepsBetween(core, from, code), ids),
      secrets: new Set(versions.migrations.flatMap((step) => step.secrets ?? [])),
      phaseFrom: from,
      global: undefined as unknown as LevelTexts,
      counts,
    };
    if (!(await migrateGlobal(run, record, text))) return 'restart';
    let levels = 1;
    progress(options, levels);
    const valueIds = run.levelIds.length < run.ids.length ? new Set(run.levelIds) : undefined;
    // One batch commits while the next is read and migrated in memory: at most two in flight.
    const inFlight: { readonly size: number; readonly done: Promise<void> }[] = [];
    try {
      for await (const batch of streamScopes(services, schema, run.ids, LEVELS_PER_BATCH, valueIds)) {
        const done = migrateScopes(run, batch);
        // Awaited below, or in `finally` when an earlier batch fails first.
        done.catch(() => {});
        inFlight.push({ size: batch.length, done });
        if (inFlight.length > 1) levels = await settled(inFlight.shift()!, levels, options);
      }
      while (inFlight.length > 0) levels = await settled(inFlight.shift()!, levels, options);
    } finally {
      // A failure leaves no batch running past the migration's end (its lease, its caches).
      await Promise.all(inFlight.map((batch) => batch.done.catch(() => {})));
    }
    if (!dryRun) await complete(run, actorOf(options));
    const steps: MigrationStepReport[] = stepsBetween(core, from, code).map((step) => ({
      version: step.version,
      name: step.name,
      ...counts.get(step.version)!,
    }));
    return { from, to: code, dry_run: dryRun, steps };
  } finally {
    if (lease instanceof MigrationLease) await lease.release();
    if (!dryRun) {
      versions.forget();
      core.levels.markAllStale(core.settings());
    }
  }
}

/** Waits for a batch of scopes to be migrated; the levels looked at then, told to `onProgress`. */
async function settled(
  batch: { readonly size: number; readonly done: Promise<void> },
  levels: number,
  options: MigrateOptions,
): Promise<number> {
  await batch.done;
  progress(options, levels + batch.size);
  return levels + batch.size;
}

/** Tells `onProgress` how many levels were looked at; its failures are not the migration's. */
function progress(options: MigrateOptions, levels: number): void {
  try {
    options.onProgress?.({ levels });
  } catch {
    // A progress display that fails changes nothing.
  }
}

function actorOf(options: MigrateOptions): { id: string | number } | null {
  return options.actor ? { id: options.actor.id } : null;
}

/** Records the version of a fresh install; false when another writer changed the record meanwhile. */
async function recordFresh(core: SettingsCore): Promise<boolean> {
  const { services, schema, versions, store } = core;
  const key = schema.schemaRecordKey;
  const text = formatSchemaRecord({ version: versions.code });
  if (typeof store.commit !== 'function') {
    await services.call('set', () => store.set(key, text));
    return true;
  }
  const result = await services.commit({ writes: [{ key, value: text, expect: null }] });
  return result.ok;
}

/**
 * Step 1: the global level, migrated in the same commit that turns the record into
 * `"<from>><code>"` — from then on no write lands anywhere until the migration completes. When
 * the record already says so (another instance started it), the global level is done: its texts
 * are read for the scopes' rules. False when the record changed meanwhile.
 */
async function migrateGlobal(
  run: Run,
  record: SchemaRecord | undefined,
  text: string | undefined,
): Promise<boolean> {
  const { core } = run;
  const { services, schema, versions } = core;
  const code = versions.code;
  const keys = run.ids.map((id) => schema.keyOf(id));
  const found = await services.call('getMany', () => services.store.getMany(keys));
  const stored = storedLevel(run.levelIds, (id) => found.get(schema.keyOf(id)));
  const before = await decryptLevel(services, '', stored);
  const globalVersion = record?.target ?? record?.version ?? 1;
  if (globalVersion >= code) {
    run.global = before;
    return true;
  }
  const after = await migrateLevel(run, '', before, globalVersion, []);
  run.global = after.state;
  if (run.dryRun) {
    addCounts(run.counts, after.counts);
    return true;
  }
  const changes = await levelChanges(services, '', stored, before, after.state, author(run), run.secrets);
  const recordWrite: StoreWrite = {
    key: schema.schemaRecordKey,
    value: formatSchemaRecord({ version: run.phaseFrom, target: code }),
    expect: text ?? null,
  };
  const log = historyAppend(schema.logName(''), changes.entries, core.historyLimits);
  const result = await services.commit({
    writes: [...changes.writes, recordWrite],
    ...(log === undefined ? {} : { log }),
  });
  if (!result.ok) return false;
  addCounts(run.counts, after.counts);
  versions.loaded(recordWrite.value ?? undefined);
  return true;
}

/**
 * Step 2: a batch of scopes, each migrated once (its marker says whether it was). Scopes found by
 * an unordered scan come once per id they hold: a scope holding a value under an earlier id was
 * visited when that id's keys were.
 */
async function migrateScopes(run: Run, scopes: readonly FoundScope[], retries = 3): Promise<void> {
  const { core } = run;
  const { services, schema, versions } = core;
  const code = versions.code;
  const rules = core.rules.length > 0;
  // Each scope's marker and texts (of the ids it holds, when known); with rules, its parents'
  // too (their values are inherited).
  const keys: string[] = [];
  const asked = new Set<string>();
  const ask = (level: string, ids: Iterable<string>) => {
    if (asked.has(level)) return;
    asked.add(level);
    keys.push(schema.levelMarkerKey(level));
    for (const each of ids) keys.push(schema.keyOf(each, level));
  };
  // Scopes the stream read with their values need no read of their own.
  for (const { scope, read } of scopes) if (read !== undefined) asked.add(scope);
  for (const { scope, present } of scopes) {
    ask(scope, present ?? run.ids);
    if (rules) for (const parent of scopeChain(scope).slice(1)) if (parent !== '') ask(parent, run.ids);
  }
  const found =
    keys.length === 0
      ? new Map<string, string>()
      : await services.call('getMany', () => services.store.getMany(keys));
  // The rules read parents through `found`, a parent the stream read included; without rules a
  // scope the stream read is taken from what it read (no storage key made per text).
  if (rules) {
    for (const { scope, read } of scopes) {
      if (read === undefined) continue;
      if (read.marker !== undefined) found.set(schema.levelMarkerKey(scope), read.marker);
      for (const [id, text] of read.texts) found.set(schema.keyOf(id, scope), text);
    }
  }
  const migratedParents = new Map<string, LevelTexts>();
  const commits: LevelCommit[] = [];
  for (const { scope, present, via, read } of scopes) {
    const markerText = read === undefined ? found.get(schema.levelMarkerKey(scope)) : read.marker;
    const version = parseLevelMarker(markerText) ?? run.phaseFrom;
    if (version >= code) continue;
    if (present === undefined) {
      const earlier = run.ids.slice(0, run.ids.indexOf(via));
      if (earlier.some((other) => found.has(schema.keyOf(other, scope)))) continue;
    }
    const stored =
      read === undefined
        ? storedLevel(run.levelIds, (each) => found.get(schema.keyOf(each, scope)))
        : storedLevel(run.levelIds, (each) => read.texts.get(each));
    const before = await decryptLevel(services, scope, stored);
    const parents: LevelTexts[] = [];
    if (rules) {
      for (const parent of scopeChain(scope).slice(1)) {
        parents.push(parent === '' ? run.global : await migratedParent(run, parent, found, migratedParents));
      }
    }
    const after = await migrateLevel(run, scope, before, version, parents);
    if (run.dryRun) {
      addCounts(run.counts, after.counts);
      continue;
    }
    const changes = await levelChanges(
      services,
      scope,
      stored,
      before,
      after.state,
      author(run),
      run.secrets,
    );
    if (changes.writes.length === 0) {
      // Left as it was: no marker (running the steps again changes nothing either).
      addCounts(run.counts, after.counts);
      continue;
    }
    commits.push({
      scope,
      writes: [
        ...changes.writes,
        { key: schema.levelMarkerKey(scope), value: String(code), expect: markerText ?? null },
      ],
      log: historyAppend(schema.logName(scope), changes.entries, core.historyLimits),
      counts: after.counts,
    });
  }
  const lost = new Set(await commitLevels(run, commits));
  if (lost.size > 0) {
    if (retries <= 0) {
      throw new Framework_Plugin_Exception(
        `Migrating "${core.pluginId}": other writers kept changing scope "${[...lost][0]}" during the migration`,
        500,
      );
    }
    // Read again: what the stream read is what the failed commit expected.
    await migrateScopes(
      run,
      scopes.filter((found) => lost.has(found.scope)).map(({ read: _read, ...unread }) => unread),
      retries - 1,
    );
  }
}

/** A parent's texts as migrated (in memory, when its marker says it is not yet), for a scope's rules. */
async function migratedParent(
  run: Run,
  parent: string,
  found: ReadonlyMap<string, string>,
  cache: Map<string, LevelTexts>,
): Promise<LevelTexts> {
  const known = cache.get(parent);
  if (known !== undefined) return known;
  const { core } = run;
  const { schema, services } = core;
  const stored = storedLevel(run.levelIds, (id) => found.get(schema.keyOf(id, parent)));
  const texts = await decryptLevel(services, parent, stored);
  const version = parseLevelMarker(found.get(schema.levelMarkerKey(parent))) ?? run.phaseFrom;
  let migrated = texts;
  if (version < core.versions.code) {
    migrated = texts.clone();
    for (const step of stepsBetween(core, version, core.versions.code)) {
      await runMigrationStep(core.schema, step, parent, migrated);
    }
  }
  cache.set(parent, migrated);
  return migrated;
}

/**
 * Commits the levels' migrations: together where the store commits across partitions (a batch
 * of up to {@link WRITES_PER_COMMIT} writes), else one level per commit. Resolves to the scopes
 * whose conditions failed (another instance migrated them, or a writer changed them): they are
 * read and migrated again.
 */
async function commitLevels(run: Run, levels: readonly LevelCommit[]): Promise<string[]> {
  const { services } = run.core;
  const store = services.store;
  const groups: LevelCommit[][] = [];
  if (store.crossPartitionCommits === true) {
    let group: LevelCommit[] = [];
    let writes = 0;
    for (const level of levels) {
      if (group.length > 0 && writes + level.writes.length > WRITES_PER_COMMIT) {
        groups.push(group);
        group = [];
        writes = 0;
      }
      group.push(level);
      writes += level.writes.length;
    }
    if (group.length > 0) groups.push(group);
  } else {
    for (const level of levels) groups.push([level]);
  }
  const lost: string[] = [];
  for (const group of groups) {
    const logs = group.flatMap((level) => (level.log === undefined ? [] : [level.log]));
    const commit: StoreCommit = {
      writes: group.flatMap((level) => level.writes),
      // One level's log as `log` (every store with commit takes it); several as `logs`.
      ...(logs.length === 1 ? { log: logs[0] } : logs.length > 1 ? { logs } : {}),
    };
    const result = await services.commit(commit);
    if (result.ok) {
      for (const level of group) addCounts(run.counts, level.counts);
      continue;
    }
    // The levels whose keys failed are read again; the others are sent again without them.
    const failed = new Set<LevelCommit>();
    for (const level of group) {
      if (level.writes.some((write) => result.current.has(write.key))) failed.add(level);
    }
    lost.push(...[...failed].map((level) => level.scope));
    const rest = group.filter((level) => !failed.has(level));
    if (rest.length > 0) lost.push(...(await commitLevels(run, rest)));
  }
  return lost;
}

/** Step 3: the record becomes `"<code>"`, and the schema log says when and by whom. */
async function complete(run: Run, actor: { id: string | number } | null): Promise<void> {
  const { core } = run;
  const { services, schema, versions } = core;
  const code = versions.code;
  const expect = formatSchemaRecord({ version: run.phaseFrom, target: code });
  const entry = JSON.stringify({
    id: newEntryId(),
    at: new Date().toISOString(),
    from: run.phaseFrom,
    to: code,
    actor,
  });
  const result = await services.commit({
    writes: [{ key: schema.schemaRecordKey, value: String(code), expect }],
    log: { name: schema.schemaLogName, entries: [entry], keep: 1000 },
  });
  // Not ok: another instance completed it (or started over); either way the record moved on.
  if (result.ok) versions.loaded(String(code));
}

/**
 * The ids a level's texts need: only those the steps touch when every step says which (the
 * helpers do) and no rule reads the level's other values; else every id.
 */
function levelIdsOf(
  core: SettingsCore,
  steps: readonly SettingsMigration[],
  ids: readonly string[],
): readonly string[] {
  if (core.rules.length > 0 || steps.some((step) => step.touches === undefined)) return ids;
  const touched = new Set(steps.flatMap((step) => step.touches!));
  return ids.filter((id) => touched.has(id));
}

/** The stored texts of `ids` at a level, by id. */
function storedLevel(ids: readonly string[], text: (id: string) => string | undefined): StoredLevel {
  const stored = new Map<string, string>();
  for (const id of ids) {
    const found = text(id);
    if (found !== undefined) stored.set(id, found);
  }
  return stored;
}

function author(run: Run): { actor: { id: string | number } | null; via: 'migration' } {
  return { actor: run.actor ? { id: run.actor.id } : null, via: 'migration' };
}

function addCounts(into: StepCounts, from: StepCounts): void {
  for (const [version, count] of from) {
    const total = into.get(version);
    if (total === undefined) continue;
    total.levels += count.levels;
    total.changed += count.changed;
  }
}

/**
 * Runs the steps from `version` on one level's texts (in memory), counting per step, and checks
 * the result: every changed registered value must read as today's type and options, and the rules
 * must accept the level's values (`parents`: the migrated texts of the chain above, for the rules).
 */
async function migrateLevel(
  run: Run,
  scope: string,
  before: LevelTexts,
  version: number,
  parents: readonly LevelTexts[],
): Promise<{ state: LevelTexts; counts: StepCounts }> {
  const { core } = run;
  const steps = stepsBetween(core, version, core.versions.code);
  const state = before.clone();
  const counts: StepCounts = new Map();
  for (const step of steps) {
    const previous = state.clone();
    await runMigrationStep(core.schema, step, scope, state);
    counts.set(step.version, { levels: 1, changed: countChanged(previous, state) });
  }
  const last = steps[steps.length - 1];
  if (last === undefined) return { state, counts };
  for (const setting of core.schema.settings()) {
    const id = setting.getId();
    const text = state.texts.get(id);
    if (text === undefined || text === before.texts.get(id)) continue;
    if (setting.codec.decode(text) === undefined) {
      throw new MigrationFailedError(
        last.version,
        last.name,
        scope,
        `the value it leaves for setting "${id}" is not a valid ${setting.isMulti() ? 'list of ' : ''}${setting.getType()}${setting.getOptions().length > 0 ? ' among its options' : ''}`,
      );
    }
  }
  if (core.rules.length > 0) {
    const chain = scope === '' ? [state] : [state, ...parents];
    let problems: { id: string; message: string }[];
    try {
      problems = runRules(
        core.rules,
        Object.freeze(levelValues(core.schema, chain)),
        scope === '' ? null : scope,
      );
    } catch (error) {
      throw new MigrationFailedError(last.version, last.name, scope, 'a rule of the settings threw', error);
    }
    if (problems.length > 0) {
      const first = problems[0]!;
      throw new MigrationFailedError(
        last.version,
        last.name,
        scope,
        `the result breaks a rule of the settings (${first.id}: ${first.message})`,
      );
    }
  }
  return { state, counts };
}
