/**
 * A module of the runtime's own (`crypto`, `async_hooks`), looked up at run time through
 * `process.getBuiltinModule` (Node 20.16+, Bun, Deno) instead of imported, so that bundles for
 * other runtimes never see it and the root entry imports no `node:` module. Named without the
 * `node:` prefix (the package test checks that no chunk of the root entry names one).
 *
 * @returns the module, whose members the caller checks before use; `undefined` where the runtime
 *   has no such lookup or no such module
 */
export function builtinModule<T extends object>(id: 'crypto' | 'async_hooks'): Partial<T> | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const found = process?.getBuiltinModule?.(id);
    return typeof found === 'object' && found !== null ? (found as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}
