import { constantTimeEqual } from './constant-time';
import type { RestUser } from './rest-user';

/** Static tokens and the users they stand for. */
export type BearerTokens = Readonly<Record<string, RestUser>> | Iterable<readonly [string, RestUser]>;

const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;

/**
 * The fewest characters a configured token may have. Tokens are token68 (ASCII), so
 * characters are bytes; 16 refuses `"undefined"` (a missing environment variable turned into
 * text) and other tokens short enough to guess.
 */
const MIN_BEARER_TOKEN_LENGTH = 16;

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
 * Every configured token needs at least 16 characters, so that a missing environment variable
 * (which a template literal or `String()` turns into `"undefined"`) fails at start-up instead of
 * becoming a token anyone can guess.
 *
 * @example
 * ```ts
 * const token = process.env.ADMIN_TOKEN;
 * if (!token) throw new Error('Set ADMIN_TOKEN (e.g. openssl rand -base64 24)');
 * const server = createRestServer({
 *   plugins: [plugin],
 *   authenticate: bearerTokenAuth({ [token]: { id: 1, capabilities: ['manage_commerce'] } }),
 * });
 * ```
 * @throws TypeError for a token that is not a string of token68 characters, one shorter than 16
 *   characters, or a user without a capability list (the message never repeats a token)
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
    if (token.length < MIN_BEARER_TOKEN_LENGTH) {
      throw new TypeError(
        `bearerTokenAuth: every token needs at least ${MIN_BEARER_TOKEN_LENGTH} characters, got one of ${token.length} ` +
          '(is its environment variable set?); generate one with e.g. `openssl rand -base64 24`',
      );
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
