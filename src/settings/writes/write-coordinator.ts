import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { OptionStoreError, type OptionStoreOperation } from '../../errors/option-store-error';
import {
  keyPartition,
  type StoreCheck,
  type StoreCommit,
  type StoreCommitResult,
  type StoreLogAppend,
  type StoreWrite,
} from '../../storage/store-commit';
import { entityTag, ifMatchHolds } from '../etag/entity-tag';
import { newEntryId, type StoredHistoryEntry } from '../history/history-entry';
import { type HistoryLimits, historyAppend, sealTexts } from '../history/history-log';
import { SettingsRulesError } from '../rules/rules-error';
import { runRules } from '../rules/run-rules';
import type { SettingsRule } from '../rules/settings-rule';
import type { SchemaGuard } from '../schema-versions/schema-versions';
import { maskValue } from '../secrets/mask';
import type { Framework_Setting } from '../setting';
import { storeName } from '../store-calls';
import type { LevelEntry } from '../values/level-entry';
import type { LevelServices } from '../values/level-services';
import { plainStoredText, readStoredText, type TextToStore, writeStoredText } from '../values/stored-text';
import type { ValueLevel } from '../values/value-level';
import type { ValueLevels } from '../values/value-levels';
import { applyWithoutCommit } from './apply-without-commit';
import type { PendingChange } from './pending-change';
import { PreconditionFailedError } from './precondition-failed';
import { UnsupportedByStoreError } from './unsupported-by-store';
import type { WriteOptions } from './write-options';

/**
 * How often a write rebuilt on another writer's change is tried before it gives up. Every
 * refused attempt means another writer's commit succeeded, so the system as a whole always
 * progresses; the store time limit (`storeTimeoutMs`) bounds the wait of one write long before
 * this does.
 */
const MAX_ATTEMPTS = 10_000;

/** What one setting's entry at the written level held right after a write: what the write made of it. */
export interface WrittenState {
  /** The resolved value (`null`: none; the default applies). */
  readonly value: unknown;
  /** Index in the level's chain of the level `value` comes from; -1 for none. */
  readonly originIndex: number;
  /** The stored texts along the level's chain. */
  readonly texts: readonly (string | undefined)[];
  /** The value is an unreadable scoped secret's `null` (no default applies). */
  readonly blocked?: boolean;
}

/** The outcome of a write, per change in order: whether it removed a stored value (deletes) or changed the stored text. */
export interface WriteOutcome {
  /** Per change: true when the stored text changed (for a delete: a stored value was removed). */
  readonly changed: readonly boolean[];
  /**
   * By setting id: the written level's entry as the write left it, when that level was cached
   * and current — so an answer can show exactly this write, whatever other writes follow.
   */
  readonly states: ReadonlyMap<string, WrittenState>;
}

/**
 * A write as the coordinator takes it: the writer's options, and what its `ifMatch` compares
 * with — the one setting's tag (a single write) or the tag of every setting at the level (a
 * batch, like `GET …/settings`).
 */
export interface WriteRequest extends WriteOptions {
  /** `setting` (default): the tag of the one change's setting; `list`: the tag of every setting at the level. */
  readonly ifMatchOf?: 'setting' | 'list';
}

/** What the write path of a container is configured with besides its store access. */
export interface WriteCoordinatorOptions {
  /** How much history each level's log keeps. */
  readonly history: HistoryLimits;
  /** The rules across settings, run on every write. */
  readonly rules: readonly SettingsRule[];
  /** The container's id, named in errors. */
  readonly pluginId: string;
}

/** The operation a write is reported as (errors, time limit): `set` or `delete` for one change, `commit` for several. */
function operationOf(changes: readonly PendingChange[]): OptionStoreOperation {
  if (changes.length !== 1) return 'commit';
  return changes[0]!.remove ? 'delete' : 'set';
}

/** A change with its key. */
interface PlannedChange {
  readonly change: PendingChange;
  readonly key: string;
}

/** What one attempt will send. */
interface Plan {
  readonly writes: StoreWrite[];
  readonly entries: StoredHistoryEntry[];
  /** Per key: the stored text after the write (`undefined`: deleted) and the value a fresh reader decodes from it. */
  readonly results: Map<string, { text: string | undefined; value: unknown }>;
  readonly changed: boolean[];
  /** When its history entries were made (ISO 8601), set with the first entry. */
  at: string | undefined;
}

/** Whether `value` is a promise (the steps of a write are synchronous unless they wait for a store or a cipher). */
function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/**
 * The one write path of a settings container (docs/architecture.md, "The write path"): every
 * update, delete, batch, admin save and scoped write becomes one store commit, conditional on the
 * stored texts its history entries were computed from, on the schema record (an instance at
 * another schema version never writes), and — when there are rules or an If-Match — on the texts
 * the rules read and the tag covers, so that a change and its entry are one atomic step and
 * If-Match and rules hold against every writer.
 */
export class WriteCoordinator {
  readonly #services: LevelServices;
  readonly #levels: ValueLevels;
  readonly #history: HistoryLimits;
  readonly #rules: readonly SettingsRule[];
  readonly #pluginId: string;
  /**
   * The last guard that checks the record (it names this version), kept while the record's text
   * is the one it expects: the record is followed by the change feed and corrected by every
   * commit the check made fail, so a write need not work its status out again.
   */
  #checkGuard: SchemaGuard | undefined;

  /**
   * @param services - the container's store access
   * @param levels - the caches to keep in step with what is written
   * @param options - history bounds, rules, the container's id
   */
  constructor(services: LevelServices, levels: ValueLevels, options: WriteCoordinatorOptions) {
    this.#services = services;
    this.#levels = levels;
    this.#history = options.history;
    this.#rules = options.rules;
    this.#pluginId = options.pluginId;
  }

  /** Whether the store has the atomic write (`commit`): If-Match, atomic batches and history need it. */
  get atomic(): boolean {
    return typeof this.#services.store.commit === 'function';
  }

  /**
   * Applies `changes` (all of one level) in one atomic step.
   *
   * @throws {@link PreconditionFailedError} (412) when `request.ifMatch` does not match;
   *   {@link UnsupportedByStoreError} (501) for `ifMatch` on a store without `commit`;
   *   `SettingsRulesError` (400) when a rule refuses the result, 500 when one throws;
   *   `SchemaOutdatedError` (409) when the stored settings are at another schema version;
   *   `OptionStoreError` when the store fails
   */
  write(changes: readonly PendingChange[], request: WriteRequest): Promise<WriteOutcome> {
    const { schema } = this.#services;
    const planned = changes.map((change) => ({
      change,
      key: schema.keyOf(change.setting.getId(), change.scope),
    }));
    const ifMatch = request.ifMatch;
    if (ifMatch !== undefined) {
      if (!this.atomic) {
        return Promise.reject(
          new UnsupportedByStoreError('conditional writes', storeName(this.#services.store)),
        );
      }
      if (changes.length !== 1 && request.ifMatchOf !== 'list') {
        return Promise.reject(
          new Framework_Plugin_Exception('ifMatch applies to a write of one setting, or to a batch', 400),
        );
      }
    }
    const keys = planned.map(({ key }) => key);
    const operation = operationOf(changes);
    return this.#services.queued(operation, keys, () => this.#write(planned, request, operation));
  }

  async #write(
    planned: readonly PlannedChange[],
    request: WriteRequest,
    operation: OptionStoreOperation,
  ): Promise<WriteOutcome> {
    const scope = planned[0]!.change.scope;
    const startedAt = this.#snapshotGenerations(planned);
    const guarding = this.#guard();
    let guard = isPromise(guarding) ? await guarding : guarding;
    const ifMatch = request.ifMatch;
    const list = ifMatch !== undefined && request.ifMatchOf === 'list';
    // The texts the If-Match tag and the rules are made of: read now, checked by the commit.
    const watched = this.#watchedSettings(planned, ifMatch !== undefined, list);
    const reading = this.#currentTexts(planned, scope, watched);
    const texts = isPromise(reading) ? await reading : reading;
    if (ifMatch !== undefined) await this.#checkIfMatch(planned, scope, texts, ifMatch, list, true);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const planning = this.#plan(planned, texts, request);
      const plan = isPromise(planning) ? await planning : planning;
      if (this.#rules.length > 0) await this.#checkRules(planned, scope, texts, plan);
      const checks = this.#checks(planned, scope, watched, texts, guard);
      const result = await this.#commit(plan, scope, texts, checks, guard, operation);
      if (result.ok) {
        if (guard.write !== undefined) this.#services.versions.loaded(guard.write.value ?? undefined);
        this.#remember(planned, plan, startedAt);
        return { changed: plan.changed, states: this.#states(planned, plan) };
      }
      const recordKey = this.#services.schema.schemaRecordKey;
      for (const [key, text] of result.current) {
        if (key === recordKey) this.#services.versions.loaded(text ?? undefined);
        else texts.set(key, text ?? undefined);
      }
      if (result.current.has(recordKey)) guard = await this.#guard();
      for (const { change, key } of planned) {
        if (result.current.has(key)) this.#levels.markStale(change.setting, change.scope);
      }
      if (ifMatch !== undefined) await this.#checkIfMatch(planned, scope, texts, ifMatch, list, false);
    }
    throw new OptionStoreError('commit', {
      store: storeName(this.#services.store),
      message: `Gave up writing ${planned.map(({ change }) => `"${change.setting.getId()}"`).join(', ')} after ${MAX_ATTEMPTS} attempts: other writers kept changing it`,
    });
  }

  /**
   * What the write carries for the schema record (see `SchemaVersions.guard`): at once when the
   * record is known, its first use done, and its text the one the last check expected (the
   * status of a record that names this version depends on its text alone).
   */
  #guard(): SchemaGuard | Promise<SchemaGuard> {
    const versions = this.#services.versions;
    const kept = this.#checkGuard;
    if (kept !== undefined && versions.settled && versions.text === kept.check?.expect) return kept;
    return versions.guard(this.#pluginId).then((guard) => {
      this.#checkGuard = guard.check !== undefined && guard.write === undefined ? guard : undefined;
      return guard;
    });
  }

  /**
   * The settings whose texts along the level's chain the write reads besides its own keys: every
   * setting when there are rules (they see every value) or for a batch's If-Match (the list tag);
   * the one setting's chain for a single If-Match (its tag covers the inherited value); none else.
   */
  #watchedSettings(planned: readonly PlannedChange[], ifMatch: boolean, list: boolean): Framework_Setting[] {
    if (this.#rules.length > 0 || list) return [...this.#services.schema.settings()];
    if (ifMatch) return [planned[0]!.change.setting];
    return [];
  }

  /** The generation of every cached entry the write will update, and whether it was fresh, as the write starts. */
  #snapshotGenerations(
    planned: readonly PlannedChange[],
  ): Map<LevelEntry, { generation: number; fresh: boolean }> {
    const snapshot = new Map<LevelEntry, { generation: number; fresh: boolean }>();
    for (const { change } of planned) {
      for (const level of this.#levels.seeing(change.scope)) {
        const entry = level.peek(change.setting);
        if (entry !== undefined) snapshot.set(entry, { generation: entry.generation, fresh: entry.fresh });
      }
    }
    return snapshot;
  }

  /**
   * The current stored text of every changed key, and of the whole scope chain of every watched
   * setting: from fresh cache entries, the rest in one `getMany`.
   */
  #currentTexts(
    planned: readonly PlannedChange[],
    scope: string,
    watched: readonly Framework_Setting[],
  ): Map<string, string | undefined> | Promise<Map<string, string | undefined>> {
    const { schema } = this.#services;
    const texts = new Map<string, string | undefined>();
    const missing: string[] = [];
    const level = this.#levels.peek(scope);
    for (const { change, key } of planned) wantText(texts, missing, key, level?.peek(change.setting), 0);
    if (watched.length > 0) {
      const chain = level?.chain ?? this.#levels.level(scope).chain;
      for (const setting of watched) {
        const entry = level?.peek(setting);
        for (let index = 0; index < chain.length; index++) {
          wantText(texts, missing, schema.keyOf(setting.getId(), chain[index]!), entry, index);
        }
      }
    }
    if (missing.length === 0) return texts;
    return this.#read([...new Set(missing)]).then((found) => {
      for (const key of missing) texts.set(key, found.get(key));
      return texts;
    });
  }

  async #read(keys: readonly string[]): Promise<Map<string, string>> {
    const { store } = this.#services;
    return this.#services.call('getMany', () => store.getMany(keys));
  }

  /** The entity tag, over `texts`, of the one change's setting or (`list`) of every setting at `scope`. */
  async #tagOf(
    planned: readonly PlannedChange[],
    scope: string,
    texts: ReadonlyMap<string, string | undefined>,
    list: boolean,
  ): Promise<string> {
    const salt = this.#services.salt.current ?? (await this.#services.salt.text());
    const { schema } = this.#services;
    const chain = this.#levels.level(scope).chain;
    const settings = list ? [...schema.settings()] : [planned[0]!.change.setting];
    const parts: (readonly [string, string | undefined])[] = [];
    for (const setting of settings) {
      for (const at of chain) {
        const key = schema.keyOf(setting.getId(), at);
        parts.push([key, texts.get(key)]);
      }
    }
    return entityTag(salt, parts);
  }

  /**
   * Compares `ifMatch` with the current tag; a mismatch computed from cached texts is checked
   * again on texts read now (a stale cache never causes a false 412). A batch's `*` always
   * matches; a single write's `*` matches when a value is stored.
   */
  async #checkIfMatch(
    planned: readonly PlannedChange[],
    scope: string,
    texts: Map<string, string | undefined>,
    ifMatch: string,
    list: boolean,
    mayReread: boolean,
  ): Promise<void> {
    if (list && ifMatch.trim() === '*') return;
    const target = planned[0]!;
    let tag = await this.#tagOf(planned, scope, texts, list);
    if (ifMatchHolds(ifMatch, tag, texts.get(target.key) !== undefined)) return;
    if (mayReread) {
      const keys = [...texts.keys()];
      const found = await this.#read(keys);
      for (const key of keys) texts.set(key, found.get(key));
      tag = await this.#tagOf(planned, scope, texts, list);
      if (ifMatchHolds(ifMatch, tag, texts.get(target.key) !== undefined)) return;
    }
    throw new PreconditionFailedError(list ? 'batch' : target.change.setting.getId(), tag);
  }

  /**
   * The writes and history entries of one attempt. Every change is written, conditional on the
   * text it replaces (so that a stale cache can never make a write disappear); only those that
   * alter the stored text get a history entry (with a cipher, every write of a secret does).
   * Synchronous unless a secret is encrypted or decrypted.
   */
  #plan(
    planned: readonly PlannedChange[],
    texts: ReadonlyMap<string, string | undefined>,
    request: WriteRequest,
  ): Plan | Promise<Plan> {
    const plan: Plan = { writes: [], entries: [], results: new Map(), changed: [], at: undefined };
    // Entries are built only when they will be stored (a store with `commit`, history kept).
    const keepsHistory = this.#history.limit > 0 && typeof this.#services.store.commit === 'function';
    let waiting: Promise<void> | undefined;
    for (const item of planned) {
      if (waiting !== undefined) {
        waiting = waiting.then(() => this.#planChange(plan, item, texts, request, keepsHistory));
        continue;
      }
      const step = this.#planChange(plan, item, texts, request, keepsHistory);
      if (isPromise(step)) waiting = step;
    }
    return waiting === undefined ? plan : waiting.then(() => plan);
  }

  /** Adds one change to `plan` (in order): its write, its result and, when it alters the text, its history entry. */
  #planChange(
    plan: Plan,
    { change, key }: PlannedChange,
    texts: ReadonlyMap<string, string | undefined>,
    request: WriteRequest,
    keepsHistory: boolean,
  ): void | Promise<void> {
    const { setting } = change;
    const { cipher } = this.#services;
    const current = texts.get(key);
    const currentPlain = plainStoredText(setting, key, current, cipher);
    const stored = change.remove ? undefined : writeStoredText(setting, key, change.value, cipher);
    if (isPromise(currentPlain) || isPromise(stored)) {
      return Promise.all([currentPlain, stored]).then(([plain, text]) =>
        this.#addChange(plan, change, key, current, plain, text, request, keepsHistory),
      );
    }
    return this.#addChange(plan, change, key, current, currentPlain, stored, request, keepsHistory);
  }

  #addChange(
    plan: Plan,
    change: PendingChange,
    key: string,
    current: string | undefined,
    currentPlain: string | undefined,
    stored: TextToStore | undefined,
    request: WriteRequest,
    keepsHistory: boolean,
  ): void | Promise<void> {
    const { setting } = change;
    // A secret is encrypted with a fresh IV each time: even an equal value is a new text, a new
    // tag and a history entry, so that what a write answers never tells whether a guess was right.
    const text = stored?.text;
    // Checked once already (updateValue): read back as every reader will, without checking again.
    const value = stored === undefined ? null : (setting.codec.decodeEncoded(stored.plain) ?? null);
    const changed = stored === undefined ? current !== undefined : text !== current;
    plan.changed.push(changed);
    plan.writes.push({ key, value: text ?? null, expect: current ?? null });
    plan.results.set(key, { text, value });
    if (!changed || !keepsHistory) return;
    const secret = setting.isSecret();
    const old = currentPlain === undefined ? null : (setting.codec.decode(currentPlain) ?? null);
    const now = Date.now();
    plan.at ??= new Date(now).toISOString();
    const id = newEntryId(now);
    const entry: StoredHistoryEntry = {
      id,
      at: plan.at,
      setting_id: setting.getId(),
      scope: change.scope === '' ? null : change.scope,
      action: change.remove ? 'delete' : 'update',
      old: maskValue(old, secret),
      new: maskValue(value, secret),
      actor: request.actor ? { id: request.actor.id } : null,
      via: request.via ?? 'api',
    };
    const { cipher } = this.#services;
    if (!secret || cipher === undefined) {
      plan.entries.push(entry);
      return;
    }
    const log = this.#services.schema.logName(change.scope);
    return sealTexts(cipher, log, id, { old: currentPlain, new: stored?.plain }).then((sealed) => {
      plan.entries.push({ ...entry, sealed });
    });
  }

  /**
   * Runs the rules once on every registered setting's value at the written level as the write
   * leaves it (the written texts on top of the chain's current ones; inherited values and defaults
   * included).
   *
   * @throws {@link SettingsRulesError} (400) for any problem; `SettingsRuleFailedError` (500) when a rule throws
   */
  async #checkRules(
    planned: readonly PlannedChange[],
    scope: string,
    texts: ReadonlyMap<string, string | undefined>,
    plan: Plan,
  ): Promise<void> {
    const { schema, cipher } = this.#services;
    const level = this.#levels.level(scope);
    const written = new Map(planned.map(({ change, key }) => [change.setting, key]));
    const values: Record<string, unknown> = {};
    for (const setting of schema.settings()) {
      values[setting.getId()] = await resolvedValue(setting, level, (index, key) => {
        const own = index === 0 ? written.get(setting) : undefined;
        if (own !== undefined) {
          const result = plan.results.get(own)!;
          return {
            text: result.text,
            value: result.text === undefined ? null : result.value,
            unreadable: false,
          };
        }
        const text = texts.get(key);
        const entry = level.peek(setting);
        if (entry?.fresh && entry.texts[index] === text) {
          return { text, value: entry.decoded[index], unreadable: entry.unreadableAt[index] === true };
        }
        const stored = readStoredText(setting, key, text, cipher);
        return stored instanceof Promise ? stored.then((read) => ({ text, ...read })) : { text, ...stored };
      });
    }
    const problems = runRules(this.#rules, Object.freeze(values), scope === '' ? null : scope);
    if (problems.length > 0) throw new SettingsRulesError(problems, scope === '' ? null : scope);
  }

  /**
   * The commit's conditions besides its writes: the schema record, and the chain texts of the
   * watched settings (those it does not write).
   */
  #checks(
    planned: readonly PlannedChange[],
    scope: string,
    watched: readonly Framework_Setting[],
    texts: ReadonlyMap<string, string | undefined>,
    guard: SchemaGuard,
  ): StoreCheck[] {
    const checks: StoreCheck[] = guard.check === undefined ? [] : [guard.check];
    if (watched.length === 0) return checks;
    const writtenKeys = new Set(planned.map(({ key }) => key));
    const { schema } = this.#services;
    const chain = this.#levels.level(scope).chain;
    for (const setting of watched) {
      for (const at of chain) {
        const key = schema.keyOf(setting.getId(), at);
        if (!writtenKeys.has(key)) checks.push({ key, expect: texts.get(key) ?? null });
      }
    }
    return checks;
  }

  /**
   * Sends the plan: one commit with its writes (and the schema record, when this write records
   * it), its conditions and its history. Where the store keeps a commit in one partition, the
   * conditions on other partitions' keys are compared right before the commit instead (the
   * documented limit of a Redis Cluster).
   */
  #commit(
    plan: Plan,
    scope: string,
    texts: ReadonlyMap<string, string | undefined>,
    checks: readonly StoreCheck[],
    guard: SchemaGuard,
    operation: OptionStoreOperation,
  ): Promise<StoreCommitResult> {
    const { store, schema } = this.#services;
    if (typeof store.commit !== 'function') {
      return this.#services.call(operation, () => applyWithoutCommit(store, plan.writes, texts));
    }
    const log = historyAppend(schema.logName(scope), plan.entries, this.#history);
    const writes = guard.write === undefined ? plan.writes : [...plan.writes, guard.write];
    if (store.crossPartitionCommits === true) return this.#send(operation, writes, checks, log);
    const partition = keyPartition(plan.writes[0]!.key);
    const recordApart = guard.write !== undefined && keyPartition(guard.write.key) !== partition;
    let apart = false;
    for (const check of checks) if (keyPartition(check.key) !== partition) apart = true;
    if (!recordApart && !apart) return this.#send(operation, writes, checks, log);
    return this.#commitAcrossPartitions(plan, partition, checks, guard, (kept, inCommit) =>
      this.#send(operation, kept, inCommit, log),
    );
  }

  /** Sends one commit through the store's `commit`. */
  #send(
    operation: OptionStoreOperation,
    writes: StoreWrite[],
    checks: readonly StoreCheck[],
    log: StoreLogAppend | undefined,
  ): Promise<StoreCommitResult> {
    let commit: StoreCommit;
    if (checks.length > 0) commit = log === undefined ? { writes, checks } : { writes, checks, log };
    else commit = log === undefined ? { writes } : { writes, log };
    return this.#services.commit(commit, operation);
  }

  /**
   * Where a store keeps a commit in one partition (a Redis Cluster): the record is written on its
   * own first when it lives elsewhere, and the conditions on other partitions' keys are compared
   * right before the commit (the documented limit).
   */
  async #commitAcrossPartitions(
    plan: Plan,
    partition: string,
    checks: readonly StoreCheck[],
    guard: SchemaGuard,
    send: (writes: StoreWrite[], inCommit: readonly StoreCheck[]) => Promise<StoreCommitResult>,
  ): Promise<StoreCommitResult> {
    let writes = plan.writes;
    if (guard.write !== undefined) {
      if (keyPartition(guard.write.key) === partition) writes = [...writes, guard.write];
      else {
        // Recorded on its own first where a commit stays in one partition (a Redis Cluster).
        const recorded = await this.#services.commit({ writes: [guard.write!] });
        if (!recorded.ok) return recorded;
      }
    }
    const inCommit = checks.filter((check) => keyPartition(check.key) === partition);
    if (inCommit.length < checks.length) {
      const before = checks.filter((check) => keyPartition(check.key) !== partition);
      const found = await this.#read(before.map((check) => check.key));
      const current = new Map<string, string | null>();
      for (const check of before) {
        const text = found.get(check.key) ?? null;
        if (text !== check.expect) current.set(check.key, text);
      }
      if (current.size > 0) return { ok: false, current };
    }
    return send(writes, inCommit);
  }

  /**
   * What the write left for each written setting at the written level: a stored value is the
   * level's own (the nearest), whatever else is stored; a delete resolves through the parents,
   * known when the level's entry is current. The parents' texts (for the entity tag) are the
   * ones the cache holds.
   */
  #states(planned: readonly PlannedChange[], plan: Plan): Map<string, WrittenState> {
    const states = new Map<string, WrittenState>();
    for (const { change, key } of planned) {
      const result = plan.results.get(key);
      const level = this.#levels.peek(change.scope);
      const entry = level?.peek(change.setting);
      if (result === undefined) continue;
      if (result.text !== undefined && result.value !== null) {
        const depth = level?.chain.length ?? 1;
        const texts: (string | undefined)[] = [result.text];
        for (let index = 1; index < depth; index++) texts.push(entry?.texts[index]);
        states.set(change.setting.getId(), { value: result.value, originIndex: 0, texts });
      } else if (entry?.fresh) {
        states.set(change.setting.getId(), {
          value: entry.value,
          originIndex: entry.originIndex,
          texts: [...entry.texts],
          blocked: entry.blocked,
        });
      }
    }
    return states;
  }

  /** Puts what was written into every cached level that sees it, exactly as a fresh reader would decode it. */
  #remember(
    planned: readonly PlannedChange[],
    plan: Plan,
    startedAt: ReadonlyMap<LevelEntry, { generation: number; fresh: boolean }>,
  ): void {
    for (const { change, key } of planned) {
      const result = plan.results.get(key);
      if (result === undefined) continue;
      for (const level of this.#levels.seeing(change.scope)) {
        const entry = level.peek(change.setting);
        const before = entry === undefined ? undefined : startedAt.get(entry);
        if (entry === undefined || before === undefined) continue;
        entry.setLevel(level.indexOf(change.scope), result.text, result.value);
        // The entry is current when nothing else changed meanwhile and the rest of its chain was known.
        const known = entry.texts.length === 1 || before.fresh;
        entry.settle(known ? before.generation : before.generation - 1);
      }
    }
  }
}

/**
 * Notes the current text of `key` (chain index `index` of `entry`) in `texts` when the cache
 * holds it fresh, else adds the key to `missing` (read from the store).
 */
function wantText(
  texts: Map<string, string | undefined>,
  missing: string[],
  key: string,
  entry: LevelEntry | undefined,
  index: number,
): void {
  if (texts.has(key)) return;
  if (entry?.fresh) texts.set(key, entry.texts[index]);
  else missing.push(key);
}

/** A chain level's text as a resolution reads it. */
interface ChainText {
  readonly text: string | undefined;
  readonly value: unknown;
  readonly unreadable: boolean;
}

/**
 * The value `getValue` reads for `setting` at `level`, from each chain level's text as `at`
 * gives it: the nearest readable one, `null` at an unreadable scoped secret, else the default.
 */
async function resolvedValue(
  setting: Framework_Setting,
  level: ValueLevel,
  at: (index: number, key: string) => ChainText | Promise<ChainText>,
): Promise<unknown> {
  const chain = level.chain;
  const last = chain.length - 1;
  for (let index = 0; index <= last; index++) {
    const found = await at(index, level.keyOf(setting, index));
    if (found.text === undefined) continue;
    if (found.value !== null && found.value !== undefined) return found.value;
    if (found.unreadable && index < last) return null;
  }
  return setting.getDefault();
}
