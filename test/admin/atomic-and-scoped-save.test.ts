import {
  Framework_Abstract_Settings,
  MemoryOptionStore,
  type OptionStore,
  type StoreCommit,
} from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';
import { ADMIN, acmePage, adminContext } from './support/acme-settings';
import { fieldRow, getPage, postForm } from './support/requests';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { name: 'Title', default: 'Shop' });
    this.registerSetting('retries', 'integer', { name: 'Retries', default: 3 });
    this.registerSetting('api_key', 'string', { name: 'API key', secret: true });
  }
}

/** A memory store that counts its calls. */
function countingStore(initial: Record<string, string> = {}) {
  const inner = new MemoryOptionStore(initial);
  const counts = { getMany: 0, commit: 0, set: 0 };
  const store: OptionStore = {
    get: (key) => inner.get(key),
    getMany: (keys) => {
      counts.getMany++;
      return inner.getMany(keys);
    },
    set: (key, value) => {
      counts.set++;
      return inner.set(key, value);
    },
    delete: (key) => inner.delete(key),
    commit: (commit: StoreCommit) => {
      counts.commit++;
      return inner.commit(commit);
    },
    readLog: (log, limit) => inner.readLog(log, limit),
    listKeys: (prefix) => inner.listKeys(prefix),
  };
  return { inner, store, counts };
}

function shopPage(store: OptionStore) {
  const settings = new ShopSettings('acme', store);
  const page = new Framework_Register_Settings(
    { getId: () => 'acme', getName: () => 'Acme Payments' },
    { fields: new Framework_Register_Settings_Fields(settings) },
  );
  return { settings, page };
}

/** The digests a scope's page posts beside its ticked "Use parent value" boxes. */
function inheritShown(html: string): string[] {
  return [...html.matchAll(/name="_inherit_shown" value="([^"]+)"/g)].map((match) => match[1]!);
}

const FORM = {
  framework_acme_title: 'Pay with Acme',
  framework_acme_retries: '5',
  framework_acme_api_key: '',
};

describe('the admin save', () => {
  it('reads the settings once and stores every changed field in one atomic commit, recording the admin in the history', async () => {
    const { store, counts } = countingStore();
    const { page, settings } = shopPage(store);
    const response = await postForm(page, FORM);
    expect(response.status).toBe(303);
    expect(counts).toEqual({ getMany: 1, commit: 1, set: 0 });
    expect(await settings.getValue('title')).toBe('Pay with Acme');
    const history = await settings.getHistory();
    expect(history).toHaveLength(2);
    for (const entry of history) expect(entry).toMatchObject({ actor: { id: ADMIN.id }, via: 'admin' });
  });

  it('writes nothing for an unchanged form, and never touches a field another admin changed meanwhile', async () => {
    const { inner, store, counts } = countingStore({
      framework_acme_title: 'Pay with Acme',
      framework_acme_retries: '5',
    });
    const { page } = shopPage(store);
    await postForm(page, FORM);
    expect(counts.commit).toBe(0);
    // Another admin changed the title; this form only changes the retries.
    await inner.set('framework_acme_title', 'Changed elsewhere');
    await postForm(page, { ...FORM, framework_acme_title: 'Changed elsewhere', framework_acme_retries: '6' });
    expect(await inner.get('framework_acme_title')).toBe('Changed elsewhere');
    expect(await inner.get('framework_acme_retries')).toBe('6');
  });

  it('renders a secret as an empty password field; the mask or an empty field keeps it', async () => {
    const { inner, store } = countingStore({ framework_acme_api_key: 'sk_live_secret' });
    const { page } = shopPage(store);
    const html = await (await getPage(page)).text();
    expect(fieldRow(html, 'framework_acme_api_key')).toContain('type="password"');
    expect(html).not.toContain('sk_live_secret');
    for (const value of ['', '********']) {
      expect((await postForm(page, { ...FORM, framework_acme_api_key: value })).status).toBe(303);
      expect(await inner.get('framework_acme_api_key')).toBe('sk_live_secret');
    }
  });

  it('writes every secret typed in, even one equal to the stored secret (a save reveals nothing about a guess)', async () => {
    const { store, counts } = countingStore({
      framework_acme_title: 'Pay with Acme',
      framework_acme_retries: '5',
      framework_acme_api_key: 'sk_live_secret',
    });
    const { page, settings } = shopPage(store);
    await postForm(page, { ...FORM, framework_acme_api_key: 'sk_live_secret' });
    expect(counts.commit).toBe(1);
    expect(await settings.getHistory({ settingId: 'api_key' })).toHaveLength(0);
  });
});

describe('the settings page of a scope (?scope=)', () => {
  it('shows each field’s resolved value and where it comes from, with a "Use parent value" box', async () => {
    const { store } = countingStore({ framework_acme_title: 'Global', 'framework_acme_retries@eu': '7' });
    const { page } = shopPage(store);
    const html = await (await getPage(page, '/admin/settings/acme?scope=eu/de')).text();
    expect(html).toContain('Settings of scope eu/de');
    const title = fieldRow(html, 'framework_acme_title');
    expect(title).toContain('value="Global"');
    expect(title).toMatch(/name="_inherit" value="title" checked/);
    expect(title).toContain('(the global value)');
    const retries = fieldRow(html, 'framework_acme_retries');
    expect(retries).toContain('value="7"');
    expect(retries).toContain('(scope eu)');
    // The form posts back to the same scope.
    expect(html).toMatch(/action="[^"]*\?scope=eu%2Fde"/);
    // The global page has no such boxes.
    expect(await (await getPage(page)).text()).not.toContain('name="_inherit"');
  });

  it('saves at the scope: an unticked box stores the field there, a ticked one makes it inherit again', async () => {
    const { inner, store } = countingStore({
      framework_acme_title: 'Global',
      'framework_acme_retries@eu/de': '7',
    });
    const { page, settings } = shopPage(store);
    const path = '/admin/settings/acme?scope=eu/de';
    const response = await postForm(
      page,
      // retries shows its own 7: ticking the box (and leaving the 7 as shown) makes it inherit.
      {
        ...FORM,
        framework_acme_title: 'Deutschland',
        framework_acme_retries: '7',
        _inherit: ['retries', 'api_key'],
      },
      { path },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('?scope=eu%2Fde&settings-updated=true');
    expect(await inner.get('framework_acme_title@eu/de')).toBe('Deutschland');
    expect(await inner.get('framework_acme_title')).toBe('Global');
    expect(await inner.get('framework_acme_retries@eu/de')).toBeUndefined();
    expect(await settings.scope('eu/de').getOrigin('retries')).toBeNull();
    const [entry] = await settings.getHistory({ scope: 'eu/de', settingId: 'title' });
    expect(entry).toMatchObject({ scope: 'eu/de', via: 'admin', new: 'Deutschland' });
  });

  it('refuses a field changed while its "Use parent value" box is ticked: message at the field, box unticked, nothing stored', async () => {
    const { inner, store, counts } = countingStore({ framework_acme_title: 'Global' });
    const { page } = shopPage(store);
    const path = '/admin/settings/acme?scope=eu';
    const shown = inheritShown(await (await getPage(page, path)).text());
    expect(shown).toHaveLength(3); // title, retries and api_key inherit
    const ticked = { _inherit: ['title', 'retries', 'api_key'], _inherit_shown: shown };
    const response = await postForm(
      page,
      {
        ...ticked,
        framework_acme_title: 'Typed while ticked',
        framework_acme_retries: '3',
        framework_acme_api_key: '',
      },
      { path },
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    const title = fieldRow(html, 'framework_acme_title');
    expect(title).toContain('Not saved: this field was changed while “Use parent value” was ticked');
    expect(title).toContain('save again to store this value in scope eu');
    expect(title).toContain('value="Typed while ticked"');
    expect(title).toMatch(/name="_inherit" value="title">/); // unticked now
    expect(fieldRow(html, 'framework_acme_retries')).toMatch(/name="_inherit" value="retries" checked/);
    expect(html).toContain('One field needs attention');
    expect(counts.commit).toBe(0);
    expect(await inner.get('framework_acme_title@eu')).toBeUndefined();

    // Saved again as shown (box unticked), the value is stored at the scope.
    const again = await postForm(
      page,
      {
        _inherit: ['retries', 'api_key'],
        framework_acme_title: 'Typed while ticked',
        framework_acme_retries: '3',
      },
      { path },
    );
    expect(again.status).toBe(303);
    expect(await inner.get('framework_acme_title@eu')).toBe('Typed while ticked');
  });

  it('counts a typed secret as a change, but not a parent value that changed meanwhile', async () => {
    const { inner, store } = countingStore({ framework_acme_title: 'Global' });
    const { page } = shopPage(store);
    const path = '/admin/settings/acme?scope=eu';
    const shown = inheritShown(await (await getPage(page, path)).text());
    const ticked = { _inherit: ['title', 'retries', 'api_key'], _inherit_shown: shown };
    const secret = await postForm(
      page,
      {
        ...ticked,
        framework_acme_title: 'Global',
        framework_acme_retries: '3',
        framework_acme_api_key: 'sk_live_typed_77',
      },
      { path },
    );
    expect(secret.status).toBe(400);
    const secretHtml = await secret.text();
    expect(fieldRow(secretHtml, 'framework_acme_api_key')).toContain(
      'was changed while “Use parent value” was ticked',
    );
    expect(secretHtml).not.toContain('sk_live_typed_77');

    // Another admin changes the global title after the page was shown: the untouched field is no edit.
    await inner.set('framework_acme_title', 'Global, renamed');
    const untouched = await postForm(
      page,
      { ...ticked, framework_acme_title: 'Global', framework_acme_retries: '3', framework_acme_api_key: '' },
      { path },
    );
    expect(untouched.status).toBe(303);
    expect(await inner.get('framework_acme_title@eu')).toBeUndefined();
  });

  it('does not take what a browser sends for an empty colour or range input for an edit', async () => {
    const store = new MemoryOptionStore();
    const { page } = acmePage(store);
    const path = '/admin/settings/acme?scope=eu';
    const html = await (await getPage(page, path)).text();
    const shown = inheritShown(html);
    const ids = [...html.matchAll(/name="_inherit" value="([^"]+)"/g)].map((match) => match[1]!);
    // Chromium sends the middle of an empty range; everything else as shown.
    const response = await postForm(
      page,
      {
        _inherit: ids,
        _inherit_shown: shown,
        framework_acme_title: 'Acme Pay',
        framework_acme_max_retries: '3',
        framework_acme_priority: '50',
        framework_acme_brand_color: '#2271b1',
        framework_acme_mode: 'test',
        framework_acme_capture: 'auto',
        framework_acme_log_level: '0',
        framework_acme_card_types: ['visa'],
      },
      { path },
    );
    expect(response.status).toBe(303);
    expect(await store.get('framework_acme_priority@eu')).toBeUndefined();
  });

  it('refuses an invalid scope (400) and a scope canAccessScope denies (403)', async () => {
    const { store } = countingStore();
    const { page } = shopPage(store);
    expect((await getPage(page, '/admin/settings/acme?scope=eu//de')).status).toBe(400);
    const context = adminContext({ canAccessScope: (_user, scope) => scope.startsWith('eu') });
    expect((await getPage(page, '/admin/settings/acme?scope=eu', context)).status).toBe(200);
    expect((await getPage(page, '/admin/settings/acme?scope=us', context)).status).toBe(403);
    expect((await getPage(page, '/admin/settings/acme', context)).status).toBe(403);
    const denied = await postForm(page, FORM, { path: '/admin/settings/acme?scope=us', context });
    expect(denied.status).toBe(403);
  });
});
