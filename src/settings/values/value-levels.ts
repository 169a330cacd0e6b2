import { inheritsFrom, scopeChain } from '../scope/scope-path';
import type { Framework_Setting } from '../setting';
import type { LevelServices } from './level-services';
import { ValueLevel } from './value-level';

const NO_LEVELS: readonly ValueLevel[] = [];

/** The default of `maxCachedScopes`. */
export const DEFAULT_MAX_CACHED_SCOPES = 1000;

/**
 * Every value level of one container: the global level, never evicted, and the scope levels,
 * created on demand and evicted least recently used beyond `maxCachedScopes`. Memory is bounded
 * by that number whatever the number of scopes in the store.
 */
export class ValueLevels {
  /** The global level (scope-less). */
  readonly global: ValueLevel;
  readonly #services: LevelServices;
  readonly #maxScopes: number;
  /** Scope levels in order of use, least recent first. */
  readonly #scopes = new Map<string, ValueLevel>();
  #mostRecent: string | undefined;
  /** `[global]`, what {@link seeing} answers for a global change while no scope is cached. */
  readonly #globalOnly: readonly ValueLevel[];

  /**
   * @param services - the container's store access
   * @param maxScopes - how many scope levels to keep (at least 1)
   */
  constructor(services: LevelServices, maxScopes: number) {
    this.#services = services;
    this.#maxScopes = maxScopes;
    this.global = new ValueLevel('', [''], services);
    this.#globalOnly = [this.global];
  }

  /** How many scope levels are cached. */
  get cachedScopes(): number {
    return this.#scopes.size;
  }

  /** The level of `path` (`''`: global), created when not cached, and marked most recently used. */
  level(path: string): ValueLevel {
    if (path === '') return this.global;
    let level = this.#scopes.get(path);
    if (level === undefined) {
      level = new ValueLevel(path, scopeChain(path), this.#services);
      this.#scopes.set(path, level);
      if (this.#scopes.size > this.#maxScopes) {
        const oldest = this.#scopes.keys().next().value as string;
        this.#scopes.delete(oldest);
      }
    } else if (this.#mostRecent !== path) {
      this.#scopes.delete(path);
      this.#scopes.set(path, level);
    }
    this.#mostRecent = path;
    return level;
  }

  /** The level of `path` when it is cached (the global level always is); does not count as a use. */
  peek(path: string): ValueLevel | undefined {
    return path === '' ? this.global : this.#scopes.get(path);
  }

  /**
   * Every cached level that sees values stored at `scope`: that level and its cached descendants
   * (all, for `''`). Without cached scopes (an app without scopes), the global level alone,
   * without allocating.
   */
  seeing(scope: string): readonly ValueLevel[] {
    if (this.#scopes.size === 0) return scope === '' ? this.#globalOnly : NO_LEVELS;
    const levels: ValueLevel[] = scope === '' ? [this.global] : [];
    for (const [path, level] of this.#scopes) if (inheritsFrom(path, scope)) levels.push(level);
    return levels;
  }

  /** Marks `setting` stale in every cached level that sees values stored at `scope`. */
  markStale(setting: Framework_Setting, scope: string): void {
    if (this.#scopes.size === 0) {
      if (scope === '') setting.globalEntry.markStale();
      return;
    }
    for (const level of this.seeing(scope)) level.peek(setting)?.markStale();
  }

  /**
   * Takes another instance's change of `setting` at `scope` (its text, decoded as `decoded`, and
   * its version) into every cached level that sees it, where the entry is current and its text
   * there is of a lower known version (`LevelEntry.applyChange`); marks the others stale. Answers
   * whether it marked any stale.
   */
  applyChange(
    setting: Framework_Setting,
    scope: string,
    text: string | undefined,
    decoded: unknown,
    version: string,
  ): boolean {
    if (this.#scopes.size === 0) {
      if (scope !== '') return false;
      const entry = setting.globalEntry;
      if (entry.applyChange(0, text, decoded, version)) return false;
      entry.markStale();
      return true;
    }
    let stale = false;
    for (const level of this.seeing(scope)) {
      const entry = level.peek(setting);
      if (entry === undefined || entry.applyChange(level.indexOf(scope), text, decoded, version)) continue;
      entry.markStale();
      stale = true;
    }
    return stale;
  }

  /** Marks every entry of every cached level stale (the change feed was interrupted). */
  markAllStale(settings: readonly Framework_Setting[]): void {
    this.global.markAllStale(settings);
    for (const level of this.#scopes.values()) level.markAllStale(settings);
  }
}
