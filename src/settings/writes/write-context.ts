import type { PendingChange } from './pending-change';
import type { WriteOutcome } from './write-coordinator';
import type { WriteOptions } from './write-options';

/**
 * What a write carries from its caller to the base class's `updateValue`/`deleteValue`, past a
 * subclass override that knows nothing about it (docs/architecture.md, "The write context").
 */
export interface WriteContext {
  /** The settings container the context belongs to. */
  readonly target: object;
  /** The setting the call was made for. */
  readonly id: string;
  /** The caller's options. */
  readonly options: WriteOptions;
  /** The level written: `''` global, else a scope path. */
  readonly scope: string;
  /** In a batch: where the base collects the writes instead of making them. */
  readonly capture: PendingChange[] | null;
  /** Where the base leaves the outcome of the write it made, for the caller that opened the context. */
  readonly report: { outcome?: WriteOutcome };
}

interface ContextStorage {
  run<R>(context: WriteContext, callback: () => R): R;
  getStore(): WriteContext | undefined;
}
type ContextStorageClass = new () => ContextStorage;

/** `AsyncLocalStorage` where the runtime has it, found at run time (never imported: the root entry stays runtime-agnostic). */
function findAsyncLocalStorage(): ContextStorageClass | undefined {
  const global = globalThis as {
    AsyncLocalStorage?: unknown;
    process?: { getBuiltinModule?: (id: string) => unknown };
  };
  if (typeof global.AsyncLocalStorage === 'function') return global.AsyncLocalStorage as ContextStorageClass;
  try {
    const hooks = global.process?.getBuiltinModule?.('async_hooks') as
      | { AsyncLocalStorage?: unknown }
      | undefined;
    if (typeof hooks?.AsyncLocalStorage === 'function') return hooks.AsyncLocalStorage as ContextStorageClass;
  } catch {
    // No such module on this runtime.
  }
  return undefined;
}

let asyncStorage: ContextStorage | null = null;
{
  const Storage = findAsyncLocalStorage();
  if (Storage !== undefined) asyncStorage = new Storage();
}

/** The synchronous fallback: the context of the call running right now. */
let synchronousContext: WriteContext | undefined;
/**
 * The fallback's contexts whose override awaited before reaching the base, by container and
 * setting id, in call order: a base call that finds no synchronous context takes the oldest.
 */
const detached = new WeakMap<object, Map<string, WriteContext[]>>();
const entered = new WeakSet<WriteContext>();

/** Whether write contexts follow `await`s here (`AsyncLocalStorage` found) rather than the synchronous fallback. */
export function writeContextsFollowAwaits(): boolean {
  return asyncStorage !== null;
}

/**
 * @internal For tests: switches between `AsyncLocalStorage` (`true`, when the runtime has it)
 * and the synchronous fallback (`false`).
 */
export function useAsyncWriteContexts(enabled: boolean): void {
  const Storage = enabled ? findAsyncLocalStorage() : undefined;
  asyncStorage = Storage === undefined ? null : new Storage();
}

/** Runs `callback` (a write) inside `context`. */
export function runInWriteContext<R>(context: WriteContext, callback: () => R): R {
  if (asyncStorage !== null) return asyncStorage.run(context, callback);
  const previous = synchronousContext;
  synchronousContext = context;
  let result: R;
  try {
    result = callback();
  } finally {
    synchronousContext = previous;
  }
  if (!entered.has(context) && result instanceof Promise) {
    // The override awaited before calling the base: keep the context for that later call.
    let byId = detached.get(context.target);
    if (byId === undefined) {
      byId = new Map();
      detached.set(context.target, byId);
    }
    const queue = byId.get(context.id) ?? [];
    queue.push(context);
    byId.set(context.id, queue);
    const release = () => {
      const index = queue.indexOf(context);
      if (index !== -1) queue.splice(index, 1);
      if (queue.length === 0 && byId.get(context.id) === queue) byId.delete(context.id);
    };
    result.then(release, release);
  }
  return result;
}

/**
 * The context of a write of setting `id` on `target` now reaching the base class, if any: the
 * one the call runs in (`AsyncLocalStorage`, or the synchronous fallback), else — fallback only —
 * the oldest context of an override of that setting that awaited before calling the base.
 */
export function currentWriteContext(target: object, id: string): WriteContext | undefined {
  if (asyncStorage !== null) {
    const context = asyncStorage.getStore();
    return context?.target === target ? context : undefined;
  }
  if (synchronousContext?.target === target) {
    entered.add(synchronousContext);
    return synchronousContext;
  }
  const queue = detached.get(target)?.get(id);
  const context = queue?.shift();
  if (context !== undefined) entered.add(context);
  return context;
}

/** The context the code running now is in, for `target` (`AsyncLocalStorage` or the synchronous fallback). */
function enclosingWriteContext(target: object): WriteContext | undefined {
  const context = asyncStorage !== null ? asyncStorage.getStore() : synchronousContext;
  return context?.target === target ? context : undefined;
}

/**
 * The context a call on `target` for setting `id` opens: its own options, inheriting from an
 * enclosing context of the same container (a write made from inside an override) its actor,
 * interface, scope and batch — and its If-Match only for the same setting.
 */
export function nestedWriteContext(
  target: object,
  id: string,
  options: WriteOptions | undefined,
  scope: string | undefined,
  capture: PendingChange[] | null | undefined,
): WriteContext {
  const outer = enclosingWriteContext(target);
  const inherited: WriteOptions =
    outer === undefined
      ? {}
      : {
          actor: outer.options.actor,
          via: outer.options.via,
          ...(outer.id === id && outer.options.ifMatch !== undefined
            ? { ifMatch: outer.options.ifMatch }
            : {}),
        };
  return {
    target,
    id,
    options: options === undefined ? inherited : { ...inherited, ...options },
    scope: scope ?? outer?.scope ?? '',
    capture: capture === undefined ? (outer?.capture ?? null) : capture,
    // The call an override makes for the same setting reports to the caller of the override.
    report: outer !== undefined && outer.id === id ? outer.report : {},
  };
}
