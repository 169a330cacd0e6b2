/**
 * Rules across settings (CONTRACT §12) on the admin form: a save the rules refuse comes back
 * (400, nothing stored) with each message at its field, the typed values kept (never a secret's).
 */
import { Framework_Abstract_Settings, MemoryOptionStore, type SettingsRule } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { fieldRow, postForm } from './support/requests';
import { settingsPage } from './support/shop-settings';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
    this.registerSetting('title', 'string', { name: 'Title', default: 'Shop' });
    this.registerSetting('api_key', 'string', { name: 'API key', secret: true });
    this.registerSetting('webhook_secret', 'string', { name: 'Webhook secret', secret: true });
  }
}

const rules: SettingsRule[] = [
  (values) =>
    values.mode === 'live' && !values.webhook_secret
      ? [
          { id: 'webhook_secret', message: 'Live mode needs a webhook secret.' },
          { id: 'webhook_secret', message: 'Copy it from your dashboard.' },
        ]
      : [],
  (values) =>
    values.title === 'Closed'
      ? [
          { id: '', message: 'A closed shop cannot take payments.' },
          { id: 'no_such_setting', message: 'Ask support to reopen it.' },
        ]
      : [],
];

function shopPage() {
  const store = new MemoryOptionStore();
  const settings = new ShopSettings('shop', store, { rules });
  const page = settingsPage(settings);
  return { store, settings, page };
}

const PATH = '/admin/settings/shop';
const TYPED_KEY = 'sk_live_zq7q1v9k';

describe('admin form: rules across settings', () => {
  it('shows each message at its field, keeps the typed values (not a typed secret) and stores nothing', async () => {
    const { store, settings, page } = shopPage();
    const response = await postForm(
      page,
      {
        framework_shop_mode: 'live',
        framework_shop_title: 'Open all day',
        framework_shop_api_key: TYPED_KEY,
      },
      { path: PATH },
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    const row = fieldRow(html, 'framework_shop_webhook_secret');
    expect(row).toContain('field-invalid');
    expect(row).toContain(
      'id="field-framework_shop_webhook_secret-error"><span class="visually-hidden">Error: </span>Live mode needs a webhook secret. Copy it from your dashboard.</p>',
    );
    expect(row).toContain('aria-invalid="true"');
    // linked from the summary at the top, like a value error
    expect(html).toContain('href="#field-framework_shop_webhook_secret">Webhook secret</a>: Live mode needs');
    // the other fields keep what was typed, and no other field has an error
    expect(fieldRow(html, 'framework_shop_title')).toContain('value="Open all day"');
    expect(fieldRow(html, 'framework_shop_mode')).toContain('<option value="live" selected>');
    expect(fieldRow(html, 'framework_shop_title')).not.toContain('field-invalid');
    // a typed secret is never shown again, and says so
    expect(html).not.toContain('zq7q1v9k');
    expect(fieldRow(html, 'framework_shop_api_key')).toContain('Not saved: what you typed here');
    expect(
      Object.fromEntries(await store.getMany(['framework_shop_mode', 'framework_shop_api_key'])),
    ).toEqual({});
    expect(await settings.getHistory()).toEqual([]);
  });

  it('shows a problem about no field of the page, or about the whole level, at the top', async () => {
    const { store, page } = shopPage();
    const response = await postForm(page, { framework_shop_title: 'Closed' }, { path: PATH });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(
      '<div class="notice notice-error" role="alert"><p>The settings were not saved: A closed shop cannot take payments. Ask support to reopen it.</p></div>',
    );
    expect(html).not.toContain('class="field field-invalid"');
    expect(fieldRow(html, 'framework_shop_title')).toContain('value="Closed"');
    expect(await store.get('framework_shop_title')).toBeUndefined();
  });

  it('saves once the rules are met', async () => {
    const { settings, page } = shopPage();
    const response = await postForm(
      page,
      { framework_shop_mode: 'live', framework_shop_webhook_secret: 'whsec_0123456789' },
      { path: PATH },
    );
    expect(response.status).toBe(303);
    expect(await settings.getValue('mode')).toBe('live');
  });
});
