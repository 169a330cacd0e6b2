/**
 * The admin pages in a real browser: Debian's Chromium driven by playwright-core, against the
 * REST server on a real node:http listener. Screenshots go to test-artifacts/.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { MemoryOptionStore, type RestServer } from 'commerce-plugin-framework';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BEARER, ADMIN_SESSION, acmeServer, SESSION_COOKIE } from './support/acme-server';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A minimal node:http → Fetch bridge for this test (the `/node` adapter is tested on its own). */
function listen(
  handler: (request: Request) => Promise<Response>,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const origin = `http://${incoming.headers.host ?? '127.0.0.1'}`;
    const headers = new Headers();
    for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
      headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
    }
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const request = new Request(new URL(incoming.url ?? '/', origin), {
      method: incoming.method,
      headers,
      body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
    } as RequestInit);
    handler(request)
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        const reader = response.body?.getReader();
        for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
          outgoing.write(chunk.value);
        }
        outgoing.end();
      })
      .catch(() => {
        outgoing.writeHead(500).end();
      });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

const browserMissing = !existsSync(CHROMIUM);
if (browserMissing && process.env.REQUIRE_SERVICES !== '1') {
  console.log(`[skip] admin browser tests: ${CHROMIUM} is missing (apt-get install chromium to run them)`);
}

describe.skipIf(browserMissing && process.env.REQUIRE_SERVICES !== '1')('admin pages in Chromium', () => {
  const store = new MemoryOptionStore();
  let rest: RestServer;
  let app: { server: Server; origin: string } | undefined;
  let attacker: { server: Server; origin: string } | undefined;
  let userDataDir = '';
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
    userDataDir = await mkdtemp(join(tmpdir(), 'admin-browser-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1100, height: 900 },
    });
    await context.addCookies([
      {
        name: SESSION_COOKIE,
        value: ADMIN_SESSION,
        domain: '127.0.0.1',
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await close(app?.server);
    await close(attacker?.server);
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
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
    await expect(acme.textContent()).resolves.toContain('is_payment_gateway: Yes');
    await expect(acme.textContent()).resolves.toContain('api_key: ********');
    expect(await page.content()).not.toContain('sk_live_browser');
    await expect(page.getByRole('region', { name: 'Bare Plugin' }).textContent()).resolves.toContain(
      'is_payment_gateway: No',
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
