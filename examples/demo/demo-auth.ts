import { randomBytes } from 'node:crypto';
import {
  bearerTokenAuth,
  constantTimeEqual,
  type HeaderAuthenticator,
  type RestUser,
} from 'commerce-plugin-framework';

/** The cookie the `/login` page sets for the browser (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'demo_session';

/** The demo's one user: a shop manager who may also edit orders. */
export const DEMO_USER: RestUser = Object.freeze({
  id: 1,
  capabilities: Object.freeze(['manage_commerce', 'edit_shop_orders']),
});

/** A fresh development token: 24 random bytes, base64url (valid as a bearer token). */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The value of one cookie in a `Cookie` header, or `null`. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals !== -1 && part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim();
  }
  return null;
}

/**
 * The demo's `authenticate`: `Authorization: Bearer <token>` (curl, REST clients) or the
 * session cookie set by `/login` (browsers, for the admin pages), both compared in constant
 * time with the development token. Anything else is anonymous. A `HeaderAuthenticator`: it
 * reads headers only, so the server hands it the headers as they came instead of building a
 * `Request` for each request.
 *
 * @throws TypeError when the token is not a valid bearer token (token68 characters)
 */
export function demoAuthenticate(token: string): HeaderAuthenticator {
  const bearer = bearerTokenAuth({ [token]: DEMO_USER });
  const fromHeader = (header: (name: string) => string | null): RestUser | null => {
    const user = bearer.fromHeader(header);
    if (user !== null) return user;
    const session = readCookie(header('cookie'), SESSION_COOKIE);
    return session !== null && constantTimeEqual(session, token) ? DEMO_USER : null;
  };
  return Object.assign((request: Request) => fromHeader((name) => request.headers.get(name)), { fromHeader });
}
