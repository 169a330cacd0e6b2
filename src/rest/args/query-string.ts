/** Query-string values by name: one string, or a list when the name is repeated. */
export type QueryValues = Map<string, string | string[]>;

/** Query-string values as a plain object, as hosts that parse the query themselves hold them. */
export type QueryRecord = Readonly<Record<string, string | readonly string[]>>;

function decodeComponent(text: string, hasPlus: boolean, hasPercent: boolean): string {
  const spaced = hasPlus ? text.replaceAll('+', ' ') : text;
  if (!hasPercent) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Malformed escapes are kept as they are, like URLSearchParams does for invalid sequences.
    return spaced;
  }
}

function add(values: QueryValues, name: string, value: string): void {
  const previous = values.get(name);
  if (previous === undefined) values.set(name, value);
  else if (typeof previous === 'string') values.set(name, [previous, value]);
  else previous.push(value);
}

/**
 * Parses a raw query string (`a=1&b=x%20y&a=2`, without the `?`) as
 * `application/x-www-form-urlencoded`: `+` is a space, escapes are decoded, a name without `=`
 * has the value `''`, empty pairs are skipped, and a repeated name collects its values in a list.
 * One pass over the characters; text without `+` or `%` is sliced, not decoded.
 */
export function parseQueryString(search: string): QueryValues {
  const values: QueryValues = new Map();
  const length = search.length;
  let start = 0;
  let equals = -1;
  let nameFlags = 0;
  let valueFlags = 0;
  for (let index = 0; index <= length; index++) {
    const code = index === length ? 38 : search.charCodeAt(index);
    if (code === 38 /* & */) {
      if (index > start) {
        if (equals === -1) {
          add(
            values,
            decodeComponent(search.slice(start, index), (nameFlags & 1) !== 0, (nameFlags & 2) !== 0),
            '',
          );
        } else {
          add(
            values,
            decodeComponent(search.slice(start, equals), (nameFlags & 1) !== 0, (nameFlags & 2) !== 0),
            decodeComponent(search.slice(equals + 1, index), (valueFlags & 1) !== 0, (valueFlags & 2) !== 0),
          );
        }
      }
      start = index + 1;
      equals = -1;
      nameFlags = 0;
      valueFlags = 0;
    } else if (code === 61 /* = */ && equals === -1) {
      equals = index;
    } else if (code === 43 /* + */ || code === 37 /* % */) {
      const flag = code === 43 ? 1 : 2;
      if (equals === -1) nameFlags |= flag;
      else valueFlags |= flag;
    }
  }
  return values;
}
