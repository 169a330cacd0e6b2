import { DEFAULT_CSRF_MAX_AGE_MS } from '../rest/admin-hook';
import { constantTimeEqual } from '../rest/constant-time';
import { encodeBase64Url } from '../settings/secrets/base64';
import { hmacSha256 } from '../settings/secrets/hmac-sha256';

/**
 * CSRF tokens of the admin forms: `<issued at>.<signature>`, where the signature is the
 * HMAC-SHA256, keyed with the server's `csrfSecret`, of the user's id, the host's session id
 * (when the host gives one) and the issue time (Unix seconds), base64url-encoded. A token is
 * valid for that user, in that session, for `maxAgeMs` after it was issued. The HMAC is the
 * package's own (`settings/secrets/hmac-sha256.ts`), the same on every runtime.
 */

/** How far in the future an issue time may lie (clocks of several instances differ a little). */
const CLOCK_SKEW_MS = 60 * 1000;

const TOKEN_CONTEXT = 'commerce-plugin-framework/admin-csrf/v2\u0000';
const TOKEN_FORMAT = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
/** The signature of one (user, session, issue time); the fields are JSON-encoded, so no two tuples share a message. */
async function sign(secret: string, userId: string | number, sessionId: string | null, issuedAt: number) {
  if (typeof secret !== 'string' || secret === '') {
    throw new Error('The admin pages need a non-empty csrfSecret');
  }
  const message = TOKEN_CONTEXT + JSON.stringify([String(userId), sessionId, issuedAt]);
  return encodeBase64Url(hmacSha256(secret, message));
}

/** Options of {@link createCsrfToken}. */
export interface CreateCsrfTokenOptions {
  /**
   * The host's session id (`createRestServer({ admin: { sessionId } })` gives it to the admin
   * pages): the token is then valid in that session only. `null` or absent: the user's
   * sessions share tokens.
   */
  sessionId?: string | null;
  /** The issue time, in milliseconds since the epoch; default now. */
  now?: number;
}

/** Options of {@link verifyCsrfToken}. */
export interface VerifyCsrfTokenOptions {
  /** The session id the token must have been issued for (as given to {@link createCsrfToken}). */
  sessionId?: string | null;
  /** How long after its issue a token is valid, in milliseconds; default 2 hours. */
  maxAgeMs?: number;
  /** The time to check against, in milliseconds since the epoch; default now. */
  now?: number;
}

/**
 * The CSRF token of a user: what the admin form sends back in its hidden `_csrf` field.
 * Hosts that embed the form themselves (see `Framework_Register_Settings.renderForm`) use it,
 * with the same `sessionId` their `admin.sessionId` gives the pages.
 *
 * @param csrfSecret - the server's `admin.csrfSecret` (non-empty)
 * @param userId - the authenticated user's id
 * @param options - the session the token is for, and the issue time
 * @returns `<issue time in seconds>.<43 base64url characters>`
 * @example
 * ```ts
 * const csrfToken = await createCsrfToken(csrfSecret, user.id, { sessionId: session.id });
 * const html = await settingsPage.renderForm({ csrfToken });
 * ```
 */
export async function createCsrfToken(
  csrfSecret: string,
  userId: string | number,
  options: CreateCsrfTokenOptions = {},
): Promise<string> {
  const issuedAt = Math.floor((options.now ?? Date.now()) / 1000);
  return `${issuedAt}.${await sign(csrfSecret, userId, options.sessionId ?? null, issuedAt)}`;
}

/**
 * Whether `token` is a CSRF token of `userId` (in `options.sessionId`) under `csrfSecret`,
 * issued at most `options.maxAgeMs` ago (and not in the future). Compares in constant time; a
 * missing, malformed, foreign or expired token is simply false.
 */
export async function verifyCsrfToken(
  csrfSecret: string,
  userId: string | number,
  token: string | null | undefined,
  options: VerifyCsrfTokenOptions = {},
): Promise<boolean> {
  if (typeof token !== 'string') return false;
  const match = TOKEN_FORMAT.exec(token);
  if (match === null) return false;
  const issuedAt = Number(match[1]);
  const now = options.now ?? Date.now();
  const age = now - issuedAt * 1000;
  if (age > (options.maxAgeMs ?? DEFAULT_CSRF_MAX_AGE_MS) || age < -CLOCK_SKEW_MS) return false;
  const expected = await sign(csrfSecret, userId, options.sessionId ?? null, issuedAt);
  return constantTimeEqual(match[2]!, expected);
}
