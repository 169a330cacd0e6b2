/**
 * Schema versions (CONTRACT §11): a server whose `schemaVersion` is not the stored one may not
 * write. Its settings page shows a notice and the values read-only (no form that cannot save),
 * and a post answers 409 with the notice, storing nothing.
 */
import { MemoryOptionStore, type SettingsMigration, type SettingsOptions } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { fieldRow, getPage, postForm } from './support/requests';
import { ShopSettings, settingsPage } from './support/shop-settings';

const TO_2: SettingsMigration = { version: 2, name: 'nothing to do', up: () => undefined };
const RECORD = 'framework_shop:schema';
const PATH = '/admin/settings/shop';
const NEWER =
  'These settings were saved by a newer version of the plugin (schema 3; this server runs 2). They can be read here but not changed until this server is updated.';

/** A server at schema version 2 over a store whose record says `record`. */
function shopPage(record: string, options: SettingsOptions = {}) {
  const store = new MemoryOptionStore({
    [RECORD]: record,
    framework_shop_title: 'Saved by the new release',
    framework_shop_api_key: 'sk_live_0123456789',
  });
  const settings = new ShopSettings('shop', store, { schemaVersion: 2, migrations: [TO_2], ...options });
  const page = settingsPage(settings);
  return { store, settings, page };
}

const FORM = { framework_shop_title: 'Changed by the old release', framework_shop_retries: '3' };

describe('admin page: stored settings at another schema version', () => {
  it('shows the notice and the values read-only, with no form and no save button', async () => {
    const { page } = shopPage('3');
    const response = await getPage(page, PATH);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<div class="notice notice-warning" role="alert"><p>${NEWER}</p></div>`);
    expect(html).not.toContain('<form class="settings-form"');
    expect(html).not.toContain('name="_csrf"');
    expect(html).not.toContain('Save changes');
    expect(html).toContain('<fieldset class="read-only-fields" disabled>');
    expect(fieldRow(html, 'framework_shop_title')).toContain('value="Saved by the new release"');
    expect(html).not.toContain('sk_live_0123456789');
  });

  it('answers a post with 409 and the notice, storing nothing, whether the form changed anything or not', async () => {
    const { store, settings, page } = shopPage('3');
    const forms: Record<string, string>[] = [
      FORM,
      { framework_shop_title: 'Saved by the new release' },
      { framework_shop_retries: 'x' },
    ];
    for (const form of forms) {
      const response = await postForm(page, form, { path: PATH });
      expect(response.status).toBe(409);
      const html = await response.text();
      expect(html).toContain(`<p>Nothing was saved. ${NEWER}</p>`);
      expect(html).not.toContain('Save changes');
      // the values as stored, not as posted
      expect(fieldRow(html, 'framework_shop_title')).toContain('value="Saved by the new release"');
    }
    expect(await store.get('framework_shop_title')).toBe('Saved by the new release');
    expect(await store.get('framework_shop_retries')).toBeUndefined();
    expect(await settings.getHistory()).toEqual([]);
  });

  it('answers 409 when the settings are migrated between showing the form and saving it', async () => {
    const { store, page } = shopPage('2');
    const html = await (await getPage(page, PATH)).text();
    expect(html).toContain('Save changes');
    expect(html).not.toContain('class="notice notice-warning"');
    await store.set(RECORD, '3'); // a newer release migrated the settings meanwhile
    const response = await postForm(page, FORM, { path: PATH });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(`Nothing was saved. ${NEWER}`);
    expect(await store.get('framework_shop_title')).toBe('Saved by the new release');
  });

  it('says so when migrations are due and this server does not run them on load', async () => {
    const { page } = shopPage('1', { migrateOnLoad: false });
    const html = await (await getPage(page, PATH)).text();
    expect(html).toContain(
      'These settings were saved by an older version of the plugin (schema 1; this server runs 2) and are not migrated yet.',
    );
    expect(html).not.toContain('Save changes');
  });
});
