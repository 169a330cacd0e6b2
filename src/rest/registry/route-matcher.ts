/** What a path parameter segment accepts: digits only (an `integer` argument) or any non-empty text. */
export type ParamKind = 'integer' | 'any';

/** A route path prepared for the matcher: its segments, each fixed text or a parameter of a kind. */
export type MatcherSegment = { readonly text: string } | { readonly param: ParamKind };

/** The result of a match: the route and its raw (still percent-encoded) parameter values, in path order. */
export interface RouteMatch<R> {
  readonly route: R;
  readonly values: readonly string[];
}

class MatchNode<R> {
  statics: Map<string, MatchNode<R>> | null = null;
  integer: MatchNode<R> | null = null;
  any: MatchNode<R> | null = null;
  route: R | null = null;
  /**
   * When this node's only way on is a chain of fixed segments (`api/commerce/v3`), the chain's
   * text and the node it leads to: one `startsWith` instead of a lookup per segment.
   */
  chainText: string | null = null;
  chainTarget: MatchNode<R> | null = null;
}

function onlyStaticChild<R>(node: MatchNode<R>): [string, MatchNode<R>] | null {
  if (node.integer !== null || node.any !== null || node.statics === null || node.statics.size !== 1)
    return null;
  return node.statics.entries().next().value ?? null;
}

/** Sets the chain shortcuts of `node` and everything below it. */
function compress<R>(node: MatchNode<R>): void {
  node.chainText = null;
  node.chainTarget = null;
  let step = onlyStaticChild(node);
  if (step !== null) {
    const parts: string[] = [];
    let target: MatchNode<R> = node;
    while (step !== null) {
      parts.push(step[0]);
      target = step[1];
      step = target.route === null ? onlyStaticChild(target) : null;
    }
    node.chainText = parts.join('/');
    node.chainTarget = target;
  }
  if (node.statics !== null) for (const child of node.statics.values()) compress(child);
  if (node.integer !== null) compress(node.integer);
  if (node.any !== null) compress(node.any);
}

function isDigits(path: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let index = start; index < end; index++) {
    const code = path.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

const NO_VALUES: readonly string[] = Object.freeze([]);

/**
 * Finds the route of a path. Routes without parameters are one `Map` lookup; the others are
 * found by walking a tree of path segments, trying at each level the fixed text first, then a
 * digits-only parameter, then an any-text parameter (backtracking only where two of these
 * share a prefix). Cost grows with the number of segments, not the number of routes.
 *
 * Paths are case-sensitive and compared as they arrive (percent-encoded); the caller strips a
 * trailing slash.
 */
export class RouteMatcher<R> {
  /** Routes without parameters, by full path, with their (shared, frozen) match. */
  readonly #exact = new Map<string, RouteMatch<R>>();
  /**
   * The lengths of the paths in {@link #exact}: a path of another length skips that lookup,
   * which would hash the whole path only to miss (most paths with parameters).
   */
  readonly #exactLengths = new Set<number>();
  readonly #root = new MatchNode<R>();
  #compressed = false;

  /**
   * Adds a route. `segments` describe the full path after its leading `/`.
   *
   * @returns false when a route with the same shape was already added (the first one stays)
   */
  add(segments: readonly MatcherSegment[], route: R): boolean {
    if (segments.every((segment) => 'text' in segment)) {
      const path = `/${segments.map((segment) => (segment as { text: string }).text).join('/')}`;
      if (this.#exact.has(path)) return false;
      this.#exact.set(path, Object.freeze({ route, values: NO_VALUES }));
      this.#exactLengths.add(path.length);
      return true;
    }
    let node = this.#root;
    for (const segment of segments) {
      if ('text' in segment) {
        node.statics ??= new Map();
        let next = node.statics.get(segment.text);
        if (!next) {
          next = new MatchNode<R>();
          node.statics.set(segment.text, next);
        }
        node = next;
      } else if (segment.param === 'integer') {
        node.integer ??= new MatchNode<R>();
        node = node.integer;
      } else {
        node.any ??= new MatchNode<R>();
        node = node.any;
      }
    }
    if (node.route !== null) return false;
    node.route = route;
    this.#compressed = false;
    return true;
  }

  /** The route of `path` (starting with `/`), with its raw parameter values, or `null`. */
  match(path: string): RouteMatch<R> | null {
    if (this.#exactLengths.has(path.length)) {
      const exact = this.#exact.get(path);
      if (exact !== undefined) return exact;
    }
    if (path.length === 0 || path.charCodeAt(0) !== 47) return null;
    if (!this.#compressed) {
      compress(this.#root);
      this.#compressed = true;
    }
    const values: string[] = [];
    const route = this.#walk(this.#root, path, 1, values);
    return route === null ? null : { route, values };
  }

  #walk(node: MatchNode<R>, path: string, start: number, values: string[]): R | null {
    if (start > path.length) return node.route;
    const chain = node.chainText;
    if (chain !== null) {
      const end = start + chain.length;
      if (!path.startsWith(chain, start) || (end < path.length && path.charCodeAt(end) !== 47)) return null;
      return this.#walk(node.chainTarget!, path, end + 1, values);
    }
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (end === start) return null;
    const next = end + 1;
    // One substring per segment, shared by the fixed-text lookup and a parameter's value.
    const segment = path.slice(start, end);
    if (node.statics !== null) {
      const child = node.statics.get(segment);
      if (child !== undefined) {
        const found = this.#walk(child, path, next, values);
        if (found !== null) return found;
      }
    }
    if (node.integer !== null && isDigits(path, start, end)) {
      values.push(segment);
      const found = this.#walk(node.integer, path, next, values);
      if (found !== null) return found;
      values.pop();
    }
    if (node.any !== null) {
      values.push(segment);
      const found = this.#walk(node.any, path, next, values);
      if (found !== null) return found;
      values.pop();
    }
    return null;
  }
}
