import { Framework_Abstract_Settings, MemoryOptionStore } from 'commerce-plugin-framework';
import {
  escapeHtml,
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
  verifyCsrfToken,
} from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';
import { ADMIN, acmePage, CSRF_SECRET } from './support/acme-settings';
import { fieldRow, getPage, postForm } from './support/requests';

const EVIL = `<script>alert("x")</script> & 'quoted' "double"`;

class EvilSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('note', 'string', { name: EVIL, description: EVIL, default: EVIL });
    this.registerSetting('choice', 'string', { name: 'Choice', options: [EVIL, 'plain'], default: EVIL });
    this.registerControl('choice', 'select', { options: { [EVIL]: EVIL, plain: 'Plain' } });
    this.registerSetting('picks', 'string', {
      name: 'Picks',
      options: [EVIL, 'b'],
      is_multi: true,
      default: [EVIL],
    });
    this.registerSetting('lines', 'string', { name: 'Lines', is_multi: true, default: [EVIL, 'two'] });
    this.registerSetting('meta', 'object', { name: 'Meta', default: { [EVIL]: EVIL } });
  }
}

function evilPage(name = EVIL) {
  const settings = new EvilSettings('evil', new MemoryOptionStore());
  const plugin = { getId: () => 'evil', getName: () => name };
  return new Framework_Register_Settings(plugin, {
    fields: new Framework_Register_Settings_Fields(settings),
  });
}

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });
});

describe('settings page rendering', () => {
  it('is a complete HTML5 document titled with the plugin name', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const response = await getPage(page);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>Acme Payments settings</title>');
    expect(html).toContain('<h1>Acme Payments</h1>');
    expect(html).toContain('<main id="main">');
    expect(html).not.toMatch(/<script|<link|\sstyle="|src="http/);
  });

  it('escapes names, descriptions, values, option labels and the title everywhere', async () => {
    const html = await (await getPage(evilPage(), '/admin/settings/evil')).text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain(`"double"`);
    expect(html).not.toContain(`'quoted'`);
    const escaped =
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &quot;double&quot;';
    expect(html).toContain(`<title>${escaped} settings</title>`);
    expect(html).toContain(`<h1>${escaped}</h1>`);
    // label, help text and value of the text field
    const note = fieldRow(html, 'framework_evil_note');
    expect(note).toContain(`>${escaped}</label>`);
    expect(note).toContain(`>${escaped}</p>`);
    expect(note).toContain(`value="${escaped}"`);
    // option value and option label of the select
    expect(fieldRow(html, 'framework_evil_choice')).toContain(
      `<option value="${escaped}" selected>${escaped}</option>`,
    );
    // checkbox group value and label
    const picks = fieldRow(html, 'framework_evil_picks');
    expect(picks).toContain(`value="${escaped}" checked>`);
    expect(picks).toContain(`>${escaped}</label>`);
    // text areas (lines and JSON)
    expect(fieldRow(html, 'framework_evil_lines')).toContain(`>${escaped}\ntwo</textarea>`);
    expect(fieldRow(html, 'framework_evil_meta')).toContain('&lt;script&gt;');
  });

  it('escapes errors and submitted values when the form comes back', async () => {
    const page = evilPage('Evil');
    const response = await postForm(
      page,
      { framework_evil_choice: EVIL.replace('x', 'y') },
      { path: '/admin/settings/evil' },
    );
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).not.toContain('<script>');
    expect(fieldRow(html, 'framework_evil_choice')).toContain('&lt;script&gt;alert(&quot;y&quot;)');
  });

  it('renders every control type as its HTML control, named by storage key, with label for and help', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const html = await (await getPage(page)).text();
    const inputs: [string, string][] = [
      ['framework_acme_title', 'text'],
      ['framework_acme_api_key', 'password'],
      ['framework_acme_notify_email', 'email'],
      ['framework_acme_webhook_url', 'text'],
      ['framework_acme_max_retries', 'number'],
      ['framework_acme_fee_percent', 'number'],
      ['framework_acme_priority', 'range'],
      ['framework_acme_launch_date', 'date'],
      ['framework_acme_brand_color', 'color'],
      ['framework_acme_logo', 'file'],
    ];
    for (const [name, type] of inputs) {
      const row = fieldRow(html, name);
      expect(row).toContain(`<label class="field-label" for="field-${name}">`);
      expect(row).toContain(`<input type="${type}" id="field-${name}" name="${name}"`);
    }
    expect(fieldRow(html, 'framework_acme_max_retries')).toContain('step="1"');
    expect(fieldRow(html, 'framework_acme_fee_percent')).toContain('step="any"');
    expect(fieldRow(html, 'framework_acme_priority')).toMatch(/min="0" max="100" step="1"/);
    expect(fieldRow(html, 'framework_acme_brand_color')).toContain('value="#2271b1"');

    const enabled = fieldRow(html, 'framework_acme_enabled');
    expect(enabled).toContain(
      '<input type="checkbox" id="field-framework_acme_enabled" name="framework_acme_enabled" value="yes"',
    );
    expect(enabled).not.toContain(' checked');

    const mode = fieldRow(html, 'framework_acme_mode');
    expect(mode).toContain('<select id="field-framework_acme_mode" name="framework_acme_mode"');
    expect(mode).toContain('<option value="live">Live</option><option value="test" selected>Test</option>');

    const capture = fieldRow(html, 'framework_acme_capture');
    expect(capture).toMatch(/^<fieldset class="field"/);
    expect(capture).toContain(
      '<legend class="field-label" id="field-framework_acme_capture">Capture</legend>',
    );
    expect(capture).toContain(
      'type="radio" id="field-framework_acme_capture-0" name="framework_acme_capture" value="auto" checked>',
    );
    expect(capture).toContain(
      '<label for="field-framework_acme_capture-1">Manually, when the order ships</label>',
    );
    expect(capture).toContain('aria-describedby="field-framework_acme_capture-help"');

    // integer options submit their text
    expect(fieldRow(html, 'framework_acme_log_level')).toContain(
      'value="0" checked><label for="field-framework_acme_log_level-0">Off</label>',
    );

    const instructions = fieldRow(html, 'framework_acme_instructions');
    expect(instructions).toContain(
      '<textarea id="field-framework_acme_instructions" name="framework_acme_instructions"',
    );
    expect(instructions).toContain('aria-describedby="field-framework_acme_instructions-help"');
    expect(instructions).toContain(
      '<p class="field-help" id="field-framework_acme_instructions-help">Printed on the thank-you page.</p>',
    );
  });

  it('gives settings without a control the default control of their type', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const html = await (await getPage(page)).text();
    expect(fieldRow(html, 'framework_acme_enabled')).toContain('type="checkbox"'); // boolean
    expect(fieldRow(html, 'framework_acme_title')).toContain('type="text"'); // string
    expect(fieldRow(html, 'framework_acme_webhook_url')).toContain('type="text"'); // url
    expect(fieldRow(html, 'framework_acme_notify_email')).toContain('type="email"'); // email
    expect(fieldRow(html, 'framework_acme_max_retries')).toContain('type="number"'); // integer
    expect(fieldRow(html, 'framework_acme_fee_percent')).toContain('type="number"'); // float
    expect(fieldRow(html, 'framework_acme_metadata')).toContain(
      '<textarea id="field-framework_acme_metadata" name="framework_acme_metadata" rows="4" class="code"',
    ); // object

    class Optioned extends Framework_Abstract_Settings {
      protected registerSettings(): void {
        this.registerSetting('size', 'integer', { options: [1, 2, 3] });
        this.registerSetting('flag', 'boolean', {});
        this.registerControl('flag', 'select');
      }
    }
    const settings = new Optioned('opt', new MemoryOptionStore());
    const optioned = new Framework_Register_Settings(
      { getId: () => 'opt', getName: () => 'Opt' },
      { fields: new Framework_Register_Settings_Fields(settings) },
    );
    const optHtml = await (await getPage(optioned, '/admin/settings/opt')).text();
    const size = fieldRow(optHtml, 'framework_opt_size');
    expect(size).toContain('<option value="" selected>— Select —</option><option value="1">1</option>');
    expect(size).not.toContain('multiple');
    // a boolean select without options offers Yes / No
    expect(fieldRow(optHtml, 'framework_opt_flag')).toContain(
      '<option value="true">Yes</option><option value="false">No</option>',
    );
    // the label falls back to the setting id
    expect(size).toContain('>size</label>');
  });

  it('renders multi settings as a multi-select, a checkbox group or one value per line', async () => {
    const store = new MemoryOptionStore({
      framework_acme_countries: '["DE","US"]',
      framework_acme_allowed_ips: '["10.0.0.1","10.0.0.2"]',
      framework_acme_retry_delays: '[5,30]',
    });
    const { page } = acmePage(store);
    const html = await (await getPage(page)).text();
    const countries = fieldRow(html, 'framework_acme_countries');
    expect(countries).toMatch(
      /<select id="field-framework_acme_countries" name="framework_acme_countries" multiple size="3"/,
    );
    expect(countries).toContain(
      '<option value="DE" selected>Germany</option><option value="FR">France</option><option value="US" selected>United States</option>',
    );
    const cards = fieldRow(html, 'framework_acme_card_types');
    expect(cards).toMatch(/^<fieldset/);
    expect(cards).toContain(
      'type="checkbox" id="field-framework_acme_card_types-0" name="framework_acme_card_types" value="visa" checked>',
    );
    expect(cards).toContain('name="framework_acme_card_types" value="amex">');
    expect(fieldRow(html, 'framework_acme_allowed_ips')).toContain('>10.0.0.1\n10.0.0.2</textarea>');
    expect(fieldRow(html, 'framework_acme_retry_delays')).toContain('>5\n30</textarea>');
    expect(fieldRow(html, 'framework_acme_retry_delays')).toContain(
      'One value per line; empty lines are ignored.',
    );
  });

  it('never echoes a password, stored or submitted', async () => {
    const store = new MemoryOptionStore({ framework_acme_api_key: 'sk_live_SECRET' });
    const { page } = acmePage(store);
    const html = await (await getPage(page)).text();
    const row = fieldRow(html, 'framework_acme_api_key');
    expect(html).not.toContain('sk_live_SECRET');
    expect(row).not.toContain('value=');
    expect(row).toContain('A value is saved and not shown. Leave the field empty to keep it.');
    expect(row).toContain('autocomplete="new-password"');

    const again = await postForm(page, {
      framework_acme_api_key: 'sk_new_TYPED',
      framework_acme_max_retries: 'many',
    });
    const againHtml = await again.text();
    expect(again.status).toBe(400);
    expect(againHtml).not.toContain('sk_new_TYPED');
    expect(againHtml).not.toContain('sk_live_SECRET');
  });

  it('shows each error next to its field, wired with aria-describedby, and keeps the submitted values', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const response = await postForm(page, {
      framework_acme_title: 'My title',
      framework_acme_webhook_url: 'ftp://example.com',
      framework_acme_max_retries: 'three',
      framework_acme_countries: ['DE', 'XX'],
    });
    const html = await response.text();
    expect(response.status).toBe(400);
    const url = fieldRow(html, 'framework_acme_webhook_url');
    expect(url).toMatch(/^<div class="field field-invalid"/);
    expect(url).toContain('value="ftp://example.com"');
    expect(url).toContain(
      'aria-describedby="field-framework_acme_webhook_url-help field-framework_acme_webhook_url-error" aria-invalid="true"',
    );
    expect(url).toContain(
      '<p class="field-error" id="field-framework_acme_webhook_url-error"><span class="visually-hidden">Error: </span>A URL must start with http:// or https://.</p>',
    );
    expect(fieldRow(html, 'framework_acme_max_retries')).toContain('Enter a whole number, such as 42.');
    expect(fieldRow(html, 'framework_acme_max_retries')).toContain('value="three"');
    expect(fieldRow(html, 'framework_acme_countries')).toContain('“XX” is not one of the offered choices.');
    expect(fieldRow(html, 'framework_acme_title')).toContain('value="My title"');
    expect(fieldRow(html, 'framework_acme_title')).not.toContain('field-error');
    // the summary links to the fields
    expect(html).toContain('The settings were not saved. 3 fields need attention:');
    expect(html).toContain(
      '<a href="#field-framework_acme_webhook_url">Webhook URL</a>: A URL must start with http:// or https://.',
    );
    expect(html).not.toContain('Settings saved');
  });

  it('puts a group’s error inside its fieldset, describing the group', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const html = await (await postForm(page, { framework_acme_capture: 'later' })).text();
    const capture = fieldRow(html, 'framework_acme_capture');
    expect(capture).toMatch(
      /^<fieldset class="field field-invalid" id="field-framework_acme_capture-row" aria-describedby="field-framework_acme_capture-help field-framework_acme_capture-error">/,
    );
    // the error, then the link to the field's history, close the group
    expect(capture).toMatch(
      /“later” is not one of the offered choices\.<\/p><p class="field-history"><a [^>]+>History<span class="visually-hidden"> of Capture<\/span><\/a><\/p><\/div><\/fieldset>/,
    );
    // the summary links to the group's first choice
    expect(html).toContain('<a href="#field-framework_acme_capture-0">Capture</a>');
  });

  it('shows the notice "Settings saved" after the redirect, and only then', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const saved = await (await getPage(page, '/admin/settings/acme?settings-updated=true')).text();
    expect(saved).toContain('<div class="notice" role="status"><p>Settings saved</p></div>');
    expect(await (await getPage(page)).text()).not.toContain('Settings saved');
  });

  it('carries the CSRF token of the user in a hidden _csrf field, posting to the page itself', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const html = await (await getPage(page)).text();
    const token = /<input type="hidden" name="_csrf" value="([^"]+)">/.exec(html)?.[1];
    expect(await verifyCsrfToken(CSRF_SECRET, ADMIN.id, token)).toBe(true);
    expect(html).toContain(
      '<form class="settings-form" method="post" action="../../admin/settings/acme" enctype="application/x-www-form-urlencoded"',
    );
  });

  it('offers the form alone for hosts that embed it', async () => {
    const { page } = acmePage(new MemoryOptionStore());
    const form = await page.renderForm({ csrfToken: 'tok&en', action: '/wp-admin/acme' });
    expect(form.startsWith('<form class="settings-form" method="post" action="/wp-admin/acme"')).toBe(true);
    expect(form.trimEnd().endsWith('</form>')).toBe(true);
    expect(form).toContain('name="_csrf" value="tok&amp;en"');
    expect(form).not.toContain('<html');
  });

  it('says so when a plugin has no settings', async () => {
    class Empty extends Framework_Abstract_Settings {
      protected registerSettings(): void {}
    }
    const page = new Framework_Register_Settings(
      { getId: () => 'empty', getName: () => 'Empty' },
      { fields: new Framework_Register_Settings_Fields(new Empty('empty', new MemoryOptionStore())) },
    );
    const html = await (await getPage(page, '/admin/settings/empty')).text();
    expect(html).toContain('This plugin has no settings.');
    expect(html).not.toContain('<form');
  });
});
