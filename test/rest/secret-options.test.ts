/** A secret's options are never shown (third round): not in Setting objects, not in the admin form. */
import {
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';
import { postForm } from '../admin/support/requests';
import { ADMIN_TOKEN, authenticate, call } from './support/fixtures';

const OPTION_TEXT = /opt_alpha_key|opt_beta_key|Alpha Label|Beta Label/;

class KeySettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('region_key', 'string', {
      name: 'Region key',
      secret: true,
      options: ['opt_alpha_key', 'opt_beta_key'],
      default: 'opt_alpha_key',
    });
    this.registerControl('region_key', 'select', {
      options: { opt_alpha_key: 'Alpha Label', opt_beta_key: 'Beta Label' },
    });
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
  }
}

class KeyPlugin extends Framework_Plugin {
  readonly settings = new KeySettings('keys', new MemoryOptionStore());
  constructor() {
    super({ id: 'keys', name: 'Keys', version: '1.0.0' });
  }
  override getSettingsHandler(): KeySettings {
    return this.settings;
  }
}

const SETTINGS = '/api/commerce/v3/keys/settings';

describe("a secret's options", () => {
  it('are [] in every Setting object, its control’s options {} (other settings keep theirs)', async () => {
    const plugin = new KeyPlugin();
    const server = createRestServer({ plugins: [plugin], authenticate, logger: { warn() {} } });
    const expected = {
      options: [],
      default: '********',
      value: '********',
      control: { type: 'select', options: {} },
    };
    expect(plugin.settings.getSetting('region_key')!.toJSON()).toMatchObject(expected);
    expect(plugin.settings.getSetting('mode')!.toJSON().options).toEqual(['live', 'test']);

    const list = await call(server, 'GET', SETTINGS, { token: ADMIN_TOKEN });
    const one = await call(server, 'GET', `${SETTINGS}/region_key`, { token: ADMIN_TOKEN });
    const put = await call(server, 'PUT', `${SETTINGS}/region_key`, {
      token: ADMIN_TOKEN,
      body: { value: 'opt_beta_key' },
    });
    const scoped = await call(server, 'GET', `${SETTINGS}/region_key?scope=eu`, { token: ADMIN_TOKEN });
    const batch = await call(server, 'POST', `${SETTINGS}/batch`, {
      token: ADMIN_TOKEN,
      body: { update: [{ id: 'region_key', value: 'opt_alpha_key' }] },
    });
    const refused = await call(server, 'PUT', `${SETTINGS}/region_key`, {
      token: ADMIN_TOKEN,
      body: { value: 'other' },
    });
    expect([put.status, scoped.status, batch.status, refused.status]).toEqual([200, 200, 200, 400]);
    for (const object of [list.json[0], one.json, put.json, scoped.json, batch.json.update[0]]) {
      expect(object).toMatchObject(expected);
    }
    for (const answer of [list, one, put, scoped, batch, refused])
      expect(answer.text).not.toMatch(OPTION_TEXT);
    expect(list.json[1].options).toEqual(['live', 'test']);
    expect(await plugin.settings.getValue('region_key')).toBe('opt_alpha_key');
  });

  it('are not shown by the admin form, which renders the secret as a password field and still checks the options', async () => {
    const plugin = new KeyPlugin();
    const page = new Framework_Register_Settings(plugin, {
      fields: new Framework_Register_Settings_Fields(plugin.settings),
    });
    const path = '/admin/settings/keys';
    const refused = await postForm(page, { framework_keys_region_key: 'not_an_option' }, { path });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toMatch(/<input type="password" id="field-framework_keys_region_key"/);
    expect(html).not.toMatch(/<select[^>]*name="framework_keys_region_key"/);
    expect(html).not.toMatch(OPTION_TEXT);
    expect(html).toContain('among the allowed options');
    expect(await plugin.settings.getValue('region_key')).toBe('opt_alpha_key'); // the default

    expect((await postForm(page, { framework_keys_region_key: 'opt_beta_key' }, { path })).status).toBe(303);
    expect(await plugin.settings.getValue('region_key')).toBe('opt_beta_key');
  });
});
