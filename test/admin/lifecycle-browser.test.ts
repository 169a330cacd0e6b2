/**
 * The admin side of the settings lifecycle in Chromium: rules refusing a save, a settings page
 * whose stored schema is newer than the server's, and the history with "Restore to here".
 */
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import {
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type OptionStore,
  type RestServer,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from './support/acme-server';
import { CSRF_SECRET } from './support/acme-settings';
import { ARTIFACTS, browserMissing, CHROMIUM, close, launchSignedIn, listen } from './support/browser';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
    this.registerSetting('title', 'string', { name: 'Title', default: 'Shop Pay' });
    this.registerSetting('api_key', 'string', { name: 'API key', secret: true });
  }
}

/** A plugin over `ShopSettings` with the given id and settings options. */
class ShopPlugin extends Framework_Plugin {
  readonly #settings: ShopSettings;
  constructor(id: string, name: string, store: OptionStore, options: SettingsOptions = {}) {
    super({ id, name, version: '1.0.0' });
    this.#settings = new ShopSettings(id, store, options);
  }
  override getSettingsHandler(): ShopSettings {
    return this.#settings;
  }
}

function pageOf(plugin: ShopPlugin): Framework_Register_Settings {
  return new Framework_Register_Settings(plugin, {
    fields: new Framework_Register_Settings_Fields(plugin.getSettingsHandler()),
  });
}

describe.skipIf(browserMissing && process.env.REQUIRE_SERVICES !== '1')(
  'the settings lifecycle in Chromium',
  () => {
    // `legacy`: its settings were migrated to schema 3 by a newer release; this server runs 2.
    const store = new MemoryOptionStore({
      'framework_legacy:schema': '3',
      framework_legacy_title: 'Set by release 3',
    });
    const shop = new ShopPlugin('shop', 'Shop Pay', store, {
      rules: [
        (values) =>
          values.mode === 'live' && !values.api_key
            ? [{ id: 'api_key', message: 'Live mode needs an API key.' }]
            : [],
      ],
    });
    const legacy = new ShopPlugin('legacy', 'Legacy Pay', store, {
      schemaVersion: 2,
      migrations: [{ version: 2, name: 'nothing to do', up: () => undefined }],
    });
    let rest: RestServer;
    let app: { server: Server; origin: string } | undefined;
    let browser: Awaited<ReturnType<typeof launchSignedIn>> | undefined;
    let page: Page;
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      if (browserMissing)
        throw new Error(
          `${CHROMIUM} is missing but REQUIRE_SERVICES=1: the browser tests may not be skipped`,
        );
      rest = createRestServer({
        plugins: [shop, legacy],
        authenticate,
        admin: { pages: [pageOf(shop), pageOf(legacy)], csrfSecret: CSRF_SECRET },
      });
      app = await listen((request) => rest.fetch(request));
      await mkdir(ARTIFACTS, { recursive: true });
      browser = await launchSignedIn();
      page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.on('console', (message) => {
        // A 4xx answer is logged as a failed load; anything else (a CSP violation…) is a failure.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          consoleErrors.push(message.text());
        }
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.dispose();
      await close(app?.server);
    });

    it('shows a rule’s message at its field and stores nothing', async () => {
      await page.goto(`${app!.origin}/admin/settings/shop`);
      await page.getByLabel('Mode').selectOption('live');
      await page.getByLabel('Title', { exact: true }).fill('Pay live');
      await Promise.all([
        page.waitForLoadState('load'),
        page.getByRole('button', { name: 'Save changes' }).click(),
      ]);
      await page.waitForSelector('.error-summary');
      const key = page.getByLabel('API key');
      await expect(key.getAttribute('aria-invalid')).resolves.toBe('true');
      const error = page.locator('#field-framework_shop_api_key-error');
      await expect(error.textContent()).resolves.toBe('Error: Live mode needs an API key.');
      const [row, message] = await Promise.all([
        page.locator('#field-framework_shop_api_key-row').boundingBox(),
        error.boundingBox(),
      ]);
      expect(message!.y + message!.height).toBeLessThanOrEqual(row!.y + row!.height);
      await expect(page.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('Pay live');
      await expect(page.getByLabel('Mode').inputValue()).resolves.toBe('live');
      await page.screenshot({ path: join(ARTIFACTS, 'admin-settings-rules.png'), fullPage: true });
      expect(await store.get('framework_shop_mode')).toBeUndefined();
      expect(consoleErrors).toEqual([]);
    });

    it('shows settings saved at a newer schema read-only, with the notice and no save button', async () => {
      await page.goto(`${app!.origin}/admin/settings/legacy`);
      await expect(page.getByRole('alert').textContent()).resolves.toBe(
        'These settings were saved by a newer version of the plugin (schema 3; this server runs 2). They can be read here but not changed until this server is updated.',
      );
      await expect(page.getByRole('button', { name: 'Save changes' }).count()).resolves.toBe(0);
      const title = page.getByLabel('Title', { exact: true });
      await expect(title.inputValue()).resolves.toBe('Set by release 3');
      await expect(title.isDisabled()).resolves.toBe(true);
      await expect(page.getByLabel('Mode').isDisabled()).resolves.toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'admin-settings-schema-outdated.png'), fullPage: true });
      expect(consoleErrors).toEqual([]);
    });

    it('opens a field’s history, previews "Restore to here", applies it and says "Restored"', async () => {
      const settings = shop.getSettingsHandler();
      for (const title of ['First title', 'Second title', 'Third title']) {
        await settings.updateValue('title', title, { actor: { id: 1 }, via: 'admin' });
      }
      await page.goto(`${app!.origin}/admin/settings/shop`);
      await Promise.all([
        page.waitForURL(/\/admin\/settings\/shop\/history\?setting=title$/),
        page.getByRole('link', { name: 'History of Title' }).click(),
      ]);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('History of Title');
      const table = page.getByRole('table', { name: 'Changes of Title, newest first' });
      const rows = table.locator('tbody tr');
      await expect(rows.count()).resolves.toBe(3);
      await expect(rows.nth(0).textContent()).resolves.toMatch(/Changed: Second title →( to )? Third title/);
      await expect(rows.nth(0).textContent()).resolves.toContain('User 1');
      await page.screenshot({ path: join(ARTIFACTS, 'admin-history.png'), fullPage: true });

      // Back to the first title: the state right after the oldest change.
      await Promise.all([
        page.waitForURL(/\/admin\/settings\/shop\/restore\?setting=title$/),
        rows
          .nth(2)
          .getByRole('button', { name: /^Restore to here/ })
          .click(),
      ]);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Restore Title');
      const plan = page.getByRole('table', { name: 'What restoring changes' });
      await expect(plan.locator('tbody tr').textContent()).resolves.toMatch(
        /^TitleGlobalThird title →( to )? First title$/,
      );
      await page.screenshot({ path: join(ARTIFACTS, 'admin-restore-preview.png'), fullPage: true });
      expect(await settings.getValue('title')).toBe('Third title');

      await Promise.all([
        page.waitForURL(/\/admin\/settings\/shop\?restored=true$/),
        page.getByRole('button', { name: 'Apply' }).click(),
      ]);
      await expect(page.getByRole('status').textContent()).resolves.toBe('Restored');
      await expect(page.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('First title');
      expect(await settings.getValue('title')).toBe('First title');
      expect(consoleErrors).toEqual([]);
    });
  },
);

if (browserMissing && process.env.REQUIRE_SERVICES === '1') {
  describe('the settings lifecycle in Chromium', () => {
    it('requires Chromium', () => {
      throw new Error(`${CHROMIUM} is missing but REQUIRE_SERVICES=1: the browser tests may not be skipped`);
    });
  });
}
