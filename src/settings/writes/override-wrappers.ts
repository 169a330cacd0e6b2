import { callInWriteContext, isPassThrough, nestedWriteContext } from './write-context';
import type { WriteOptions } from './write-options';

interface WritableContainer {
  updateValue(id: string, value: unknown, options?: WriteOptions): Promise<void>;
  deleteValue(id: string, options?: WriteOptions): Promise<boolean>;
}

/**
 * Wraps a subclass's `updateValue` / `deleteValue` override once, at construction, as an own
 * property of the instance: each call then runs in a write context holding its options (and
 * any scope or batch of an enclosing call — the receiver of the call names it where the runtime
 * has no `AsyncLocalStorage`), so the base method receives them even when the override calls
 * `super.updateValue(id, value)` without them. The override itself is untouched (`super` still
 * reaches the base).
 */
export function installWriteWrappers(instance: WritableContainer, base: WritableContainer): void {
  const update = instance.updateValue;
  if (update !== base.updateValue && !isPassThrough(update)) {
    Object.defineProperty(instance, 'updateValue', {
      configurable: true,
      writable: true,
      value(this: object, id: string, value: unknown, options?: WriteOptions): Promise<void> {
        const context = nestedWriteContext(instance, this, id, options, undefined, undefined);
        return callInWriteContext(context, instance, update, [id, value, options]);
      },
    });
  }
  const remove = instance.deleteValue;
  if (remove !== base.deleteValue && !isPassThrough(remove)) {
    Object.defineProperty(instance, 'deleteValue', {
      configurable: true,
      writable: true,
      value(this: object, id: string, options?: WriteOptions): Promise<boolean> {
        const context = nestedWriteContext(instance, this, id, options, undefined, undefined);
        return callInWriteContext(context, instance, remove, [id, options]);
      },
    });
  }
}
