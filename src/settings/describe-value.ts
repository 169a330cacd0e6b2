/** A short, safe description of a received value for error messages: `string "abc"`, `number 1.5`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array of length ${value.length}`;
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `string "${value.slice(0, 37)}…"` : `string ${JSON.stringify(value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'object':
      return Object.getPrototypeOf(value) === Object.prototype
        ? 'object'
        : `${value.constructor?.name ?? 'object'}`;
    default:
      return typeof value;
  }
}
