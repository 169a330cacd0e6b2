import type { Framework_Abstract_Settings } from '../abstract-settings';
import { levelValues } from '../rules/level-values';
import { runRules } from '../rules/run-rules';
import { decryptLevel } from '../schema-versions/level-changes';
import { LevelTexts } from '../schema-versions/level-texts';
import { describeInvalidScopePath, isScopePath, scopeChain } from '../scope/scope-path';
import { MASKED_VALUE, maskValue } from '../secrets/mask';
import type { Framework_Setting } from '../setting';
import type { SettingsCore } from '../settings-core';
import { checkChanges } from '../writes/invoke-write';
import type { SettingChange } from '../writes/write-options';
import { compareText, objectKeyOrder } from './json-order';
import { type DigestedText, planId, preconditionOf, rememberDigests } from './plan-integrity';
import { sealForPlan } from './plan-seal';
import { secretFingerprint } from './secret-fingerprint';
import type { PlanChange, PlanError, PlanErrorCode, SettingsPlan } from './settings-plan';
import { LEVELS_PER_READ, readLevels, storedScopes } from './stored-levels';

/** What a plan wants one setting of one level to become. */
export type DesiredValue =
  /** A typed value (checked as a write would check it). */
  | { readonly kind: 'value'; readonly value: unknown }
  /** A secret's value, in its storage form (a restore's, opened from the history). */
  | { readonly kind: 'secret-text'; readonly text: string }
  /** Nothing stored: the level inherits again. */
  | { readonly kind: 'delete' }
  /** A secret kept as it is, when its fingerprint matches the stored one. */
  | { readonly kind: 'fingerprint'; readonly fingerprint: string }
  /** A problem found before planning (a missing environment variable, a secret in clear…). */
  | { readonly kind: 'error'; readonly code: PlanErrorCode; readonly message: string };

/** One level a plan is asked to bring somewhere: its key as written (`''`: global) and its values by id. */
export interface DesiredLevel {
  /** The level's key as the document wrote it. */
  readonly key: string;
  /** What each named setting should become. */
  readonly values: ReadonlyMap<string, DesiredValue>;
}

/** What the plan of one level found: the checked values to write, by id (`null`: delete). */
interface LevelPlan {
  readonly scope: string;
  readonly stored: ReadonlyMap<string, string>;
  readonly plain: LevelTexts;
  /** The plain storage text each planned id will hold (`undefined`: deleted). */
  readonly target: Map<string, string | undefined>;
  /** The typed values planned (for `new`), by id. */
  readonly values: Map<string, unknown>;
}

function levelError(
  errors: PlanError[],
  scope: string | null,
  id: string,
  code: PlanErrorCode,
  message: string,
): void {
  errors.push({ scope, id, code, message });
}

/**
 * Plans the changes that bring the stored settings to `levels` (CONTRACT §13): each value checked
 * as a write would check it (type, options, the handler's `updateValue` overrides in check mode,
 * `scopeExists`, the rules of §12 on each level's result), errors listed rather than thrown, and
 * — per change — a digest of the stored text it was made against.
 *
 * @param prune - also plan the removal of every stored value the levels do not name (every level of the store)
 */
export async function buildPlan(
  container: Framework_Abstract_Settings,
  core: SettingsCore,
  levels: readonly DesiredLevel[],
  prune: boolean,
): Promise<SettingsPlan> {
  const errors: PlanError[] = [];
  const registered = core.settings();
  const ids = registered.map((setting) => setting.getId());
  // The levels that can be planned: valid paths that exist.
  const wanted = new Map<string, ReadonlyMap<string, DesiredValue>>();
  for (const level of levels) {
    const scope = level.key;
    if (scope !== '' && !isScopePath(scope)) {
      const why = describeInvalidScopePath(scope) ?? 'not a scope path';
      const named = level.values.size > 0 ? [...level.values.keys()] : [''];
      for (const id of named)
        levelError(errors, scope, id, 'scope_invalid', `"${scope}" is not a scope path: ${why}`);
      continue;
    }
    if (scope !== '' && core.scopeExists !== undefined && (await core.scopeExists(scope)) !== true) {
      const named = level.values.size > 0 ? [...level.values.keys()] : [''];
      for (const id of named)
        levelError(errors, scope, id, 'scope_not_found', `The scope "${scope}" does not exist`);
      continue;
    }
    wanted.set(scope, level.values);
  }
  const planned = new Set(wanted.keys());
  if (prune) for (const scope of ['', ...(await storedScopes(core, ids))]) planned.add(scope);
  const order = objectKeyOrder([...planned].sort(compareText));
  // The levels read: the planned ones and, for the rules, their parents.
  const read = new Set(order);
  if (core.rules.length > 0)
    for (const scope of order) for (const parent of scopeChain(scope)) read.add(parent);
  const stored = new Map<string, Map<string, string>>();
  const readList = [...read];
  // The levels' reads go out together (the document already holds every level in memory).
  const reads: Promise<Map<string, Map<string, string>>>[] = [];
  for (let start = 0; start < readList.length; start += LEVELS_PER_READ) {
    reads.push(readLevels(core, readList.slice(start, start + LEVELS_PER_READ), ids));
  }
  for (const batch of await Promise.all(reads)) for (const [scope, texts] of batch) stored.set(scope, texts);
  const salt = await core.services.salt.text();
  const plans = new Map<string, LevelPlan>();
  for (const scope of order) {
    const texts = stored.get(scope)!;
    const plain = await decryptLevel(core.services, scope, texts);
    const plan: LevelPlan = { scope, stored: texts, plain, target: new Map(), values: new Map() };
    plans.set(scope, plan);
    const desired = wanted.get(scope) ?? new Map<string, DesiredValue>();
    const changes: SettingChange[] = [];
    for (const [id, want] of desired) {
      const setting = core.schema.get(id);
      const where = scope === '' ? null : scope;
      if (setting === undefined) {
        levelError(errors, where, id, 'setting_not_found', `No setting "${id}" in plugin "${core.pluginId}"`);
        continue;
      }
      const change = await desiredChange(core, setting, scope, want, plain, salt, errors);
      if (change !== undefined) changes.push(change);
    }
    if (prune) {
      for (const id of ids) {
        if (!desired.has(id) && plain.has(id)) changes.push({ id, delete: true });
      }
    }
    if (changes.length === 0) continue;
    // The handler's overrides in check mode, as a batch runs them: their refusals are errors, the
    // values they normalise are what is planned.
    const checked = await checkChanges(container, scope, changes, { via: 'import' });
    for (const failure of checked.failures) {
      const code: PlanErrorCode = failure.error.code === 404 ? 'setting_not_found' : 'value_invalid';
      levelError(errors, scope === '' ? null : scope, failure.id, code, failure.error.message);
    }
    if (checked.failures.length > 0) continue;
    for (const pending of checked.captured) {
      const id = pending.setting.getId();
      const text = pending.remove ? undefined : pending.setting.codec.encode(pending.value);
      if (text === plain.texts.get(id) && !plain.unreadable.has(id)) continue;
      if (text === undefined && !plain.has(id)) continue;
      plan.target.set(id, text);
      plan.values.set(id, pending.remove ? null : (pending.setting.codec.decodeEncoded(text!) ?? null));
    }
  }
  if (core.rules.length > 0) checkPlannedRules(core, order, plans, stored, errors);
  return assemble(core, order, plans, sortedErrors(errors, levels), salt);
}

/**
 * The errors level by level, in the order levels are listed (invalid paths among them, as
 * written), and within a level in the order the values were given; the rules' problems last.
 */
function sortedErrors(errors: readonly PlanError[], levels: readonly DesiredLevel[]): PlanError[] {
  const order = objectKeyOrder([...new Set(errors.map((error) => error.scope ?? ''))].sort(compareText));
  const levelRank = new Map(order.map((level, index) => [level, index]));
  const idRank = new Map<string, number>();
  for (const level of levels) {
    let index = 0;
    for (const id of level.values.keys()) idRank.set(`${level.key}\u0000${id}`, index++);
  }
  const rankOf = (error: PlanError) =>
    error.code === 'rule_failed'
      ? Number.MAX_SAFE_INTEGER
      : (idRank.get(`${error.scope ?? ''}\u0000${error.id}`) ?? Number.MAX_SAFE_INTEGER - 1);
  return [...errors].sort(
    (a, b) => levelRank.get(a.scope ?? '')! - levelRank.get(b.scope ?? '')! || rankOf(a) - rankOf(b),
  );
}

/** Turns one desired value into a change to check (or an error, or nothing: kept as it is). */
async function desiredChange(
  core: SettingsCore,
  setting: Framework_Setting,
  scope: string,
  want: DesiredValue,
  plain: LevelTexts,
  salt: string,
  errors: PlanError[],
): Promise<SettingChange | undefined> {
  const id = setting.getId();
  const where = scope === '' ? null : scope;
  switch (want.kind) {
    case 'error':
      levelError(errors, where, id, want.code, want.message);
      return undefined;
    case 'delete':
      return plain.has(id) ? { id, delete: true } : undefined;
    case 'fingerprint': {
      if (!setting.isSecret()) {
        levelError(
          errors,
          where,
          id,
          'value_invalid',
          `Setting "${id}" is not a secret: give its value, not a fingerprint`,
        );
        return undefined;
      }
      const text = plain.texts.get(id);
      const key = core.schema.keyOf(id, scope);
      const current = text === undefined ? undefined : secretFingerprint(salt, key, text);
      if (current !== want.fingerprint) {
        levelError(
          errors,
          where,
          id,
          'secret_mismatch',
          `The secret "${id}" stored here does not match the document's fingerprint: give it with {"$env": "NAME"}`,
        );
      }
      return undefined;
    }
    case 'secret-text': {
      const value = setting.codec.decode(want.text);
      if (value === undefined) {
        levelError(
          errors,
          where,
          id,
          'value_invalid',
          `The restored value of "${id}" does not read as today's type`,
        );
        return undefined;
      }
      return { id, value };
    }
    case 'value': {
      if (want.value === null) return plain.has(id) ? { id, delete: true } : undefined;
      return { id, value: want.value };
    }
  }
}

/** Runs the rules at every level with changes, on its values after the plan (its parents' planned changes included). */
function checkPlannedRules(
  core: SettingsCore,
  order: readonly string[],
  plans: ReadonlyMap<string, LevelPlan>,
  stored: ReadonlyMap<string, ReadonlyMap<string, string>>,
  errors: PlanError[],
): void {
  const after = (scope: string): LevelTexts => {
    const plan = plans.get(scope);
    const state = plan?.plain.clone() ?? new LevelTexts(new Map(stored.get(scope) ?? []));
    for (const [id, text] of plan?.target ?? []) {
      state.remove(id);
      if (text !== undefined) state.texts.set(id, text);
    }
    return state;
  };
  for (const scope of order) {
    if ((plans.get(scope)?.target.size ?? 0) === 0) continue;
    const chain = scopeChain(scope).map(after);
    const where = scope === '' ? null : scope;
    let problems: { id: string; message: string }[];
    try {
      problems = runRules(core.rules, Object.freeze(levelValues(core.schema, chain)), where);
    } catch {
      problems = [{ id: '', message: 'A rule of the settings failed (threw) on this level' }];
    }
    for (const problem of problems) levelError(errors, where, problem.id, 'rule_failed', problem.message);
  }
}

/** The plan: its changes in level order (registration order within a level), preconditions, sealed secrets and id. */
async function assemble(
  core: SettingsCore,
  order: readonly string[],
  plans: ReadonlyMap<string, LevelPlan>,
  errors: PlanError[],
  salt: string,
): Promise<SettingsPlan> {
  const changes: PlanChange[] = [];
  const preconditions: (string | null)[] = [];
  const digested: DigestedText[] = [];
  const sealed: Record<string, string> = {};
  const plainSecrets: Record<string, string> = {};
  for (const scope of order) {
    const plan = plans.get(scope);
    if (plan === undefined || plan.target.size === 0) continue;
    for (const setting of core.settings()) {
      const id = setting.getId();
      if (!plan.target.has(id)) continue;
      const text = plan.target.get(id);
      const secret = setting.isSecret();
      const before = plan.plain.texts.get(id);
      const old = plan.plain.unreadable.has(id)
        ? MASKED_VALUE
        : before === undefined
          ? null
          : (setting.codec.decode(before) ?? before);
      const key = core.schema.keyOf(id, scope);
      const index = changes.length;
      changes.push({
        scope: scope === '' ? null : scope,
        id,
        action: text === undefined ? 'delete' : 'set',
        old: maskValue(old, secret),
        new: maskValue(plan.values.get(id) ?? null, secret),
      });
      const stored = plan.stored.get(id);
      const digest = preconditionOf(salt, key, stored);
      preconditions.push(digest);
      digested.push({ key, text: stored, digest });
      if (secret && text !== undefined) {
        sealed[String(index)] = await sealForPlan(salt, key, text);
        plainSecrets[String(index)] = text;
      }
    }
  }
  const id = planId(salt, core.pluginId, changes, errors, preconditions, plainSecrets);
  const made: SettingsPlan = { plugin: core.pluginId, id, changes, errors, preconditions, sealed };
  rememberDigests(made, salt, digested);
  return made;
}
