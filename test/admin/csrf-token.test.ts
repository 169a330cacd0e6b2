import { createHmac } from 'node:crypto';
import { createCsrfToken, DEFAULT_CSRF_MAX_AGE_MS, verifyCsrfToken } from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';

const SECRET = 'a-long-random-secret';
const NOW = Date.parse('2026-03-01T10:00:00Z');
const HOUR = 60 * 60 * 1000;

describe('CSRF tokens', () => {
  it('are the issue time and the base64url HMAC-SHA256 of user, session and issue time', async () => {
    const issuedAt = NOW / 1000;
    const mac = (session: string | null) =>
      createHmac('sha256', SECRET)
        .update(`commerce-plugin-framework/admin-csrf/v2\u0000${JSON.stringify(['42', session, issuedAt])}`)
        .digest('base64url');
    expect(await createCsrfToken(SECRET, 42, { now: NOW })).toBe(`${issuedAt}.${mac(null)}`);
    expect(await createCsrfToken(SECRET, '42', { now: NOW })).toBe(`${issuedAt}.${mac(null)}`);
    expect(await createCsrfToken(SECRET, 42, { now: NOW, sessionId: 's1' })).toBe(`${issuedAt}.${mac('s1')}`);
    expect(mac(null)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('are bound to the user, the session and the secret', async () => {
    const token = await createCsrfToken(SECRET, 'alice', { sessionId: 'session-1' });
    const inSession = { sessionId: 'session-1' };
    expect(await verifyCsrfToken(SECRET, 'alice', token, inSession)).toBe(true);
    expect(await verifyCsrfToken(SECRET, 'bob', token, inSession)).toBe(false);
    expect(await verifyCsrfToken(SECRET, 'alice', token, { sessionId: 'session-2' })).toBe(false);
    expect(await verifyCsrfToken(SECRET, 'alice', token)).toBe(false);
    expect(await verifyCsrfToken('another-secret', 'alice', token, inSession)).toBe(false);
    const sessionless = await createCsrfToken(SECRET, 'alice');
    expect(await verifyCsrfToken(SECRET, 'alice', sessionless)).toBe(true);
    expect(await verifyCsrfToken(SECRET, 'alice', sessionless, inSession)).toBe(false);
  });

  it('expire after their maximum age (2 hours by default), and are not valid before they are issued', async () => {
    expect(DEFAULT_CSRF_MAX_AGE_MS).toBe(2 * HOUR);
    const token = await createCsrfToken(SECRET, 7, { now: NOW });
    expect(await verifyCsrfToken(SECRET, 7, token, { now: NOW + 2 * HOUR })).toBe(true);
    expect(await verifyCsrfToken(SECRET, 7, token, { now: NOW + 2 * HOUR + 1000 })).toBe(false);
    expect(await verifyCsrfToken(SECRET, 7, token, { now: NOW + 5 * HOUR, maxAgeMs: 6 * HOUR })).toBe(true);
    expect(await verifyCsrfToken(SECRET, 7, token, { now: NOW + 2000, maxAgeMs: 1000 })).toBe(false);
    expect(await verifyCsrfToken(SECRET, 7, token, { now: NOW - 10 * 60 * 1000 })).toBe(false);
    // A later issue time written into an old token breaks its signature.
    const [, mac] = token.split('.');
    expect(await verifyCsrfToken(SECRET, 7, `${NOW / 1000 + 3 * 3600}.${mac}`, { now: NOW + 3 * HOUR })).toBe(
      false,
    );
  });

  it('refuse missing, malformed, truncated and altered tokens', async () => {
    const token = await createCsrfToken(SECRET, 7);
    const [time, mac] = token.split('.') as [string, string];
    const flipped = `${time}.${(mac[0] === 'A' ? 'B' : 'A') + mac.slice(1)}`;
    for (const bad of [
      null,
      undefined,
      '',
      'not a token!',
      mac,
      token.slice(0, -1),
      `${token}A`,
      flipped,
      `${token}=`,
      `-${token}`,
      ` ${token}`,
    ]) {
      expect(await verifyCsrfToken(SECRET, 7, bad)).toBe(false);
    }
  });

  it('need a secret', async () => {
    await expect(createCsrfToken('', 7)).rejects.toThrow(/non-empty csrfSecret/);
  });
});
