/**
 * Cross-build class identity.
 *
 * The package ships an ESM and a CommonJS build. A host that loads both (an ESM app using a
 * CommonJS plugin, say) gets two copies of every module, and `instanceof` between them fails.
 * The classes that cross that border (the error classes and their public subclasses,
 * `RestError`, `RestResponse`) therefore carry a brand, a registered symbol shared by every copy,
 * and answer `instanceof` through it: an error thrown (or a response returned) by one copy is an
 * instance of the class of the other. A class without a brand of its own (a user's subclass)
 * keeps the ordinary prototype-chain check.
 */

/** The brand of each branded class of this copy. */
const BRANDS = new WeakMap<object, symbol>();

/** Marks `target.prototype` with the brand `name` (instances of subclasses inherit it) and returns the brand symbol. */
export function brandClass(target: { prototype: object }, name: string): symbol {
  const brand = Symbol.for(`commerce-plugin-framework:${name}`);
  Object.defineProperty(target.prototype, brand, { value: true });
  BRANDS.set(target, brand);
  return brand;
}

/**
 * `instanceof` for a class whose base is branded (its static `Symbol.hasInstance` calls this
 * with `this`): the class's own brand when it has one, else the prototype chain.
 */
export function hasBrandedInstance(target: Function, value: unknown): boolean {
  const brand = BRANDS.get(target);
  if (brand === undefined) return Function.prototype[Symbol.hasInstance].call(target, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
