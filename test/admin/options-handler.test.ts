import { createHash } from 'node:crypto';
import {
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  type OptionStore,
} from 'commerce-plugin-framework';
import {
  ADMIN_STYLES,
  createCsrfToken,
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';
import { AcmeSettings, acmePage, adminContext, CSRF_SECRET } from './support/acme-settings';
import { fieldRow, getPage, ORIGIN, postForm, snapshot } from './support/requests';

const KEYS = [
  'enabled',
  'title',
  'api_key',
  'notify_email',
  'webhook_url',
  'max_retries',
  'fee_percent',
  'priority',
  'mode',
  'capture',
  'log_level',
  'launch_date',
  'brand_color',
  'logo',
  'instructions',
  'countries',
  'card_types',
  'allowed_ips',
  'retry_delays',
  'metadata',
].map((id) => `framework_acme_${id}`);

/** A complete, valid submission of the Acme form, as a browser sends it. */
const VALID_FORM = {
  framework_acme_enabled: 'yes',
  framework_acme_title: 'Pay with Acme',
  framework_acme_api_key: 'sk_live_123',
  framework_acme_notify_email: 'alerts@shop.example',
  framework_acme_webhook_url: 'https://shop.example/hooks/acme',
  framework_acme_max_retries: '5',
  framework_acme_fee_percent: '1.25',
  framework_acme_priority: '70',
  framework_acme_mode: 'live',
  framework_acme_capture: 'manual',
  framework_acme_log_level: '2',
  framework_acme_launch_date: '2025-03-01',
  framework_acme_brand_color: '#ff8800',
  framework_acme_logo: 'logo.png',
  framework_acme_instructions: 'Thank you!\r\nSee you soon.',
  framework_acme_countries: ['DE', 'US'],
  framework_acme_card_types: ['visa', 'amex'],
  framework_acme_allowed_ips: '10.0.0.1\r\n10.0.0.2',
  framework_acme_retry_delays: '5\r\n30\r\n300',
  framework_acme_metadata: '{"channel": "web", "tags": ["a", 1]}',
};

const EXPECTED_VALUES = {
  enabled: true,
  title: 'Pay with Acme',
  api_key: 'sk_live_123',
  notify_email: 'alerts@shop.example',
  webhook_url: 'https://shop.example/hooks/acme',
  max_retries: 5,
  fee_percent: 1.25,
  priority: 70,
  mode: 'live',
  capture: 'manual',
  log_level: 2,
  launch_date: '2025-03-01',
  brand_color: '#ff8800',
  logo: 'logo.png',
  instructions: 'Thank you!\nSee you soon.',
  countries: ['DE', 'US'],
  card_types: ['visa', 'amex'],
  allowed_ips: ['10.0.0.1', '10.0.0.2'],
  retry_delays: [5, 30, 300],
  metadata: { channel: 'web', tags: ['a', 1] },
};

async function valuesOf(store: OptionStore): Promise<Record<string, unknown>> {
  const fresh = new AcmeSettings('acme', store);
  const values: Record<string, unknown> = {};
  for (const id of fresh.getSettings().keys()) values[id] = await fresh.getValue(id);
  return values;
}

describe('options handler (POST /admin/settings/{pluginId})', () => {
  it('saves typed values for every type and control, then answers 303 back to the page', async () => {
    const store = new MemoryOptionStore();
    const { page, settings } = acmePage(store);
    const response = await postForm(page, VALID_FORM);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('?settings-updated=true');
    expect(await valuesOf(store)).toEqual(EXPECTED_VALUES);
    expect(await settings.getValue('retry_delays')).toEqual([5, 30, 300]);
    expect(await store.get('framework_acme_enabled')).toBe('yes');
    expect(await store.get('framework_acme_metadata')).toBe('{"channel":"web","tags":["a",1]}');
  });

  it('stores false for an unchecked checkbox and an empty list for unchecked choices', async () => {
    const store = new MemoryOptionStore({
      framework_acme_enabled: 'yes',
      framework_acme_card_types: '["visa"]',
    });
    const { page } = acmePage(store);
    const { framework_acme_enabled: _enabled, framework_acme_card_types: _cards, ...unchecked } = VALID_FORM;
    expect((await postForm(page, unchecked)).status).toBe(303);
    expect(await store.get('framework_acme_enabled')).toBe('no');
    expect(await store.get('framework_acme_card_types')).toBe('[]');
  });

  it('keeps the stored password when its field is left empty, and clears other emptied fields', async () => {
    const store = new MemoryOptionStore({
      framework_acme_api_key: 'sk_old',
      framework_acme_max_retries: '9',
    });
    const { page } = acmePage(store);
    const response = await postForm(page, {
      ...VALID_FORM,
      framework_acme_api_key: '',
      framework_acme_max_retries: '',
    });
    expect(response.status).toBe(303);
    expect(await store.get('framework_acme_api_key')).toBe('sk_old');
    expect(await store.get('framework_acme_max_retries')).toBeUndefined(); // reads its default, 3, again
  });

  it('leaves fields that are absent from the form untouched', async () => {
    const store = new MemoryOptionStore({ framework_acme_title: 'Kept' });
    const { page } = acmePage(store);
    expect((await postForm(page, { framework_acme_mode: 'live' })).status).toBe(303);
    expect(await store.get('framework_acme_title')).toBe('Kept');
    expect(await store.get('framework_acme_mode')).toBe('live');
  });

  it('saves nothing when any field is invalid, and shows the form again with 400', async () => {
    const store = new MemoryOptionStore({ framework_acme_title: 'Before' });
    const { page } = acmePage(store);
    const before = await snapshot(store, KEYS);
    const response = await postForm(page, { ...VALID_FORM, framework_acme_retry_delays: '5\nsoon' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(fieldRow(html, 'framework_acme_retry_delays')).toContain(
      'Line 2: Enter a whole number, such as 42.',
    );
    expect(fieldRow(html, 'framework_acme_title')).toContain('value="Pay with Acme"');
    expect(fieldRow(html, 'framework_acme_countries')).toContain('<option value="DE" selected>');
    expect(await snapshot(store, KEYS)).toEqual(before);
  });

  it('refuses a post without a token, with a wrong one or with another user’s, changing nothing (403)', async () => {
    const store = new MemoryOptionStore({ framework_acme_title: 'Before' });
    const { page } = acmePage(store);
    const before = await snapshot(store, KEYS);
    const otherUsersToken = await createCsrfToken(CSRF_SECRET, 8);
    const foreignSecretToken = await createCsrfToken('another-secret', 7);
    for (const form of [
      { ...VALID_FORM },
      { ...VALID_FORM, _csrf: '' },
      { ...VALID_FORM, _csrf: 'forged' },
      { ...VALID_FORM, _csrf: otherUsersToken },
      { ...VALID_FORM, _csrf: foreignSecretToken },
    ]) {
      const response = await postForm(page, form, { withToken: false });
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('Nothing was saved.');
    }
    expect(await snapshot(store, KEYS)).toEqual(before);
  });

  it('needs a signed-in user (401) with the management capability (403), for every page', async () => {
    const store = new MemoryOptionStore();
    const { page } = acmePage(store);
    const anonymous = adminContext({ user: null });
    const customer = adminContext({ user: { id: 7, capabilities: ['read'] } });
    for (const [context, status] of [
      [anonymous, 401],
      [customer, 403],
    ] as const) {
      const post = await postForm(page, VALID_FORM, { context });
      expect(post.status).toBe(status);
      expect(post.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect((await getPage(page, '/admin/settings/acme', context)).status).toBe(status);
      expect((await getPage(page, '/admin/status', context)).status).toBe(status);
    }
    expect(await snapshot(store, KEYS)).toEqual({});
    const html = await (await getPage(page, '/admin/status', anonymous)).text();
    expect(html).toContain('Sign in required');
    expect(html).not.toContain('commerce_acme');
  });

  it('honours a custom management capability', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const context = adminContext({ managementCapability: 'manage_shop' });
    expect((await getPage(page, '/admin/settings/acme', context)).status).toBe(403);
    const shopManager = adminContext({
      managementCapability: 'manage_shop',
      user: { id: 7, capabilities: ['manage_shop'] },
    });
    expect((await getPage(page, '/admin/settings/acme', shopManager)).status).toBe(200);
  });

  it('refuses other content types (415) and oversized bodies (413)', async () => {
    const store = new MemoryOptionStore();
    const { page } = acmePage(store);
    for (const contentType of ['application/json', 'multipart/form-data; boundary=x', 'text/plain']) {
      expect((await postForm(page, VALID_FORM, { contentType })).status).toBe(415);
    }
    const charset = await postForm(page, VALID_FORM, {
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
    });
    expect(charset.status).toBe(303);

    const small = new Framework_Register_Settings(
      { getId: () => 'acme', getName: () => 'Acme' },
      {
        fields: new Framework_Register_Settings_Fields(new AcmeSettings('acme', new MemoryOptionStore())),
        maxBodyBytes: 256,
      },
    );
    const big = await postForm(small, { framework_acme_title: 'x'.repeat(300) });
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('Nothing was saved.');

    // a body without Content-Length is counted while read
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++)
          controller.enqueue(new TextEncoder().encode(`framework_acme_title=${'y'.repeat(50)}&`));
        controller.close();
      },
    });
    const streamed = await small.handleAdminRequest(
      new Request(`${ORIGIN}/admin/settings/acme`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
      adminContext(),
    );
    expect(streamed?.status).toBe(413);
  });

  it('answers only its own paths, ignores one trailing slash, and refuses other methods (405)', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const context = adminContext();
    for (const path of [
      '/admin/settings/other',
      '/admin/settings',
      '/admin/settings/acme/x',
      '/admin/statuses',
      '/api/x',
    ]) {
      expect(await page.handleAdminRequest(new Request(`${ORIGIN}${path}`), context)).toBeNull();
    }
    expect((await getPage(page, '/admin/settings/acme/')).status).toBe(200);
    const put = await page.handleAdminRequest(
      new Request(`${ORIGIN}/admin/settings/acme`, { method: 'PUT' }),
      context,
    );
    expect(put?.status).toBe(405);
    expect(put?.headers.get('allow')).toBe('GET, HEAD, POST');
    const statusPost = await page.handleAdminRequest(
      new Request(`${ORIGIN}/admin/status`, { method: 'POST' }),
      context,
    );
    expect(statusPost?.status).toBe(405);
    expect(statusPost?.headers.get('allow')).toBe('GET, HEAD');
    const head = await page.handleAdminRequest(
      new Request(`${ORIGIN}/admin/settings/acme`, { method: 'HEAD' }),
      context,
    );
    expect(head?.status).toBe(200);
    expect(await head?.text()).toBe('');
  });

  it('sends the security headers, with a CSP that allows exactly the inline stylesheet', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const styleHash = createHash('sha256').update(ADMIN_STYLES).digest('base64');
    const responses = [
      await getPage(page),
      await getPage(page, '/admin/status'),
      await postForm(page, VALID_FORM),
      await postForm(page, VALID_FORM, { withToken: false }),
      await getPage(page, '/admin/settings/acme', adminContext({ user: null })),
    ];
    for (const response of responses) {
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`style-src 'sha256-${styleHash}'`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toMatch(/unsafe|script-src/);
    }
    expect(await responses[0]!.text()).toContain(`<style>${ADMIN_STYLES}</style>`);
  });

  it('puts the saved fields back and says so when the store fails midway (503)', async () => {
    const memory = new MemoryOptionStore({ framework_acme_title: 'Before', framework_acme_max_retries: '4' });
    let failKey = 'framework_acme_metadata';
    const store: OptionStore = {
      get: (key) => memory.get(key),
      getMany: (keys) => memory.getMany(keys),
      delete: (key) => memory.delete(key),
      set: async (key, value) => {
        if (key === failKey) throw new Error('connection reset');
        await memory.set(key, value);
      },
    };
    const { page } = acmePage(store);
    const before = await snapshot(memory, KEYS);
    const response = await postForm(page, VALID_FORM);
    expect(response.status).toBe(503);
    const html = await response.text();
    expect(html).toContain('The settings store is not answering. Nothing was saved. Try again in a moment.');
    expect(html).not.toContain('connection reset');
    expect(fieldRow(html, 'framework_acme_title')).toContain('value="Pay with Acme"');
    expect(await snapshot(memory, KEYS)).toEqual(before);

    failKey = '';
    expect((await postForm(page, VALID_FORM)).status).toBe(303);
  });

  it('reports a subclass check refused in updateValue next to its field, putting earlier saves back', async () => {
    class Strict extends AcmeSettings {
      override async updateValue(id: string, value: unknown): Promise<void> {
        if (id === 'fee_percent' && typeof value === 'number' && value > 5) {
          throw new Framework_Plugin_Exception('The fee may not exceed 5 %.', 400);
        }
        return super.updateValue(id, value);
      }
    }
    const store = new MemoryOptionStore({ framework_acme_enabled: 'no' });
    const settings = new Strict('acme', store);
    const page = new Framework_Register_Settings(
      { getId: () => 'acme', getName: () => 'Acme Payments' },
      { fields: new Framework_Register_Settings_Fields(settings) },
    );
    const before = await snapshot(store, KEYS);
    const response = await postForm(page, { ...VALID_FORM, framework_acme_fee_percent: '7.5' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldRow(html, 'framework_acme_fee_percent')).toContain('The fee may not exceed 5 %.');
    expect(fieldRow(html, 'framework_acme_fee_percent')).toContain('value="7.5"');
    expect(await snapshot(store, KEYS)).toEqual(before);
    expect(await settings.getValue('enabled')).toBe(false);
  });

  it('shows a 503 page when the store cannot be read', async () => {
    const store: OptionStore = {
      get: async () => undefined,
      getMany: async () => {
        throw new Error('db down at 10.1.2.3');
      },
      set: async () => undefined,
      delete: async () => false,
    };
    const { page } = acmePage(store);
    const response = await getPage(page);
    expect(response.status).toBe(503);
    const html = await response.text();
    expect(html).toContain('Settings unavailable');
    expect(html).not.toContain('10.1.2.3');
  });

  it('refuses fields of another plugin’s settings', () => {
    class Other extends Framework_Abstract_Settings {
      protected registerSettings(): void {}
    }
    expect(
      () =>
        new Framework_Register_Settings(
          { getId: () => 'acme', getName: () => 'Acme' },
          { fields: new Framework_Register_Settings_Fields(new Other('other', new MemoryOptionStore())) },
        ),
    ).toThrow(Framework_Plugin_Exception);
  });
});
