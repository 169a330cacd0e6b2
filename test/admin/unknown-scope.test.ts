/**
 * Known scopes (CONTRACT, third round): with the settings' `scopeExists` refusing the page's
 * `?scope=`, the settings page answers 404 with an error message, GET and POST, storing nothing.
 */
import { describe, expect, it } from 'vitest';
import { adminContext } from './support/acme-settings';
import { getPage, postForm } from './support/requests';
import { shopPage as makeShopPage } from './support/shop-settings';

/** The shop's page whose settings know the scopes `eu` and `eu/de` only, and the paths asked. */
function shopPage() {
  const asked: string[] = [];
  const scopeExists = async (path: string) => {
    asked.push(path);
    return path === 'eu' || path === 'eu/de';
  };
  return { ...makeShopPage({ scopeExists }), asked };
}

describe('admin page: a scope the settings do not know', () => {
  it('answers GET with 404 and a message naming the scope', async () => {
    const { page } = shopPage();
    const response = await getPage(page, '/admin/settings/shop?scope=us/ca');
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<h1>Unknown scope</h1>');
    expect(html).toContain('These settings have no scope “us/ca”.');
    expect(html).not.toContain('<form class="settings-form"');
    expect((await getPage(page, '/admin/settings/shop?scope=eu/de')).status).toBe(200);
  });

  it('answers POST with 404 and stores nothing', async () => {
    const { store, settings, page } = shopPage();
    const response = await postForm(
      page,
      { framework_shop_title: 'Hello Canada' },
      { path: '/admin/settings/shop?scope=us/ca' },
    );
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('These settings have no scope “us/ca”. Nothing was saved.');
    expect(await store.get('framework_shop_title@us/ca')).toBeUndefined();
    expect(await settings.getHistory()).toEqual([]);
  });

  it('asks only after canAccessScope (403 first), and never for the global level', async () => {
    const { page, asked } = shopPage();
    const denied = adminContext({ canAccessScope: () => false });
    expect((await getPage(page, '/admin/settings/shop?scope=us', denied)).status).toBe(403);
    expect((await getPage(page, '/admin/settings/shop')).status).toBe(200);
    expect(asked).toEqual([]);
  });
});
