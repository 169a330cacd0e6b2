import { constantTimeEqual } from './constant-time';
import type { RestUser } from './rest-user';

/** Static tokens and the users they stand for. */
export type BearerTokens = Readonly<Record<string, RestUser>> | Iterable<readonly [string, RestUser]>;

const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 token68 characters), or
 * `null` when the header is missing or malformed.
 */
export function readBearerToken(headers: Pick<Headers, 'get'>): string | null {
  return tokenOfHeader(headers.get('authorization'));
}

function tokenOfHeader(header: string | null): string | null {
  if (header === null) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * An `authenticate` function that can also authenticate from the request headers alone:
 * the server then calls {@link fromHeader} and never builds a Fetch `Request` for
 * authentication (host adapters save that cost on every request).
 */
export interface HeaderAuthenticator {
  (request: Request): RestUser | null;
  /** The user of a request, given a way to read its headers (`name` in lower case). */
  fromHeader(header: (name: string) => string | null): RestUser | null;
}

/**
 * An `authenticate` function for static bearer tokens (development, examples, tests, service
 * accounts): `Authorization: Bearer <token>` maps to that token's user; anything else is
 * anonymous (`null`), which permission checks then answer with 401.
 *
 * The presented token is compared with every configured token in constant time (no early exit
 * on the first differing character, nor on the first matching token).
 *
 * @example
 * ```ts
 * const server = createRestServer({
 *   plugins: [plugin],
 *   authenticate: bearerTokenAuth({ [process.env.ADMIN_TOKEN!]: { id: 1, capabilities: ['manage_commerce'] } }),
 * });
 * ```
 * @throws TypeError for an empty token, a token with characters outside token68, or a user without a capability list
 */
export function bearerTokenAuth(tokens: BearerTokens): HeaderAuthenticator {
  const entries: (readonly [string, RestUser])[] =
    Symbol.iterator in tokens
      ? [...(tokens as Iterable<readonly [string, RestUser]>)]
      : Object.entries(tokens as Readonly<Record<string, RestUser>>);
  for (const [token, user] of entries) {
    if (typeof token !== 'string' || !BEARER.test(`Bearer ${token}`)) {
      throw new TypeError('bearerTokenAuth: every token must be a non-empty string of token68 characters');
    }
    if (typeof user !== 'object' || user === null || !Array.isArray(user.capabilities)) {
      throw new TypeError('bearerTokenAuth: every user needs an id and a capabilities list');
    }
  }
  const frozen = entries.map(
    ([token, user]) =>
      [token, Object.freeze({ ...user, capabilities: Object.freeze([...user.capabilities]) })] as const,
  );
  const userOf = (presented: string | null): RestUser | null => {
    if (presented === null) return null;
    let found: RestUser | null = null;
    for (const [token, user] of frozen) {
      if (constantTimeEqual(presented, token) && found === null) found = user;
    }
    return found;
  };
  const authenticate = (request: Request) => userOf(readBearerToken(request.headers));
  return Object.assign(authenticate, {
    fromHeader: (header: (name: string) => string | null) => userOf(tokenOfHeader(header('authorization'))),
  });
}
