import { createHmac } from 'node:crypto';
import { createCsrfToken, verifyCsrfToken } from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';

const SECRET = 'a-long-random-secret';

describe('CSRF tokens', () => {
  it('are the base64url HMAC-SHA256 of the user id, keyed with the secret', async () => {
    const expected = createHmac('sha256', SECRET)
      .update('commerce-plugin-framework/admin-csrf/v1\u000042')
      .digest('base64url');
    expect(await createCsrfToken(SECRET, 42)).toBe(expected);
    expect(await createCsrfToken(SECRET, '42')).toBe(expected);
    expect(expected).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('are bound to the user and to the secret', async () => {
    const token = await createCsrfToken(SECRET, 'alice');
    expect(await verifyCsrfToken(SECRET, 'alice', token)).toBe(true);
    expect(await verifyCsrfToken(SECRET, 'bob', token)).toBe(false);
    expect(await verifyCsrfToken('another-secret', 'alice', token)).toBe(false);
    expect(await createCsrfToken(SECRET, 'bob')).not.toBe(token);
  });

  it('refuse missing, malformed, truncated and altered tokens', async () => {
    const token = await createCsrfToken(SECRET, 7);
    const flipped = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const bad of [
      null,
      undefined,
      '',
      'not a token!',
      token.slice(0, -1),
      `${token}A`,
      flipped,
      `${token}=`,
    ]) {
      expect(await verifyCsrfToken(SECRET, 7, bad)).toBe(false);
    }
  });

  it('need a secret', async () => {
    await expect(createCsrfToken('', 7)).rejects.toThrow(/non-empty csrfSecret/);
  });
});
