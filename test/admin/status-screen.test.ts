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
    expect(html).toContain('<span class="status-key" title="is_payment_gateway">Payment gateway:</span> Yes');
    expect(html).toContain('<span class="status-key" title="is_payment_gateway">Payment gateway:</span> No');
    expect(html).toContain(
      '<span class="status-key" title="settings">Settings:</span> <span class="status-empty">None</span>',
    );
    expect(html).toContain('<span class="status-key" title="api_key">API key:</span> ********');
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
    expect(html).toContain('<span class="status-key" title="live">Live:</span> No');
    expect(html).toContain('<span class="status-key" title="retries">Retries:</span> 3');
    expect(html).toContain(
      '<span class="status-key" title="missing">Missing:</span> <span class="status-empty">Not set</span>',
    );
    expect(html).toContain('&lt;b&gt;&quot;hi&quot;&lt;/b&gt; &amp; bye');
    expect(html).toContain(
      '<span class="status-key" title="deeper">Deeper:</span> <ul class="status-list"><li><span class="status-key" title="flag">Flag:</span> Yes</li></ul>',
    );
    expect(html).toContain(
      '<span class="status-key" title="list">List:</span> <ul class="status-list"><li>1</li><li><span class="status-text">two</span></li><li><ul class="status-list"><li><span class="status-key" title="three">Three:</span> 3</li></ul></li></ul>',
    );
    expect(html).toContain('<span class="status-key" title="client_secret">Client secret:</span> ********');
    expect(html).toContain('<span class="status-key" title="accessToken">Access token:</span> ********');
    expect(html).not.toMatch(/abc123|>tok</);
    expect(html).toContain('<span class="status-key" title="tokens_enabled">Tokens enabled:</span> Yes');
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

describe('status screen labels', () => {
  it('shows readable labels, the settings by their own labels, and keeps the keys in the data and in title', async () => {
    const { statusLabel } = await import('../../src/admin/status-labels');
    expect(
      [
        'is_payment_gateway',
        'secrets_encrypted',
        'webhook_url',
        'accessToken',
        'is_live',
        'api-key',
        'retries',
      ].map(statusLabel),
    ).toEqual([
      'Payment gateway',
      'Secrets encrypted at rest',
      'Webhook URL',
      'Access token',
      'Live',
      'API key',
      'Retries',
    ]);
    const html = renderStatusBlocks(
      {
        commerce_acme: {
          is_payment_gateway: true,
          settings: {
            api_key: '********',
            max_retries: 3,
            unlabelled_one: 'x',
            meta: { sales_channel: 'web' },
          },
          secrets_encrypted: false,
          webhook_ok: true,
        },
      },
      [{ id: 'acme', name: 'Acme', settingLabels: { api_key: 'API key', max_retries: 'Retries' } }],
      'commerce',
    );
    expect(html).toContain('<span class="status-key" title="is_payment_gateway">Payment gateway:</span> Yes');
    expect(html).toContain('<span class="status-key" title="max_retries">Retries:</span> 3');
    expect(html).toContain('<span class="status-key" title="unlabelled_one">Unlabelled one:</span>');
    expect(html).toContain(
      '<span class="status-key" title="secrets_encrypted">Secrets encrypted at rest:</span> No',
    );
    expect(html).toContain('<span class="status-key" title="webhook_ok">Webhook OK:</span> Yes');
    expect(html).not.toMatch(/>is_payment_gateway:|>max_retries:/);
    // What a setting's value holds is data: its keys stay as written.
    expect(html).toContain('<span class="status-key" title="sales_channel">sales_channel:</span>');
  });

  it('masks by the key, whatever the label says', () => {
    const html = renderStatusBlocks(
      { commerce_acme: { settings: {}, gateway: { clientSecret: 'cs_live_1' } } },
      [{ id: 'acme', name: 'Acme', settingLabels: {} }],
      'commerce',
    );
    expect(html).toContain('<span class="status-key" title="clientSecret">Client secret:</span> ********');
    expect(html).not.toContain('cs_live_1');
  });
});
