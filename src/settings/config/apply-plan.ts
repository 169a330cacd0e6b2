import type { StoreCheck, StoreLogAppend, StoreWrite } from '../../storage/store-commit';
import { newEntryId, type StoredHistoryEntry } from '../history/history-entry';
import { historyAppend, sealTexts } from '../history/history-log';
import { levelValues } from '../rules/level-values';
import { SettingsRulesError } from '../rules/rules-error';
import { runRules } from '../rules/run-rules';
import { decryptLevel } from '../schema-versions/level-changes';
import type { LevelTexts } from '../schema-versions/level-texts';
import { isScopePath, scopeChain } from '../scope/scope-path';
import { maskValue } from '../secrets/mask';
import { isEncryptedText } from '../secrets/secret-cipher';
import type { SettingsCore } from '../settings-core';
import { storeName } from '../store-calls';
import { UnsupportedByStoreError } from '../writes/unsupported-by-store';
import type { WriteOptions } from '../writes/write-options';
import { currentPrecondition, planId } from './plan-integrity';
import { openForPlan } from './plan-seal';
import { type PlanConflict, PlanConflictError, PlanRefusedError, type SettingsPlan } from './settings-plan';

/** How often an apply starts over after a key outside the plan (one a rule read) changed under it. */
const MAX_ATTEMPTS = 8;

/** One planned change, checked and ready to write. */
interface Planned {
  readonly scope: string;
  readonly id: string;
  readonly key: string;
  /** The plain storage text to store; `undefined` deletes. */
  readonly text: string | undefined;
  readonly precondition: string | null;
  /** Its index among the plan's changes. */
  readonly index: number;
}

function notOurs(why: string): PlanRefusedError {
  return new PlanRefusedError(`This plan cannot be applied: ${why}`);
}

/** Checks a plan's shape and integrity (its id recomputed) and returns its changes with their texts. */
async function checkedChanges(core: SettingsCore, plan: SettingsPlan, salt: string): Promise<Planned[]> {
  if (typeof plan !== 'object' || plan === null) throw notOurs('it is not a plan');
  const { changes, errors, preconditions, sealed } = plan;
  if (plan.plugin !== core.pluginId)
    throw notOurs(`it is for plugin ${JSON.stringify(plan.plugin)}, not "${core.pluginId}"`);
  if (!Array.isArray(changes) || !Array.isArray(errors) || !Array.isArray(preconditions)) {
    throw notOurs('it was not made by this package');
  }
  if (typeof sealed !== 'object' || sealed === null || preconditions.length !== changes.length) {
    throw notOurs('it was not made by this package');
  }
  if (errors.length > 0) {
    throw new PlanRefusedError(
      `This plan has ${errors.length} error${errors.length === 1 ? '' : 's'}: fix them and plan again`,
      errors,
    );
  }
  const planned: Planned[] = [];
  const plainSecrets: Record<string, string> = {};
  for (const [index, change] of changes.entries()) {
    const scope = change?.scope === null ? '' : change?.scope;
    const setting = typeof change?.id === 'string' ? core.schema.get(change.id) : undefined;
    if (typeof scope !== 'string' || (scope !== '' && !isScopePath(scope)) || setting === undefined) {
      throw notOurs('it names a level or setting this plugin does not have');
    }
    const key = core.schema.keyOf(setting.getId(), scope);
    let text: string | undefined;
    if (change.action === 'set') {
      if (setting.isSecret()) {
        text = await openForPlan(salt, key, sealed[String(index)]);
        if (text === undefined)
          throw notOurs('a secret it carries does not open (edited, or made for another store)');
        plainSecrets[String(index)] = text;
      } else {
        if (setting.describeInvalidValue(change.new) !== undefined) throw notOurs('it was edited');
        text = setting.codec.encode(change.new);
      }
    } else if (change.action !== 'delete') {
      throw notOurs('it was not made by this package');
    }
    const precondition = preconditions[index];
    if (precondition !== null && typeof precondition !== 'string')
      throw notOurs('it was not made by this package');
    planned.push({ scope, id: setting.getId(), key, text, precondition, index });
  }
  const id = planId(salt, core.pluginId, changes, errors, preconditions, plainSecrets);
  if (id !== plan.id) throw notOurs('it was edited, or not made by this package');
  return planned;
}

/**
 * `settings.applyPlan(plan)` (CONTRACT §13): refuses a plan with errors or one not made by this
 * package (400); otherwise writes every change in one atomic step — one per scope, in order, on a
 * store that commits one partition at a time — conditional on each planned key still holding the
 * text it held when the plan was made (412 listing exactly the keys that changed; keys outside
 * the plan never invalidate it). History: one entry per change, `via: 'import'`.
 */
export async function applyPlan(
  core: SettingsCore,
  plan: SettingsPlan,
  options: WriteOptions = {},
): Promise<{ applied: number }> {
  if (typeof core.store.commit !== 'function') {
    throw new UnsupportedByStoreError('applying plans', storeName(core.store));
  }
  const salt = await core.services.salt.text();
  const planned = await checkedChanges(core, plan, salt);
  if (planned.length === 0) return { applied: 0 };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // The schema record as it is now (a refused commit may have been refused for it).
    const guard = await core.versions.guard(core.pluginId);
    const outcome = await attemptApply(core, plan, planned, options, guard, salt);
    if (outcome === 'again') {
      core.versions.forget();
      continue;
    }
    // A fresh install's first write recorded its version.
    if (guard.write !== undefined) core.versions.loaded(guard.write.value ?? undefined);
    for (const change of planned) {
      const setting = core.schema.get(change.id);
      if (setting !== undefined) core.levels.markStale(setting, change.scope);
    }
    return { applied: planned.length };
  }
  throw new PlanConflictError([], []);
}

/** The levels of a plan in its order. */
function levelsOf(planned: readonly Planned[]): string[] {
  return [...new Set(planned.map((change) => change.scope))];
}

async function attemptApply(
  core: SettingsCore,
  plan: SettingsPlan,
  planned: readonly Planned[],
  options: WriteOptions,
  guard: Awaited<ReturnType<SettingsCore['versions']['guard']>>,
  salt: string,
): Promise<'done' | 'again'> {
  const { schema, services } = core;
  const ids = core.settings().map((setting) => setting.getId());
  const levels = levelsOf(planned);
  // The planned keys and, for the rules, every setting's chain at each planned level.
  const keys = new Set(planned.map((change) => change.key));
  const ruleKeys = new Set<string>();
  if (core.rules.length > 0) {
    for (const scope of levels) {
      for (const at of scopeChain(scope)) for (const id of ids) ruleKeys.add(schema.keyOf(id, at));
    }
  }
  const asked = [...new Set([...keys, ...ruleKeys])];
  const found = await services.call('getMany', () => services.store.getMany(asked));
  // Preconditions: every planned key still holds what it held.
  const conflicts: PlanConflict[] = [];
  for (const change of planned) {
    const current = currentPrecondition(plan, change.index, salt, change.key, found.get(change.key));
    if (current !== change.precondition) {
      conflicts.push({ scope: change.scope === '' ? null : change.scope, id: change.id });
    }
  }
  if (conflicts.length > 0) throw new PlanConflictError(conflicts);
  const byLevel = new Map<string, Planned[]>(levels.map((scope) => [scope, []]));
  for (const change of planned) byLevel.get(change.scope)!.push(change);
  if (core.rules.length > 0) await checkRules(core, levels, byLevel, found);
  const parts = await Promise.all(
    levels.map((scope) => levelPart(core, scope, byLevel.get(scope)!, found, options)),
  );
  const checks = (scope: string | undefined): StoreCheck[] => {
    const all: StoreCheck[] = guard.check === undefined ? [] : [guard.check];
    for (const key of ruleKeys) if (!keys.has(key)) all.push({ key, expect: found.get(key) ?? null });
    return scope === undefined ? all : all.filter((check) => partitionOf(check.key) === scope);
  };
  const store = services.store;
  const recordWrite = guard.write === undefined ? [] : [guard.write];
  if (store.crossPartitionCommits === true) {
    const result = await services.commit({
      writes: [...parts.flatMap((part) => part.writes), ...recordWrite],
      checks: checks(undefined),
      logs: parts.flatMap((part) => (part.log === undefined ? [] : [part.log])),
    });
    if (result.ok) return 'done';
    return conflictsOf(planned, result.current, []);
  }
  // One partition at a time, in the plan's order; the conditions on other partitions compared first.
  if (recordWrite.length > 0) {
    const recorded = await services.commit({ writes: recordWrite });
    if (!recorded.ok) return 'again';
  }
  const applied: (string | null)[] = [];
  for (const [index, scope] of levels.entries()) {
    const part = parts[index]!;
    const local = checks(scope);
    const remote = checks(undefined).filter((check) => partitionOf(check.key) !== scope);
    if (remote.length > 0) {
      const now = await services.call('getMany', () => store.getMany(remote.map((check) => check.key)));
      if (remote.some((check) => (now.get(check.key) ?? null) !== check.expect)) {
        if (applied.length === 0) return 'again';
        throw new PlanConflictError([], applied);
      }
    }
    const result = await services.commit({
      writes: part.writes,
      checks: local,
      ...(part.log === undefined ? {} : { log: part.log }),
    });
    if (!result.ok) {
      if (applied.length === 0) return conflictsOf(planned, result.current, []);
      return conflictsOf(planned, result.current, applied);
    }
    applied.push(scope === '' ? null : scope);
  }
  return 'done';
}

/** The partition of a key (the scope after the first `@`; `''` for the global level). */
function partitionOf(key: string): string {
  const at = key.indexOf('@');
  return at === -1 ? '' : key.slice(at + 1);
}

/** After a refused commit: 412 for the planned keys that changed, else (a key a rule read changed) start over. */
function conflictsOf(
  planned: readonly Planned[],
  current: ReadonlyMap<string, string | null>,
  applied: readonly (string | null)[],
): 'again' {
  const changed = planned
    .filter((change) => current.has(change.key))
    .map((change) => ({ scope: change.scope === '' ? null : change.scope, id: change.id }));
  if (changed.length > 0 || applied.length > 0) throw new PlanConflictError(changed, applied);
  return 'again';
}

/** The rules at every planned level, on its values after the plan (parents' planned changes included). */
async function checkRules(
  core: SettingsCore,
  levels: readonly string[],
  /** The plan's changes by level. */
  byLevel: ReadonlyMap<string, readonly Planned[]>,
  found: ReadonlyMap<string, string>,
): Promise<void> {
  const ids = core.settings().map((setting) => setting.getId());
  const states = new Map<string, LevelTexts>();
  const stateOf = async (scope: string): Promise<LevelTexts> => {
    let state = states.get(scope);
    if (state === undefined) {
      const stored = new Map<string, string>();
      for (const id of ids) {
        const text = found.get(core.schema.keyOf(id, scope));
        if (text !== undefined) stored.set(id, text);
      }
      state = await decryptLevel(core.services, scope, stored);
      for (const change of byLevel.get(scope) ?? []) {
        state.remove(change.id);
        if (change.text !== undefined) state.texts.set(change.id, change.text);
      }
      states.set(scope, state);
    }
    return state;
  };
  for (const scope of levels) {
    const chain = await Promise.all(scopeChain(scope).map(stateOf));
    const where = scope === '' ? null : scope;
    const problems = runRules(core.rules, Object.freeze(levelValues(core.schema, chain)), where);
    if (problems.length > 0) throw new SettingsRulesError(problems, where);
  }
}

/** One level's writes (each conditional on the text just read) and its history entries, `via: 'import'`. */
async function levelPart(
  core: SettingsCore,
  scope: string,
  /** The plan's changes at this level. */
  planned: readonly Planned[],
  found: ReadonlyMap<string, string>,
  options: WriteOptions,
): Promise<{ writes: StoreWrite[]; log: StoreLogAppend | undefined }> {
  const { schema, cipher } = core;
  const writes: StoreWrite[] = [];
  const entries: StoredHistoryEntry[] = [];
  const log = schema.logName(scope);
  const at = new Date().toISOString();
  for (const change of planned) {
    const setting = schema.get(change.id)!;
    const secret = setting.isSecret();
    const current = found.get(change.key);
    let currentPlain = current;
    if (secret && current !== undefined && isEncryptedText(current)) {
      currentPlain =
        cipher === undefined ? undefined : await cipher.decrypt(current, change.key).catch(() => undefined);
    }
    let text: string | null = null;
    if (change.text !== undefined) {
      text = secret && cipher !== undefined ? await cipher.encrypt(change.text, change.key) : change.text;
    }
    writes.push({ key: change.key, value: text, expect: current ?? null });
    if (core.historyLimits.limit <= 0) continue;
    const id = newEntryId();
    const sealed =
      secret && cipher !== undefined
        ? await sealTexts(cipher, log, id, { old: currentPlain, new: change.text })
        : undefined;
    const old = currentPlain === undefined ? null : (setting.codec.decode(currentPlain) ?? null);
    const next = change.text === undefined ? null : (setting.codec.decode(change.text) ?? null);
    entries.push({
      id,
      at,
      setting_id: change.id,
      scope: scope === '' ? null : scope,
      action: change.text === undefined ? 'delete' : 'update',
      old: maskValue(old, secret),
      new: maskValue(next, secret),
      actor: options.actor ? { id: options.actor.id } : null,
      via: 'import',
      ...(sealed === undefined ? {} : { sealed }),
    });
  }
  return { writes, log: historyAppend(log, entries, core.historyLimits) };
}
