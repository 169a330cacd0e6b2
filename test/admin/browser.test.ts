/**
 * The admin pages in a real browser: Debian's Chromium driven by playwright-core, against the
 * REST server on a real node:http listener. Screenshots go to test-artifacts/.
 */
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { MemoryOptionStore, type RestServer } from 'commerce-plugin-framework';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BEARER, acmeServer } from './support/acme-server';
import { ARTIFACTS, browserMissing, CHROMIUM, close, launchSignedIn, listen } from './support/browser';

if (browserMissing && process.env.REQUIRE_SERVICES !== '1') {
  console.log(`[skip] admin browser tests: ${CHROMIUM} is missing (apt-get install chromium to run them)`);
}

describe.skipIf(browserMissing && process.env.REQUIRE_SERVICES !== '1')('admin pages in Chromium', () => {
  const store = new MemoryOptionStore();
  let rest: RestServer;
  let app: { server: Server; origin: string } | undefined;
  let attacker: { server: Server; origin: string } | undefined;
  let browser: Awaited<ReturnType<typeof launchSignedIn>> | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  const consoleErrors: string[] = [];

  async function restValues(): Promise<Record<string, unknown>> {
    const response = await fetch(`${app!.origin}/api/commerce/v3/acme/settings`, {
      headers: { authorization: `Bearer ${ADMIN_BEARER}` },
    });
    expect(response.status).toBe(200);
    const list = (await response.json()) as { id: string; value: unknown }[];
    return Object.fromEntries(list.map((setting) => [setting.id, setting.value]));
  }

  const settingsUrl = () => `${app!.origin}/admin/settings/acme`;

  beforeAll(async () => {
    if (browserMissing)
      throw new Error(`${CHROMIUM} is missing but REQUIRE_SERVICES=1: the browser tests may not be skipped`);
    rest = acmeServer(store);
    app = await listen((request) => rest.fetch(request));
    // Another origin serving a page with a form that posts to the settings page without a token.
    attacker = await listen(async () => {
      const html = `<!DOCTYPE html><html lang="en"><head><title>Win a prize</title></head><body>
<form method="post" action="${settingsUrl()}"><input type="hidden" name="framework_acme_enabled" value="yes">
<input type="hidden" name="framework_acme_webhook_url" value="https://evil.example/steal"><button>Claim</button></form></body></html>`;
      return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    });
    await mkdir(ARTIFACTS, { recursive: true });
    browser = await launchSignedIn();
    context = browser.context;
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.dispose();
    await close(app?.server);
    await close(attacker?.server);
  });

  it('fills every kind of field, saves, shows "Settings saved", and REST reads the values', async () => {
    await page.goto(settingsUrl());
    await expect(page.title()).resolves.toBe('Acme Payments settings');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Payments');

    await page.getByLabel('Enable Acme Pay').check();
    await page.getByLabel('Title', { exact: true }).fill('Pay with Acme');
    await page.getByLabel('API key').fill('sk_live_browser');
    await page.getByLabel('Notification email').fill('alerts@shop.example');
    await page.getByLabel('Webhook URL').fill('https://shop.example/hooks/acme');
    await page.getByLabel('Retries').fill('5');
    await page.getByLabel('Fee (%)').fill('1.25');
    await page.getByLabel('Priority').fill('70');
    await page.getByLabel('Mode').selectOption('live');
    await page.getByRole('group', { name: 'Capture' }).getByLabel('Manually, when the order ships').check();
    await page.getByRole('group', { name: 'Logging' }).getByLabel('Everything').check();
    await page.getByLabel('Launch date').fill('2025-03-01');
    await page.getByLabel('Button colour').fill('#ff8800');
    await page
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('png') });
    await page.getByLabel('Instructions').fill('Thank you!\nSee you soon.');
    await page.getByLabel('Countries').selectOption(['DE', 'US']);
    const cards = page.getByRole('group', { name: 'Card types' });
    await cards.getByLabel('visa').uncheck();
    await cards.getByLabel('mastercard').check();
    await cards.getByLabel('amex').check();
    await page.getByLabel('Allowed IPs').fill('10.0.0.1\n\n10.0.0.2');
    await page.getByLabel('Retry delays').fill('5\n30\n300');
    await page.getByLabel('Metadata').fill('{"channel": "web", "tags": ["a", 1]}');

    await Promise.all([
      page.waitForURL(/settings-updated=true$/),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Settings saved');
    await page.screenshot({ path: join(ARTIFACTS, 'admin-settings.png'), fullPage: true });

    expect(await restValues()).toEqual({
      enabled: true,
      title: 'Pay with Acme',
      api_key: '********', // a secret: masked over REST, stored as typed

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
      card_types: ['mastercard', 'amex'],
      allowed_ips: ['10.0.0.1', '10.0.0.2'],
      retry_delays: [5, 30, 300],
      metadata: { channel: 'web', tags: ['a', 1] },
    });

    expect(await store.get('framework_acme_api_key')).toBe('sk_live_browser');

    // The page shows the saved values again, except the password.
    await expect(page.getByLabel('Enable Acme Pay').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Retries').inputValue()).resolves.toBe('5');
    await expect(page.getByLabel('API key').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain('sk_live_browser');
  });

  it('lays the form out tidily: labels and controls in two aligned columns, styles allowed by the CSP', async () => {
    await page.goto(settingsUrl());
    const labelLefts = await page
      .locator('.field-label')
      .evaluateAll((labels) => labels.map((label) => Math.round(label.getBoundingClientRect().left)));
    const controlLefts = await page
      .locator('.field-input')
      .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().left)));
    expect(labelLefts.length).toBe(20);
    expect(new Set(labelLefts).size).toBe(1);
    expect(new Set(controlLefts).size).toBe(1);
    expect(controlLefts[0]!).toBeGreaterThan(labelLefts[0]! + 100);
    const button = page.getByRole('button', { name: 'Save changes' });
    expect(await button.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      'rgb(34, 113, 177)',
    );
    await expect(page.getByText('What shoppers see at checkout.').isVisible()).resolves.toBe(true);
    // The scope box's "Show" button is styled as a secondary button, as tall as its text field.
    const show = page.getByRole('button', { name: 'Show' });
    const showStyle = await show.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        border: style.borderTopColor,
        color: style.color,
        weight: style.fontWeight,
        radius: style.borderTopLeftRadius,
      };
    });
    expect(showStyle).toEqual({
      border: 'rgb(34, 113, 177)',
      color: 'rgb(34, 113, 177)',
      weight: '600',
      radius: '4px',
    });
    const [showBox, scopeBox] = await Promise.all([
      show.boundingBox(),
      page.getByLabel('Scope').boundingBox(),
    ]);
    expect(Math.abs(showBox!.height - scopeBox!.height)).toBeLessThanOrEqual(4);
    expect(consoleErrors).toEqual([]);
  });

  it('shows an invalid value’s error next to its field and saves nothing', async () => {
    const before = await restValues();
    await page.goto(settingsUrl());
    await page.getByLabel('Title', { exact: true }).fill('Changed title');
    await page.getByLabel('Webhook URL').fill('not a url');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    await page.waitForSelector('.error-summary');

    const url = page.getByLabel('Webhook URL');
    await expect(url.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(url.inputValue()).resolves.toBe('not a url');
    const error = page.locator('#field-framework_acme_webhook_url-error');
    await expect(error.isVisible()).resolves.toBe(true);
    await expect(error.textContent()).resolves.toBe(
      'Error: A URL must not contain white space or control characters.',
    );
    // the error sits in the field's row, under its control
    const [row, input, message] = await Promise.all([
      page.locator('#field-framework_acme_webhook_url-row').boundingBox(),
      url.boundingBox(),
      error.boundingBox(),
    ]);
    expect(message!.y).toBeGreaterThan(input!.y);
    expect(message!.y + message!.height).toBeLessThanOrEqual(row!.y + row!.height);
    await expect(page.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('Changed title');
    await expect(page.getByRole('status').count()).resolves.toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'admin-settings-error.png'), fullPage: true });

    expect(await restValues()).toEqual(before);
  });

  it('edits a scope: shows where each value comes from, stores what is unticked, inherits what is ticked', async () => {
    await store.set('framework_acme_max_retries', '4');
    await page.goto(`${settingsUrl()}?scope=eu/de`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Acme Payments');
    const retriesRow = page.locator('#field-framework_acme_max_retries-row');
    await expect(retriesRow.getByLabel('Use parent value').isChecked()).resolves.toBe(true);
    await expect(retriesRow.textContent()).resolves.toContain('(the global value)');
    await expect(page.getByLabel('Retries').inputValue()).resolves.toBe('4');

    // Override the retries at eu/de: untick, type, save.
    await retriesRow.getByLabel('Use parent value').uncheck();
    await page.getByLabel('Retries').fill('9');
    await Promise.all([
      page.waitForURL(/scope=eu%2Fde&settings-updated=true$/),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Settings saved');
    expect(await store.get('framework_acme_max_retries@eu/de')).toBe('9');
    expect(await store.get('framework_acme_max_retries')).toBe('4');
    await expect(retriesRow.getByLabel('Use parent value').isChecked()).resolves.toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'admin-settings-scope.png'), fullPage: true });

    // Tick it again: the scope inherits the global value once more.
    await retriesRow.getByLabel('Use parent value').check();
    await Promise.all([
      page.waitForURL(/settings-updated=true$/),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(await store.get('framework_acme_max_retries@eu/de')).toBeUndefined();
    await expect(page.getByLabel('Retries').inputValue()).resolves.toBe('4');
  });

  it('on a scope, saves an untouched form as it is, and refuses a field typed into while "Use parent value" is ticked', async () => {
    await page.goto(`${settingsUrl()}?scope=us`);
    // Every field inherits; the browser sends what it shows (a colour, a range's middle…): no change.
    await Promise.all([
      page.waitForURL(/scope=us&settings-updated=true$/),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Settings saved');
    expect(await store.get('framework_acme_title@us')).toBeUndefined();

    const titleRow = page.locator('#field-framework_acme_title-row');
    await expect(titleRow.getByLabel('Use parent value').isChecked()).resolves.toBe(true);
    await page.getByLabel('Title', { exact: true }).fill('Pay in the US');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    await page.waitForSelector('.error-summary');
    await expect(page.locator('#field-framework_acme_title-error').textContent()).resolves.toContain(
      'this field was changed while “Use parent value” was ticked',
    );
    await expect(titleRow.getByLabel('Use parent value').isChecked()).resolves.toBe(false);
    await expect(page.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('Pay in the US');
    expect(await store.get('framework_acme_title@us')).toBeUndefined();

    await Promise.all([
      page.waitForURL(/scope=us&settings-updated=true$/),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(await store.get('framework_acme_title@us')).toBe('Pay in the US');
  });

  it('refuses a forged post (403): from another site by its origin, from a script by its missing token', async () => {
    const before = await restValues();
    await page.goto(attacker!.origin);
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === settingsUrl()),
      page.getByRole('button', { name: 'Claim' }).click(),
    ]);
    expect(response.status()).toBe(403);
    // The browser says where the post comes from (Sec-Fetch-Site, Origin): refused before the form is read.
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Request refused');

    const scripted = await context!.request.post(settingsUrl(), {
      form: { framework_acme_enabled: 'yes', framework_acme_title: 'Hacked' },
      maxRedirects: 0,
    });
    expect(scripted.status()).toBe(403);
    expect(await restValues()).toEqual(before);
  });

  it('shows the status screen: every plugin under its name, readable values, secrets masked', async () => {
    await page.goto(`${app!.origin}/admin/status`);
    await expect(page.title()).resolves.toBe('System status');
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(headings).toEqual(['Acme Payments', 'Bare Plugin']);
    const acme = page.getByRole('region', { name: 'Acme Payments' });
    await expect(acme.textContent()).resolves.toContain('Payment gateway: Yes');
    await expect(acme.textContent()).resolves.toContain('API key: ********');
    expect(await page.content()).not.toContain('sk_live_browser');
    await expect(page.getByRole('region', { name: 'Bare Plugin' }).textContent()).resolves.toContain(
      'Payment gateway: No',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'admin-status.png'), fullPage: true });
  });
});

if (browserMissing && process.env.REQUIRE_SERVICES === '1') {
  describe('admin pages in Chromium', () => {
    it('requires Chromium', () => {
      throw new Error(`${CHROMIUM} is missing but REQUIRE_SERVICES=1: the browser tests may not be skipped`);
    });
  });
}
