/**
 * The history view of a setting at a level (newest first, 20 a page), and "Restore to here": a
 * CSRF-protected preview of `planRestore`, then "Apply" (the server plans again and applies only
 * the previewed plan), back to the settings page with "Restored".
 */
import { createAesGcmCipher, MemoryOptionStore, type OptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ADMIN, adminContext } from './support/acme-settings';
import { fieldRow, getPage, ORIGIN, postForm } from './support/requests';
import { type ShopSettings, shopPage } from './support/shop-settings';

const BY_ADMIN = { actor: { id: 7 }, via: 'admin' } as const;
const HISTORY = '/admin/settings/shop/history';
const RESTORE = '/admin/settings/shop/restore';

/** The table rows of a history page. */
function rows(html: string): string[] {
  return [...html.matchAll(/<tr><td><time[\s\S]*?<\/tr>/g)].map((match) => match[0]);
}

/** The id of the entry of `settingId` that left `value` (newest first). */
async function entryLeaving(settings: ShopSettings, settingId: string, value: unknown): Promise<string> {
  const entry = (await settings.getHistory({ settingId })).find((candidate) => candidate.new === value);
  if (!entry) throw new Error(`no entry left ${String(value)}`);
  return entry.id;
}

/** Three titles in a row: A, B, C (C is stored). */
async function titled(settings: ShopSettings): Promise<void> {
  for (const title of ['A', 'B', 'C']) await settings.updateValue('title', title, BY_ADMIN);
}

describe('admin history view', () => {
  it('is linked from every field of the settings page, for the page’s level', async () => {
    const { page } = shopPage();
    const global = await (await getPage(page, '/admin/settings/shop')).text();
    expect(fieldRow(global, 'framework_shop_title')).toContain(
      '<p class="field-history"><a href="../../admin/settings/shop/history?setting=title">History<span class="visually-hidden"> of Title</span></a></p>',
    );
    const scoped = await (await getPage(page, '/admin/settings/shop?scope=eu/de')).text();
    expect(fieldRow(scoped, 'framework_shop_retries')).toContain(
      'href="../../admin/settings/shop/history?setting=retries&amp;scope=eu%2Fde"',
    );
  });

  it('has no links on a store that keeps no history', async () => {
    const memory = new MemoryOptionStore();
    const plain: OptionStore = {
      get: (key) => memory.get(key),
      getMany: (keys) => memory.getMany(keys),
      set: (key, value) => memory.set(key, value),
      delete: (key) => memory.delete(key),
    };
    const { page } = shopPage({}, plain);
    expect(await (await getPage(page, '/admin/settings/shop')).text()).not.toContain('class="field-history"');
    expect((await getPage(page, `${HISTORY}?setting=title`)).status).toBe(501);
  });

  it('lists the entries newest first, 20 a page: time, old → new, who, through what', async () => {
    const { settings, page } = shopPage();
    for (let retries = 1; retries <= 25; retries++) await settings.updateValue('retries', retries, BY_ADMIN);
    await settings.updateValue('title', 'Not a retry');
    const first = await getPage(page, `${HISTORY}?setting=retries`);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('<h1>History of Retries</h1>');
    expect(html).toContain('<caption class="visually-hidden">Changes of Retries, newest first</caption>');
    const listed = rows(html);
    expect(listed).toHaveLength(20);
    expect(listed[0]).toMatch(
      /^<tr><td><time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC<\/time><\/td><td><span class="history-action">Changed:<\/span> <span class="history-value">24<\/span> <span aria-hidden="true">→<\/span><span class="visually-hidden"> to <\/span> <span class="history-value">25<\/span><\/td><td>User 7<\/td><td>Settings page<\/td>/,
    );
    expect(listed[19]).toContain('<span class="history-value">5</span>');
    expect(html).toContain('Page 1 of 2');
    expect(html).toContain(
      'href="../../../admin/settings/shop/history?setting=retries&amp;page=2" rel="next">Older changes</a>',
    );

    const second = await (await getPage(page, `${HISTORY}?setting=retries&page=2`)).text();
    const older = rows(second);
    expect(older).toHaveLength(5);
    expect(older[4]).toContain('<span class="status-empty">Not set</span>');
    expect(second).toContain('rel="prev">Newer changes</a>');
    expect((await getPage(page, `${HISTORY}?setting=retries&page=3`)).status).toBe(404);
    expect((await getPage(page, `${HISTORY}?setting=retries&page=0`)).status).toBe(400);
  });

  it('shows a scope’s own history only, and secrets masked as they come', async () => {
    const { settings, page } = shopPage();
    await settings.updateValue('api_key', 'sk_live_first_0123');
    await settings.updateValue('api_key', 'sk_live_second_4567');
    await settings.scope('eu').updateValue('retries', 8);
    const html = await (await getPage(page, `${HISTORY}?setting=api_key`)).text();
    expect(rows(html)).toHaveLength(2);
    expect(html).toContain('<span class="history-value">********</span>');
    expect(html).not.toContain('sk_live');
    expect(rows(await (await getPage(page, `${HISTORY}?setting=retries`)).text())).toHaveLength(0);
    expect(rows(await (await getPage(page, `${HISTORY}?setting=retries&scope=eu`)).text())).toHaveLength(1);
  });

  it('applies the settings page’s checks: capability, scope path, canAccessScope, scopeExists, the setting', async () => {
    const { page } = shopPage({ scopeExists: (path) => path === 'eu' });
    const customer = adminContext({ user: { id: 2, capabilities: ['read'] } });
    expect((await getPage(page, `${HISTORY}?setting=title`, customer)).status).toBe(403);
    expect((await getPage(page, `${HISTORY}?setting=title`, adminContext({ user: null }))).status).toBe(401);
    expect((await getPage(page, `${HISTORY}?setting=title&scope=../x`)).status).toBe(400);
    const noEu = adminContext({ canAccessScope: (_user, scope) => scope !== 'eu' });
    expect((await getPage(page, `${HISTORY}?setting=title&scope=eu`, noEu)).status).toBe(403);
    expect((await getPage(page, `${HISTORY}?setting=title`, noEu)).status).toBe(200);
    const unknownScope = await getPage(page, `${HISTORY}?setting=title&scope=us`);
    expect(unknownScope.status).toBe(404);
    expect(await unknownScope.text()).toContain('These settings have no scope “us”.');
    expect((await getPage(page, `${HISTORY}?setting=nope`)).status).toBe(404);
    expect((await getPage(page, HISTORY)).status).toBe(404);
  });
});

describe('admin "Restore to here"', () => {
  it('offers it on every entry as a CSRF-protected post', async () => {
    const { settings, page } = shopPage();
    await titled(settings);
    const html = await (await getPage(page, `${HISTORY}?setting=title`)).text();
    const forms = [
      ...html.matchAll(
        /<form class="history-restore" method="post" action="([^"]+)"[^>]*><input type="hidden" name="_csrf" value="[^"]+"><input type="hidden" name="entry" value="([^"]+)">/g,
      ),
    ];
    expect(forms).toHaveLength(3);
    expect(forms[0]![1]).toBe('../../../admin/settings/shop/restore?setting=title');
    expect(forms.map((form) => form[2])).toEqual(
      (await settings.getHistory({ settingId: 'title' })).map((entry) => entry.id),
    );
  });

  it('previews the plan, then applies it: 303 back to the settings page, which says "Restored"', async () => {
    const { settings, page } = shopPage();
    await titled(settings);
    const entry = await entryLeaving(settings, 'title', 'A');
    const preview = await postForm(page, { entry }, { path: `${RESTORE}?setting=title` });
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain('<h1>Restore Title</h1>');
    expect(html).toMatch(
      /<tr><td>Title<\/td><td>Global<\/td><td><span class="history-value">C<\/span> .*<span class="history-value">A<\/span><\/td><\/tr>/,
    );
    const planId = /<input type="hidden" name="plan" value="([^"]+)">/.exec(html)?.[1];
    const plan = await settings.planRestore({ to: entry, scope: null, settingIds: ['title'] });
    expect(planId).toBe(plan.id);
    expect(html).toContain('<button type="submit" class="button-primary">Apply</button>');
    expect(await settings.getValue('title')).toBe('C'); // a preview stores nothing

    const applied = await postForm(page, { entry, plan: planId! }, { path: `${RESTORE}?setting=title` });
    expect(applied.status).toBe(303);
    expect(applied.headers.get('location')).toBe('../../../admin/settings/shop?restored=true');
    expect(new URL(applied.headers.get('location')!, `${ORIGIN}${RESTORE}`).pathname).toBe(
      '/admin/settings/shop',
    );
    expect(await settings.getValue('title')).toBe('A');
    const [latest] = await settings.getHistory({ settingId: 'title' });
    expect(latest).toMatchObject({ old: 'C', new: 'A', actor: { id: ADMIN.id }, via: 'import' });
    const settingsHtml = await (await getPage(page, '/admin/settings/shop?restored=true')).text();
    expect(settingsHtml).toContain('<div class="notice" role="status"><p>Restored</p></div>');
  });

  it('restores at a scope, back to that scope’s page', async () => {
    const { settings, page } = shopPage();
    const eu = settings.scope('eu');
    await eu.updateValue('retries', 4);
    await eu.updateValue('retries', 6);
    const entry = await entryLeavingAt(settings, 'eu', 'retries', 4);
    const preview = await (
      await postForm(page, { entry }, { path: `${RESTORE}?setting=retries&scope=eu` })
    ).text();
    expect(preview).toContain('<td>Scope eu</td>');
    const plan = /name="plan" value="([^"]+)"/.exec(preview)![1]!;
    const applied = await postForm(page, { entry, plan }, { path: `${RESTORE}?setting=retries&scope=eu` });
    expect(applied.headers.get('location')).toBe('../../../admin/settings/shop?scope=eu&restored=true');
    expect(await eu.getOwnValue('retries')).toBe(4);
    expect(await settings.getValue('retries')).toBe(3);
  });

  it('applies nothing when the settings changed since the preview, and shows the fresh plan (412)', async () => {
    const { settings, page } = shopPage();
    await titled(settings);
    const entry = await entryLeaving(settings, 'title', 'A');
    const preview = await (await postForm(page, { entry }, { path: `${RESTORE}?setting=title` })).text();
    const previewed = /name="plan" value="([^"]+)"/.exec(preview)![1]!;
    await settings.updateValue('title', 'D'); // another admin, meanwhile
    const response = await postForm(page, { entry, plan: previewed }, { path: `${RESTORE}?setting=title` });
    expect(response.status).toBe(412);
    const html = await response.text();
    expect(html).toContain('The settings changed since the preview, so nothing was restored.');
    expect(html).toMatch(/<span class="history-value">D<\/span> .*<span class="history-value">A<\/span>/);
    const fresh = /name="plan" value="([^"]+)"/.exec(html)![1]!;
    expect(fresh).not.toBe(previewed);
    expect(await settings.getValue('title')).toBe('D');
    expect((await postForm(page, { entry, plan: fresh }, { path: `${RESTORE}?setting=title` })).status).toBe(
      303,
    );
    expect(await settings.getValue('title')).toBe('A');
  });

  it('refuses a post without a valid token (403) and a GET (405), restoring nothing', async () => {
    const { settings, page } = shopPage();
    await titled(settings);
    const entry = await entryLeaving(settings, 'title', 'A');
    const plan = (await settings.planRestore({ to: entry, scope: null, settingIds: ['title'] })).id;
    const path = `${RESTORE}?setting=title`;
    expect((await postForm(page, { entry, plan }, { path, withToken: false })).status).toBe(403);
    expect((await postForm(page, { entry, plan, _csrf: '1.forged' }, { path })).status).toBe(403);
    const get = await getPage(page, `${RESTORE}?setting=title`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await settings.getValue('title')).toBe('C');
  });

  it('checks the level like the settings page: canAccessScope (403), an unknown entry (404)', async () => {
    const { settings, page } = shopPage();
    await settings.scope('eu').updateValue('retries', 4);
    const entry = await entryLeavingAt(settings, 'eu', 'retries', 4);
    const noEu = adminContext({ canAccessScope: (_user, scope) => scope !== 'eu' });
    const denied = await postForm(
      page,
      { entry },
      { path: `${RESTORE}?setting=retries&scope=eu`, context: noEu },
    );
    expect(denied.status).toBe(403);
    const unknown = await postForm(
      page,
      { entry: 'no-such-entry' },
      { path: `${RESTORE}?setting=retries&scope=eu` },
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('The history has no such entry');
  });

  it('shows the plan’s errors (a secret without a cipher, a rule) and offers no Apply, never a secret', async () => {
    const { settings, page } = shopPage({
      rules: [
        (values) =>
          values.title === 'A' && (values.retries as number) > 5
            ? [{ id: 'title', message: 'Title A allows at most 5 retries.' }]
            : [],
      ],
    });
    await settings.updateValue('api_key', 'sk_live_first_0123');
    await settings.updateValue('api_key', 'sk_live_second_4567');
    // the oldest entry: the first key (restoring it needs a cipher to unseal it)
    const keyEntry = (await settings.getHistory({ settingId: 'api_key' })).at(-1)!.id;
    const secret = await postForm(page, { entry: keyEntry }, { path: `${RESTORE}?setting=api_key` });
    const secretHtml = await secret.text();
    expect(secretHtml).toContain('This restore cannot be applied:');
    expect(secretHtml).toMatch(/<li>API key: [^<]+<\/li>/);
    expect(secretHtml).not.toContain('name="plan"');
    expect(secretHtml).not.toContain('sk_live');

    await titled(settings);
    await settings.updateValue('retries', 9);
    const entry = await entryLeaving(settings, 'title', 'A');
    const ruled = await (await postForm(page, { entry }, { path: `${RESTORE}?setting=title` })).text();
    expect(ruled).toContain('<li>Title: Title A allows at most 5 retries.</li>');
    expect(ruled).not.toContain('name="plan"');
    // an Apply posted anyway applies nothing
    const plan = (await settings.planRestore({ to: entry, scope: null, settingIds: ['title'] })).id;
    expect((await postForm(page, { entry, plan }, { path: `${RESTORE}?setting=title` })).status).toBe(400);
    expect(await settings.getValue('title')).toBe('C');
  });

  it('restores a secret with a cipher, showing it masked only', async () => {
    const key = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));
    const { settings, page } = shopPage({ secrets: createAesGcmCipher([{ id: 'k1', key }]) });
    await settings.updateValue('api_key', 'sk_live_first_0123');
    await settings.updateValue('api_key', 'sk_live_second_4567');
    const entry = (await settings.getHistory({ settingId: 'api_key' })).at(-1)!.id;
    const path = `${RESTORE}?setting=api_key`;
    const preview = await (await postForm(page, { entry }, { path })).text();
    expect(preview).toMatch(
      /<td>API key<\/td><td>Global<\/td><td><span class="history-value">\*{8}<\/span> .*<span class="history-value">\*{8}<\/span><\/td>/,
    );
    expect(preview).not.toContain('sk_live');
    const plan = /name="plan" value="([^"]+)"/.exec(preview)![1]!;
    expect((await postForm(page, { entry, plan }, { path })).status).toBe(303);
    expect(await settings.getValue('api_key')).toBe('sk_live_first_0123');
  });

  it('offers no restore while the stored schema is newer, and answers a restore with 409', async () => {
    const store = new MemoryOptionStore();
    const { settings } = shopPage({}, store);
    await titled(settings);
    const entry = await entryLeaving(settings, 'title', 'A');
    await store.set('framework_shop:schema', '2'); // a newer release migrated them
    const { page } = shopPage({}, store);
    const html = await (await getPage(page, `${HISTORY}?setting=title`)).text();
    expect(html).toContain(
      'These settings were saved by a newer version of the plugin (schema 2; this server runs 1).',
    );
    expect(rows(html)).toHaveLength(3);
    expect(html).not.toContain('Restore to here');
    const response = await postForm(page, { entry }, { path: `${RESTORE}?setting=title` });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(
      'Nothing was restored. These settings were saved by a newer version',
    );
    expect(await store.get('framework_shop_title')).toBe('C');
  });
});

/** The id of the entry of `settingId` at `scope` that left `value`. */
async function entryLeavingAt(settings: ShopSettings, scope: string, settingId: string, value: unknown) {
  const entry = (await settings.scope(scope).getHistory({ settingId })).find(
    (candidate) => candidate.new === value,
  );
  if (!entry) throw new Error(`no entry left ${String(value)} at ${scope}`);
  return entry.id;
}
