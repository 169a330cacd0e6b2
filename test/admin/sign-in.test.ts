/** The "Sign in required" page: a link to the host's sign-in page (admin.loginUrl), or what to do without one. */
import { MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { acmeServer } from './support/acme-server';

const ORIGIN = 'http://shop.test';

async function signInPage(server: ReturnType<typeof acmeServer>, path: string) {
  const response = await server.fetch(new Request(`${ORIGIN}${path}`));
  return { status: response.status, html: await response.text() };
}

describe('the "Sign in required" page', () => {
  it('without admin.loginUrl, says what to do and offers no link', async () => {
    const { status, html } = await signInPage(acmeServer(new MemoryOptionStore()), '/admin/settings/acme');
    expect(status).toBe(401);
    expect(html).toContain('<h1>Sign in required</h1>');
    expect(html).toContain(
      'Sign in to the shop’s admin area with an account that may manage the shop, then reload this page.',
    );
    expect(html).not.toContain('>Sign in</a>');
  });

  it('links to a loginUrl text with the path to return to', async () => {
    const server = acmeServer(new MemoryOptionStore(), { loginUrl: '/account/login' });
    const { status, html } = await signInPage(server, '/admin/settings/acme?scope=eu/de');
    expect(status).toBe(401);
    expect(html).toContain(
      '<a class="button-primary" href="/account/login?redirect_to=%2Fadmin%2Fsettings%2Facme%3Fscope%3Deu%2Fde">Sign in</a>',
    );
    const withQuery = acmeServer(new MemoryOptionStore(), {
      loginUrl: 'https://id.shop.test/login?app=admin',
    });
    expect((await signInPage(withQuery, '/admin/status')).html).toContain(
      'href="https://id.shop.test/login?app=admin&amp;redirect_to=%2Fadmin%2Fstatus"',
    );
  });

  it('calls a loginUrl function with the path to return to', async () => {
    const asked: string[] = [];
    const server = acmeServer(new MemoryOptionStore(), {
      loginUrl: (returnTo) => {
        asked.push(returnTo);
        return `/sign-in?next=${encodeURIComponent(returnTo)}&"x"`;
      },
    });
    const { html } = await signInPage(server, '/admin/status');
    expect(asked).toEqual(['/admin/status']);
    expect(html).toContain('href="/sign-in?next=%2Fadmin%2Fstatus&amp;&quot;x&quot;"');
  });

  it('refuses a loginUrl that is neither a URL nor a function', () => {
    for (const loginUrl of ['', '  ', 42]) {
      expect(() => acmeServer(new MemoryOptionStore(), { loginUrl: loginUrl as never })).toThrow(
        /admin\.loginUrl/,
      );
    }
  });
});
