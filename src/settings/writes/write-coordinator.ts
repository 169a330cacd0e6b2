import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { OptionStoreError, type OptionStoreOperation } from '../../errors/option-store-error';
import type { StoreCommitResult, StoreWrite } from '../../storage/store-commit';
import { entityTag, ifMatchHolds } from '../etag/entity-tag';
import { type HistoryEntry, newEntryId } from '../history/history-entry';
import { maskValue } from '../secrets/mask';
import { storeName } from '../store-calls';
import type { LevelEntry } from '../values/level-entry';
import type { LevelServices } from '../values/level-services';
import { plainStoredText, writeStoredText } from '../values/stored-text';
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
  readonly entries: HistoryEntry[];
  /** Per key: the stored text after the write (`undefined`: deleted) and the value a fresh reader decodes from it. */
  readonly results: Map<string, { text: string | undefined; value: unknown }>;
  readonly changed: boolean[];
}

/**
 * The one write path of a settings container (docs/architecture.md, "The write path"): every
 * update, delete, batch, admin save and scoped write becomes one store commit, conditional on the
 * stored texts its history entries were computed from, so that a change and its entry are one
 * atomic step and If-Match compares and writes atomically.
 */
export class WriteCoordinator {
  readonly #services: LevelServices;
  readonly #levels: ValueLevels;
  readonly #historyLimit: number;

  /**
   * @param services - the container's store access
   * @param levels - the caches to keep in step with what is written
   * @param historyLimit - how many history entries each log keeps (0: none)
   */
  constructor(services: LevelServices, levels: ValueLevels, historyLimit: number) {
    this.#services = services;
    this.#levels = levels;
    this.#historyLimit = historyLimit;
  }

  /** Whether the store has the atomic write (`commit`): If-Match, atomic batches and history need it. */
  get atomic(): boolean {
    return typeof this.#services.store.commit === 'function';
  }

  /**
   * Applies `changes` (all of one level) in one atomic step.
   *
   * @throws {@link PreconditionFailedError} (412) when `options.ifMatch` does not match;
   *   {@link UnsupportedByStoreError} (501) for `ifMatch` on a store without `commit`;
   *   `OptionStoreError` when the store fails
   */
  write(changes: readonly PendingChange[], options: WriteOptions): Promise<WriteOutcome> {
    const { schema } = this.#services;
    const planned = changes.map((change) => ({
      change,
      key: schema.keyOf(change.setting.getId(), change.scope),
    }));
    const ifMatch = options.ifMatch;
    if (ifMatch !== undefined) {
      if (!this.atomic) {
        return Promise.reject(
          new UnsupportedByStoreError('conditional writes', storeName(this.#services.store)),
        );
      }
      if (changes.length !== 1) {
        return Promise.reject(
          new Framework_Plugin_Exception('ifMatch applies to a write of one setting', 400),
        );
      }
    }
    const keys = planned.map(({ key }) => key);
    const operation = operationOf(changes);
    return this.#services.queued(operation, keys, () => this.#write(planned, options, operation));
  }

  async #write(
    planned: readonly PlannedChange[],
    options: WriteOptions,
    operation: OptionStoreOperation,
  ): Promise<WriteOutcome> {
    const startedAt = this.#snapshotGenerations(planned);
    const texts = await this.#currentTexts(planned, options.ifMatch !== undefined);
    if (options.ifMatch !== undefined) await this.#checkIfMatch(planned[0]!, texts, options.ifMatch, true);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const plan = await this.#plan(planned, texts, options);
      const result = await this.#commit(plan, planned[0]!.change.scope, texts, operation);
      if (result.ok) {
        this.#remember(planned, plan, startedAt);
        return { changed: plan.changed, states: this.#states(planned, plan) };
      }
      for (const [key, text] of result.current) texts.set(key, text ?? undefined);
      for (const { change, key } of planned) {
        if (result.current.has(key)) this.#levels.markStale(change.setting, change.scope);
      }
      if (options.ifMatch !== undefined) await this.#checkIfMatch(planned[0]!, texts, options.ifMatch, false);
    }
    throw new OptionStoreError('commit', {
      store: storeName(this.#services.store),
      message: `Gave up writing ${planned.map(({ change }) => `"${change.setting.getId()}"`).join(', ')} after ${MAX_ATTEMPTS} attempts: other writers kept changing it`,
    });
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
   * The current stored text of every changed key (and, with If-Match, of the whole scope chain
   * of the one change): from fresh cache entries, the rest in one `getMany`.
   */
  async #currentTexts(
    planned: readonly PlannedChange[],
    withChain: boolean,
  ): Promise<Map<string, string | undefined>> {
    const { schema } = this.#services;
    const texts = new Map<string, string | undefined>();
    const missing: string[] = [];
    const want = (key: string, entry: LevelEntry | undefined, index: number) => {
      if (entry?.fresh) texts.set(key, entry.texts[index]);
      else missing.push(key);
    };
    for (const { change, key } of planned) {
      const level = this.#levels.peek(change.scope);
      const entry = level?.peek(change.setting);
      if (!withChain) {
        want(key, entry, 0);
        continue;
      }
      const chain = level?.chain ?? this.#levels.level(change.scope).chain;
      chain.forEach((scope, index) => {
        want(schema.keyOf(change.setting.getId(), scope), entry, index);
      });
    }
    if (missing.length > 0) {
      const found = await this.#read(missing);
      for (const key of missing) texts.set(key, found.get(key));
    }
    return texts;
  }

  async #read(keys: readonly string[]): Promise<Map<string, string>> {
    const { store } = this.#services;
    return this.#services.call('getMany', () => store.getMany(keys));
  }

  /** The entity tag of the change's level over `texts`, as `getETag` gives it. */
  async #tagOf({ change }: PlannedChange, texts: ReadonlyMap<string, string | undefined>): Promise<string> {
    const { schema, salt } = this.#services;
    const chain = this.#levels.level(change.scope).chain;
    const parts = chain.map((scope) => {
      const key = schema.keyOf(change.setting.getId(), scope);
      return [key, texts.get(key)] as const;
    });
    return entityTag(await salt.text(), parts);
  }

  /**
   * Compares `ifMatch` with the current tag; a mismatch computed from cached texts is checked
   * again on texts read now (a stale cache never causes a false 412).
   */
  async #checkIfMatch(
    target: PlannedChange,
    texts: Map<string, string | undefined>,
    ifMatch: string,
    mayReread: boolean,
  ): Promise<void> {
    let tag = await this.#tagOf(target, texts);
    if (ifMatchHolds(ifMatch, tag, texts.get(target.key) !== undefined)) return;
    if (mayReread) {
      const keys = [...texts.keys()];
      const found = await this.#read(keys);
      for (const key of keys) texts.set(key, found.get(key));
      tag = await this.#tagOf(target, texts);
      if (ifMatchHolds(ifMatch, tag, texts.get(target.key) !== undefined)) return;
    }
    throw new PreconditionFailedError(target.change.setting.getId(), tag);
  }

  /**
   * The writes and history entries of one attempt. Every change is written, conditional on the
   * text it replaces (so that a stale cache can never make a write disappear); only those that
   * alter the stored text — for a secret, the value it decrypts to — get a history entry.
   */
  async #plan(
    planned: readonly PlannedChange[],
    texts: ReadonlyMap<string, string | undefined>,
    options: WriteOptions,
  ): Promise<Plan> {
    const { cipher } = this.#services;
    const plan: Plan = { writes: [], entries: [], results: new Map(), changed: [] };
    // Entries are built only when they will be stored (a store with `commit`, history kept).
    const keepsHistory = this.#historyLimit > 0 && typeof this.#services.store.commit === 'function';
    let at: string | undefined;
    for (const { change, key } of planned) {
      const { setting } = change;
      const secret = setting.isSecret();
      const current = texts.get(key);
      const currentPlain = await plainStoredText(setting, key, current, cipher);
      let text: string | undefined;
      let value: unknown = null;
      let changed: boolean;
      if (change.remove) {
        changed = current !== undefined;
      } else {
        const stored = await writeStoredText(setting, key, change.value, cipher);
        // Checked once already (updateValue): read back as every reader will, without checking again.
        value = setting.codec.decodeEncoded(stored.plain) ?? null;
        // A secret is re-encrypted with a fresh IV each time: an unchanged value keeps its text.
        const sameSecret =
          secret && current !== undefined && current !== currentPlain && currentPlain === stored.plain;
        text = sameSecret ? current : stored.text;
        changed = text !== current;
      }
      plan.changed.push(changed);
      plan.writes.push({ key, value: text ?? null, expect: current ?? null });
      plan.results.set(key, { text, value });
      if (!changed || !keepsHistory) continue;
      const old = currentPlain === undefined ? null : (setting.codec.decode(currentPlain) ?? null);
      at ??= new Date().toISOString();
      plan.entries.push({
        id: newEntryId(),
        at,
        setting_id: setting.getId(),
        scope: change.scope === '' ? null : change.scope,
        action: change.remove ? 'delete' : 'update',
        old: maskValue(old, secret),
        new: maskValue(value, secret),
        actor: options.actor ? { id: options.actor.id } : null,
        via: options.via ?? 'api',
      });
    }
    return plan;
  }

  #commit(
    plan: Plan,
    scope: string,
    texts: ReadonlyMap<string, string | undefined>,
    operation: OptionStoreOperation,
  ): Promise<StoreCommitResult> {
    const { store, schema } = this.#services;
    if (typeof store.commit !== 'function') {
      return this.#services.call(operation, () => applyWithoutCommit(store, plan.writes, texts));
    }
    const log =
      this.#historyLimit > 0 && plan.entries.length > 0
        ? {
            name: schema.logName(scope),
            entries: plan.entries.map((entry) => JSON.stringify(entry)),
            keep: this.#historyLimit,
          }
        : undefined;
    return this.#services.call(operation, () => store.commit!({ writes: plan.writes, log }));
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
        const texts = Array.from({ length: depth }, (_, index) =>
          index === 0 ? result.text : entry?.texts[index],
        );
        states.set(change.setting.getId(), { value: result.value, originIndex: 0, texts });
      } else if (entry?.fresh) {
        states.set(change.setting.getId(), {
          value: entry.value,
          originIndex: entry.originIndex,
          texts: [...entry.texts],
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
