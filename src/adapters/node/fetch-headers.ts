/**
 * Builds Fetch `Headers` from a `node:http` request's raw header list (`req.rawHeaders`:
 * name, value, name, value…), keeping repeated headers. A header that the Fetch API refuses
 * (Node accepts a few byte sequences `Headers` does not) is left out rather than failing the
 * request.
 */
export function toFetchHeaders(rawHeaders: readonly string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    try {
      headers.append(rawHeaders[index]!, rawHeaders[index + 1]!);
    } catch {
      // Not representable as a Fetch header: skipped.
    }
  }
  return headers;
}

/** One header of a `node:http` request (`req.headers[name]`), joined like `Headers.get` joins. */
export function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}
