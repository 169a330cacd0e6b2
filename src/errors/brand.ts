/**
 * Cross-build class identity.
 *
 * The package ships an ESM and a CommonJS build. A host that loads both (an ESM app using a
 * CommonJS plugin, say) gets two copies of every module, and `instanceof` between them fails.
 * The classes that cross that border (the error classes, `RestError`, `RestResponse`) therefore
 * carry a brand, a registered symbol shared by every copy, and answer `instanceof` through it:
 * an error thrown (or a response returned) by one copy is an instance of the class of the
 * other. Subclasses keep the ordinary prototype-chain check.
 */

/** Marks `target.prototype` with the brand `name` and returns the brand symbol. */
export function brandClass(target: { prototype: object }, name: string): symbol {
  const brand = Symbol.for(`commerce-plugin-framework:${name}`);
  Object.defineProperty(target.prototype, brand, { value: true });
  return brand;
}

/** `instanceof` for a branded base class: the brand for the base itself, the prototype chain for subclasses. */
export function hasBrandedInstance(target: Function, base: Function, brand: symbol, value: unknown): boolean {
  if (target !== base) return Function.prototype[Symbol.hasInstance].call(target, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
