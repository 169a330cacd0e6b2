import { createRestServer, MemoryOptionStore } from 'commerce-plugin-framework';
import {
  createCsrfToken,
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';
import {
  AcmeGateway,
  ADMIN_BEARER,
  ADMIN_SESSION,
  acmeServer,
  CUSTOMER_SESSION,
  readSessionId,
  SECOND_ADMIN_SESSION,
  SESSION_COOKIE,
} from './support/acme-server';
import { CSRF_SECRET } from './support/acme-settings';

const ORIGIN = 'http://shop.test';
const SETTINGS_PAGE = `${ORIGIN}/admin/settings/acme`;
const adminCookie = { cookie: `theme=dark; ${SESSION_COOKIE}=${ADMIN_SESSION}` };

function post(body: URLSearchParams, headers: Record<string, string> = adminCookie): Request {
  return new Request(SETTINGS_PAGE, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: body.toString(),
  });
}

async function restSettings(server: ReturnType<typeof acmeServer>): Promise<Record<string, unknown>> {
  const response = await server.fetch(
    new Request(`${ORIGIN}/api/commerce/v3/acme/settings`, {
      headers: { authorization: `Bearer ${ADMIN_BEARER}` },
    }),
  );
  expect(response.status).toBe(200);
  const list = (await response.json()) as { id: string; value: unknown }[];
  return Object.fromEntries(list.map((setting) => [setting.id, setting.value]));
}

describe('admin pages through createRestServer', () => {
  it('serves the settings page to a session cookie read by authenticate', async () => {
    const server = acmeServer(new MemoryOptionStore());
    const response = await server.fetch(new Request(SETTINGS_PAGE, { headers: adminCookie }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<h1>Acme Payments</h1>');
  });

  it('saves a valid post, redirects with 303, and REST reads the typed values', async () => {
    const server = acmeServer(new MemoryOptionStore());
    const form = new URLSearchParams({
      _csrf: await createCsrfToken(CSRF_SECRET, 1),
      framework_acme_enabled: 'yes',
      framework_acme_max_retries: '8',
      framework_acme_fee_percent: '0.75',
      framework_acme_mode: 'live',
      framework_acme_metadata: '{"a":[1,true]}',
      framework_acme_allowed_ips: '1.1.1.1\r\n8.8.8.8',
    });
    form.append('framework_acme_countries', 'FR');
    const response = await server.fetch(post(form));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('?settings-updated=true');
    const page = await server.fetch(
      new Request(`${SETTINGS_PAGE}?settings-updated=true`, { headers: adminCookie }),
    );
    expect(await page.text()).toContain('Settings saved');
    expect(await restSettings(server)).toMatchObject({
      enabled: true,
      max_retries: 8,
      fee_percent: 0.75,
      mode: 'live',
      metadata: { a: [1, true] },
      allowed_ips: ['1.1.1.1', '8.8.8.8'],
      countries: ['FR'],
      card_types: [],
    });
  });

  it('refuses invalid posts (400), forged posts (403) and strangers (401/403), changing nothing', async () => {
    const server = acmeServer(new MemoryOptionStore());
    const before = await restSettings(server);
    const token = await createCsrfToken(CSRF_SECRET, 1);
    const invalid = new URLSearchParams({
      _csrf: token,
      framework_acme_enabled: 'yes',
      framework_acme_webhook_url: 'nope',
    });
    expect((await server.fetch(post(invalid))).status).toBe(400);
    const forged = new URLSearchParams({ framework_acme_enabled: 'yes' });
    expect((await server.fetch(post(forged))).status).toBe(403);
    const customerToken = await createCsrfToken(CSRF_SECRET, 2);
    const customer = { cookie: `${SESSION_COOKIE}=${CUSTOMER_SESSION}` };
    expect((await server.fetch(post(new URLSearchParams({ _csrf: customerToken }), customer))).status).toBe(
      403,
    );
    expect((await server.fetch(post(new URLSearchParams({ _csrf: token }), {}))).status).toBe(401);
    expect((await server.fetch(new Request(SETTINGS_PAGE))).status).toBe(401);
    expect(await restSettings(server)).toEqual(before);
  });

  it("binds the form's token to the host's session id and refuses it in another session", async () => {
    const server = acmeServer(new MemoryOptionStore(), { sessionId: readSessionId });
    const page = await server.fetch(new Request(SETTINGS_PAGE, { headers: adminCookie }));
    const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const form = () => new URLSearchParams({ _csrf: token, framework_acme_enabled: 'yes' });
    // The same user, signed in elsewhere: the token of the first session does not work there.
    const elsewhere = await server.fetch(
      post(form(), { cookie: `${SESSION_COOKIE}=${SECOND_ADMIN_SESSION}` }),
    );
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).toContain('Reload the settings page');
    expect((await server.fetch(post(form()))).status).toBe(303);
  });

  it('refuses an expired token with the 403 page that says to reload', async () => {
    const server = acmeServer(new MemoryOptionStore(), { csrfMaxAgeMs: 30 * 60 * 1000 });
    const issued = (minutesAgo: number) =>
      createCsrfToken(CSRF_SECRET, 1, { now: Date.now() - minutesAgo * 60_000 });
    const expired = await server.fetch(
      post(new URLSearchParams({ _csrf: await issued(31), framework_acme_enabled: 'yes' })),
    );
    expect(expired.status).toBe(403);
    const html = await expired.text();
    expect(html).toContain('<h1>Form not accepted</h1>');
    expect(html).toContain('has expired');
    expect(html).toContain('Reload the settings page and try again.');
    const fresh = await server.fetch(
      post(new URLSearchParams({ _csrf: await issued(29), framework_acme_enabled: 'yes' })),
    );
    expect(fresh.status).toBe(303);
    // Two hours by default.
    const byDefault = acmeServer(new MemoryOptionStore());
    expect(await byDefault.fetch(post(new URLSearchParams({ _csrf: await issued(121) })))).toMatchObject({
      status: 403,
    });
  });

  it('checks the admin session and token-age options', () => {
    const store = new MemoryOptionStore();
    expect(() => acmeServer(store, { sessionId: 'cookie' as never })).toThrow(
      /admin.sessionId must be a function/,
    );
    for (const csrfMaxAgeMs of [0, -1, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => acmeServer(store, { csrfMaxAgeMs }), String(csrfMaxAgeMs)).toThrow(/csrfMaxAgeMs/);
    }
  });

  it('serves the status screen with every plugin, settings or not', async () => {
    const store = new MemoryOptionStore({
      framework_acme_api_key: 'sk_live_hidden',
      framework_acme_enabled: 'yes',
    });
    const server = acmeServer(store);
    const response = await server.fetch(new Request(`${ORIGIN}/admin/status`, { headers: adminCookie }));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('>Acme Payments</h2>');
    expect(html).toContain('>Bare Plugin</h2>');
    expect(html).toContain('<span class="status-key" title="enabled">Enable Acme Pay:</span> Yes');
    expect(html).toContain('<span class="status-key" title="api_key">API key:</span> ********');
    expect(html).not.toContain('sk_live_hidden');
    expect((await server.fetch(new Request(`${ORIGIN}/admin/status`))).status).toBe(401);
  });

  it('checks the user object as REST does: capabilities given as a string grant nothing', async () => {
    const errors: unknown[] = [];
    const acme = new AcmeGateway(new MemoryOptionStore());
    const server = createRestServer({
      plugins: [acme],
      // A host bug: one string where a list belongs ("…manage_commerce…" is inside it).
      authenticate: () => ({ id: 1, capabilities: 'view_manage_commerce_reports' }) as never,
      admin: {
        pages: [
          new Framework_Register_Settings(acme, {
            fields: new Framework_Register_Settings_Fields(acme.getSettingsHandler()),
          }),
        ],
        csrfSecret: CSRF_SECRET,
      },
      onError: (error) => errors.push(error),
    });
    for (const path of ['/admin/status', '/admin/settings/acme']) {
      const response = await server.fetch(new Request(`${ORIGIN}${path}`));
      expect(response.status, path).toBe(500);
      expect(await response.text()).not.toContain('Acme Payments</h2>');
    }
    const rest = await server.fetch(new Request(`${ORIGIN}/api/commerce/v3/acme/settings`));
    expect(rest.status).toBe(500);
    expect(errors).toHaveLength(3);
    expect((errors[0] as Error).message).toContain('capabilities is not an array');
  });

  it('answers 404 for admin paths no page serves', async () => {
    const server = acmeServer(new MemoryOptionStore());
    const response = await server.fetch(
      new Request(`${ORIGIN}/admin/settings/bare`, { headers: adminCookie }),
    );
    expect(response.status).toBe(404);
  });
});
