/** Deep-freezes a value made of plain objects and arrays (defaults are shared by every request). */
export function deepFreezeJson<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreezeJson(child);
  }
  return value;
}
