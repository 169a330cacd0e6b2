/**
 * The admin form and what was typed into secret fields (CONTRACT, third round): no message of the
 * page repeats any 6 consecutive characters of it, and after a failed save the field says the
 * typed value was not saved.
 */
import {
  Framework_Abstract_Settings,
  Framework_Plugin_Exception,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';
import { fieldRow, postForm } from './support/requests';

class VaultSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { name: 'Title', default: 'Shop' });
    this.registerSetting('retries', 'integer', { name: 'Retries', default: 3 });
    this.registerSetting('api_key', 'string', { name: 'API key', secret: true });
    this.registerSetting('credentials', 'object', { name: 'Credentials', secret: true });
    this.registerSetting('backup_keys', 'object', { name: 'Backup keys', secret: true, is_multi: true });
  }

  /** Refuses revoked keys with a message quoting the value, as careless host code might. */
  override async updateValue(id: string, value: unknown): Promise<void> {
    if (id === 'api_key' && typeof value === 'string' && value.startsWith('revoked_')) {
      throw new Framework_Plugin_Exception(`The key ${value} was revoked`, 400);
    }
    return super.updateValue(id, value);
  }
}

function vaultPage() {
  const store = new MemoryOptionStore();
  const settings = new VaultSettings('vault', store);
  const page = new Framework_Register_Settings(
    { getId: () => 'vault', getName: () => 'Vault' },
    { fields: new Framework_Register_Settings_Fields(settings) },
  );
  return { settings, page, store };
}

const PATH = '/admin/settings/vault';

/** The page's text as a reader sees it (entities decoded). */
function visibleText(html: string): string {
  return html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every run of 6 consecutive characters of `typed` that the page holds. */
function echoes(html: string, typed: string): string[] {
  const text = visibleText(html);
  const found: string[] = [];
  for (let start = 0; start + 6 <= typed.length; start++) {
    const window = typed.slice(start, start + 6);
    if (text.includes(window)) found.push(window);
  }
  return found;
}

describe('admin form messages about secrets', () => {
  it('gives JSON advice for a secret object without quoting what was typed', async () => {
    const { page, store } = vaultPage();
    const typed = '{"zqx": zq7q1v9k, "wvu": 1}';
    const response = await postForm(page, { framework_vault_credentials: typed }, { path: PATH });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldRow(html, 'framework_vault_credentials')).toContain(
      'Enter valid JSON, such as {&quot;key&quot;: &quot;value&quot;}.',
    );
    expect(echoes(html, typed)).toEqual([]);
    expect(await store.getMany(['framework_vault_credentials'])).toEqual(new Map());

    const early = await postForm(page, { framework_vault_credentials: '{"zqx": "zq7q1v9k"' }, { path: PATH });
    const earlyHtml = await early.text();
    expect(earlyHtml).toContain('(it breaks at character');
    expect(echoes(earlyHtml, '{"zqx": "zq7q1v9k"')).toEqual([]);
  });

  it('does the same for each line of a secret multi-valued object', async () => {
    const { page } = vaultPage();
    const typed = '{"ok": 1}\r\n{"zqx": zq7q1v9k}';
    const html = await (await postForm(page, { framework_vault_backup_keys: typed }, { path: PATH })).text();
    expect(fieldRow(html, 'framework_vault_backup_keys')).toContain('Line 2: Enter valid JSON');
    expect(echoes(html, '{"zqx": zq7q1v9k}')).toEqual([]);
  });

  it('shows no message that would repeat a typed secret, the host’s own included', async () => {
    const { page, settings } = vaultPage();
    const typed = 'revoked_sk_live_81f2c9';
    const response = await postForm(page, { framework_vault_api_key: typed }, { path: PATH });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(echoes(html, typed)).toEqual([]);
    expect(fieldRow(html, 'framework_vault_api_key')).toContain(
      'The reason is not shown because it would repeat part of a secret',
    );
    expect(await settings.getValue('api_key')).toBeNull();
  });

  it('says a NUL character is the problem, without the text', async () => {
    const { page } = vaultPage();
    const html = await (
      await postForm(page, { framework_vault_api_key: 'sk_live\u0000abcdef' }, { path: PATH })
    ).text();
    expect(fieldRow(html, 'framework_vault_api_key')).toContain(
      'The text contains a NUL character, which stores cannot hold',
    );
    expect(html).not.toContain('expected a value of type string');
    expect(echoes(html, 'sk_live\u0000abcdef'.replace('\u0000', ''))).toEqual([]);
  });

  it('says next to a typed secret that it was not saved when the save failed, and not where nothing was typed', async () => {
    const { page, settings } = vaultPage();
    const typed = 'sk_live_good_5d1e77';
    const response = await postForm(
      page,
      { framework_vault_api_key: typed, framework_vault_retries: 'many', framework_vault_credentials: '' },
      { path: PATH },
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    const row = fieldRow(html, 'framework_vault_api_key');
    expect(row).toContain(
      'Not saved: what you typed here was not stored and is not shown again, so type it again.',
    );
    expect(row).toMatch(/<input type="password"[^>]*name="framework_vault_api_key"(?![^>]*value=)/);
    expect(echoes(html, typed)).toEqual([]);
    expect(fieldRow(html, 'framework_vault_credentials')).not.toContain('Not saved');
    expect(await settings.getValue('api_key')).toBeNull();
  });
});
