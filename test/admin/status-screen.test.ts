import { MemoryOptionStore, OptionStoreError } from 'commerce-plugin-framework';
import { isSecretKey, renderStatusBlocks, renderStatusValue } from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';
import { acmePage, adminContext } from './support/acme-settings';
import { getPage } from './support/requests';

describe('status screen (GET /admin/status)', () => {
  it('lists every plugin’s block under the plugin’s name, plugins without settings included', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const response = await getPage(page, '/admin/status');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>System status</title>');
    expect(html).toContain('<h2 id="status-plugin-0">Acme Payments</h2>');
    expect(html).toContain('<h2 id="status-plugin-1">Bare Plugin</h2>');
    expect(html).toContain('<span class="status-key">is_payment_gateway:</span> Yes');
    expect(html).toContain('<span class="status-key">is_payment_gateway:</span> No');
    expect(html).toContain(
      '<span class="status-key">settings:</span> <span class="status-empty">None</span>',
    );
    expect(html).toContain('<span class="status-key">api_key:</span> ********');
  });

  it('shows values as readable text: Yes/No, nested lists, escaped text, masked secrets', () => {
    const html = renderStatusValue({
      live: false,
      retries: 3,
      missing: null,
      note: '<b>"hi"</b> & bye',
      nested: { deeper: { flag: true }, list: [1, 'two', { three: 3 }] },
      client_secret: 'abc123',
      accessToken: 'tok',
      api_key: '',
      tokens_enabled: true,
    });
    expect(html).toContain('<span class="status-key">live:</span> No');
    expect(html).toContain('<span class="status-key">retries:</span> 3');
    expect(html).toContain(
      '<span class="status-key">missing:</span> <span class="status-empty">Not set</span>',
    );
    expect(html).toContain('&lt;b&gt;&quot;hi&quot;&lt;/b&gt; &amp; bye');
    expect(html).toContain(
      '<span class="status-key">deeper:</span> <ul class="status-list"><li><span class="status-key">flag:</span> Yes</li></ul>',
    );
    expect(html).toContain(
      '<span class="status-key">list:</span> <ul class="status-list"><li>1</li><li><span class="status-text">two</span></li><li><ul class="status-list"><li><span class="status-key">three:</span> 3</li></ul></li></ul>',
    );
    expect(html).toContain('<span class="status-key">client_secret:</span> ********');
    expect(html).toContain('<span class="status-key">accessToken:</span> ********');
    expect(html).not.toMatch(/abc123|>tok</);
    expect(html).toContain('<span class="status-key">tokens_enabled:</span> Yes');
  });

  it('recognises secret-looking keys', () => {
    for (const key of [
      'password',
      'api_key',
      'apiKey',
      'ApiKey',
      'client_secret',
      'webhookSecret',
      'private-key',
      'access_token',
      'passphrase',
      'tokens',
      'apiKeys',
    ]) {
      expect(isSecretKey(key)).toBe(true);
    }
    for (const key of [
      'passthrough',
      'compass',
      'key',
      'tokenizer',
      'monkey',
      'is_payment_gateway',
      'keyboard',
    ]) {
      expect(isSecretKey(key)).toBe(false);
    }
  });

  it('escapes plugin names and says when a plugin reports nothing', () => {
    const html = renderStatusBlocks({}, [{ id: 'x', name: '<i>X</i>' }], 'commerce');
    expect(html).toContain('<h2 id="status-plugin-0">&lt;i&gt;X&lt;/i&gt;</h2>');
    expect(html).toContain('This plugin reports no status.');
  });

  it('answers 503 when the report cannot be built', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const context = adminContext({
      getSystemStatus: async () => {
        throw new OptionStoreError('getMany', { cause: new Error('secret host 10.0.0.9') });
      },
    });
    const response = await getPage(page, '/admin/status', context);
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain('10.0.0.9');
  });
});
