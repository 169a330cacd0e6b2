import { builtinModule } from '../builtin-module';
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
  const global = globalThis as { AsyncLocalStorage?: unknown };
  if (typeof global.AsyncLocalStorage === 'function') return global.AsyncLocalStorage as ContextStorageClass;
  const hooks = builtinModule<{ AsyncLocalStorage: unknown }>('async_hooks');
  return typeof hooks?.AsyncLocalStorage === 'function'
    ? (hooks.AsyncLocalStorage as ContextStorageClass)
    : undefined;
}

let asyncStorage: ContextStorage | null = null;
{
  const Storage = findAsyncLocalStorage();
  if (Storage !== undefined) asyncStorage = new Storage();
}

/**
 * Where the runtime has no `AsyncLocalStorage`, a write calls the override on a receiver of its
 * own — a proxy of the container that knows the write's context — instead of the container
 * itself: `super.updateValue(id, value)` inside the override then reaches the base class with that
 * receiver, which names the context exactly, however many writes are in flight and in whatever
 * order their awaits resume. Everything else the override does on `this` goes to the container.
 */
interface WriteReceiver {
  /** The container the proxy stands for. */
  readonly instance: object;
  /** The write's context. */
  readonly context: WriteContext;
}
const receivers = new WeakMap<object, WriteReceiver>();

/** The methods a write receiver runs on itself (so a write made inside an override knows its enclosing context). */
const WRITE_METHODS = new Set<PropertyKey>(['updateValue', 'deleteValue']);

/** A receiver standing for `instance` in the write `context` (see {@link WriteReceiver}). */
function receiverFor(instance: object, context: WriteContext): object {
  const bound = new Map<PropertyKey, unknown>();
  const receiver: object = new Proxy(instance, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(property);
      if (method === undefined || (method as { source?: unknown }).source !== value) {
        const self = WRITE_METHODS.has(property) ? receiver : target;
        const call = (...args: unknown[]) =>
          Reflect.apply(value as (...args: unknown[]) => unknown, self, args);
        method = Object.assign(call, { source: value });
        bound.set(property, method);
      }
      return method;
    },
    set(target, property, value) {
      return Reflect.set(target, property, value, target);
    },
  });
  receivers.set(receiver, { instance, context });
  return receiver;
}

/**
 * Write methods between which and the base class's no code of the user's runs: the base's own
 * `updateValue`/`deleteValue`, and the package's overrides that only narrow types and call
 * `super` at once with everything (the typed container's). A call of one of them needs neither
 * `AsyncLocalStorage` nor a receiver: the context is handed over synchronously.
 */
const passThrough = new WeakSet<Function>();

/** Declares `method` a write method that reaches the base class's at once, passing everything on (see {@link callInWriteContext}). */
export function markPassThrough(method: Function): void {
  passThrough.add(method);
}

/** Whether `method` was declared with {@link markPassThrough}. */
export function isPassThrough(method: Function): boolean {
  return passThrough.has(method);
}

/**
 * The context of a call of a pass-through method, from the call until the base method takes it
 * (synchronously, before anything else runs): see {@link callInWriteContext}.
 */
let handedOver: WriteContext | undefined;

/** Whether write contexts follow `await`s here (`AsyncLocalStorage` found) rather than travelling on per-write receivers. */
export function writeContextsFollowAwaits(): boolean {
  return asyncStorage !== null;
}

/**
 * @internal For tests: switches between `AsyncLocalStorage` (`true`, when the runtime has it)
 * and per-write receivers (`false`), as on a runtime without it.
 */
export function useAsyncWriteContexts(enabled: boolean): void {
  const Storage = enabled ? findAsyncLocalStorage() : undefined;
  asyncStorage = Storage === undefined ? null : new Storage();
}

/**
 * Calls `method` (a write method of `instance`, or an override of one) with `args` inside
 * `context`. A pass-through method (the base's own, with no override) reaches the base at once:
 * the context is handed over synchronously, and the base takes it before anything else runs.
 * An override of the user's may await before it calls `super`: the context then goes in the
 * async context where the runtime has `AsyncLocalStorage`, else on a receiver of its own.
 * `AsyncLocalStorage` is only entered for overrides: on Node 20 its first `run` turns on promise
 * hooks for the whole process, a cost on every promise of the host application from then on.
 */
export function callInWriteContext<A extends unknown[], R>(
  context: WriteContext,
  instance: object,
  method: (...args: A) => R,
  args: A,
): R {
  if (passThrough.has(method)) {
    const previous = handedOver;
    handedOver = context;
    try {
      return method.apply(instance, args);
    } finally {
      handedOver = previous;
    }
  }
  if (asyncStorage !== null) return asyncStorage.run(context, () => method.apply(instance, args));
  return method.apply(receiverFor(instance, context), args);
}

/**
 * The container a write method was called on (`receiver` itself, or the container a per-write
 * receiver stands for) and the context of the write, if any.
 */
export function resolveWriteReceiver<T extends object>(
  receiver: T,
): { self: T; context: WriteContext | undefined } {
  const handed = handedOver;
  if (handed !== undefined) {
    // Taken once: a write the base makes later on its own has no context from this call.
    handedOver = undefined;
    if (handed.target === receiver) return { self: receiver, context: handed };
  }
  const known = receivers.get(receiver);
  if (known !== undefined) return { self: known.instance as T, context: known.context };
  if (asyncStorage === null) return { self: receiver, context: undefined };
  const context = asyncStorage.getStore();
  return { self: receiver, context: context?.target === receiver ? context : undefined };
}

/** The container `receiver` stands for: itself, unless it is a per-write receiver. */
export function writeReceiverTarget<T extends object>(receiver: T): T {
  return (receivers.get(receiver)?.instance as T | undefined) ?? receiver;
}

/**
 * The context a call of a write method of `instance` for setting `id` opens (`receiver`: what the
 * call was made on): its own options, inheriting from an enclosing context of the same container
 * (a write made from inside an override) its actor, interface, scope and batch — and its If-Match
 * only for the same setting.
 */
export function nestedWriteContext(
  instance: object,
  receiver: object,
  id: string,
  options: WriteOptions | undefined,
  scope: string | undefined,
  capture: PendingChange[] | null | undefined,
): WriteContext {
  const { context: outer } = resolveWriteReceiver(receiver);
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
    target: instance,
    id,
    options: options === undefined ? inherited : { ...inherited, ...options },
    scope: scope ?? outer?.scope ?? '',
    capture: capture === undefined ? (outer?.capture ?? null) : capture,
    // The call an override makes for the same setting reports to the caller of the override.
    report: outer !== undefined && outer.id === id ? outer.report : {},
  };
}
