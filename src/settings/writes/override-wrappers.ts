import { nestedWriteContext, runInWriteContext } from './write-context';
import type { WriteOptions } from './write-options';

/** `updateValue`/`deleteValue` implementations known to pass their options on (the typed container's), which need no wrapper. */
const passThrough = new WeakSet<Function>();

/** Declares `method` an override that passes `options` on to `super` unchanged: it is not wrapped. */
export function markPassThrough(method: Function): void {
  passThrough.add(method);
}

interface WritableContainer {
  updateValue(id: string, value: unknown, options?: WriteOptions): Promise<void>;
  deleteValue(id: string, options?: WriteOptions): Promise<boolean>;
}

/**
 * Wraps a subclass's `updateValue` / `deleteValue` override once, at construction, as an own
 * property of the instance: each call then runs in a write context holding its options (and
 * any scope or batch of an enclosing call), so the base method receives them even when the
 * override calls `super.updateValue(id, value)` without them. The override itself is untouched
 * (`super` still reaches the base).
 */
export function installWriteWrappers(instance: WritableContainer, base: WritableContainer): void {
  const update = instance.updateValue;
  if (update !== base.updateValue && !passThrough.has(update)) {
    Object.defineProperty(instance, 'updateValue', {
      configurable: true,
      writable: true,
      value(id: string, value: unknown, options?: WriteOptions): Promise<void> {
        const context = nestedWriteContext(instance, id, options, undefined, undefined);
        return runInWriteContext(context, () => update.call(instance, id, value, options));
      },
    });
  }
  const remove = instance.deleteValue;
  if (remove !== base.deleteValue && !passThrough.has(remove)) {
    Object.defineProperty(instance, 'deleteValue', {
      configurable: true,
      writable: true,
      value(id: string, options?: WriteOptions): Promise<boolean> {
        const context = nestedWriteContext(instance, id, options, undefined, undefined);
        return runInWriteContext(context, () => remove.call(instance, id, options));
      },
    });
  }
}
