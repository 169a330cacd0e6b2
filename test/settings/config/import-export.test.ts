import {
  createAesGcmCipher,
  Framework_Abstract_Settings,
  type OptionStore,
  PlanConflictError,
  PlanRefusedError,
  requiredWhen,
  type SettingsDocument,
  type SettingsOptions,
  type SettingsPlan,
} from 'commerce-plugin-framework';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorePair } from '../../reliability/support/real-stores';
import { describeOnEveryStore, memoryPair } from '../support/every-store';

const KEY = { id: 'k1', key: btoa(String.fromCharCode(...new Uint8Array(32).fill(5))) };
const SECRET = 'sk_live_DoNotLeak_123';

class Shop extends Framework_Abstract_Settings {
  constructor(store: OptionStore, options: SettingsOptions = {}) {
    super('acme', store, {
      secrets: createAesGcmCipher([KEY]),
      rules: [requiredWhen('api_key', { setting: 'mode', equals: 'live' }, 'Live mode needs an API key.')],
      ...options,
    });
  }
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Shop' });
    this.registerSetting('fee', 'float');
    this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
    this.registerSetting('api_key', 'string', { secret: true });
    this.registerSetting('methods', 'string', { is_multi: true });
    // An array index as an id: JSON orders it first.
    this.registerSetting('7', 'integer');
  }
}

/** A shop with values at the global level and at scopes (one of them an array-index-like path). */
async function seeded(store: OptionStore): Promise<Shop> {
  const shop = new Shop(store);
  await shop.updateValues([
    { id: 'title', value: 'Acme' },
    { id: 'fee', value: 1.5 },
    { id: 'api_key', value: SECRET },
    { id: 'mode', value: 'live' },
  ]);
  await shop.scope('eu').updateValue('fee', 2);
  await shop.scope('eu/de').updateValue('methods', ['card', 'sepa']);
  await shop.scope('2024').updateValue('7', 7);
  return shop;
}

const noSecret = (value: unknown) => expect(JSON.stringify(value)).not.toContain(SECRET);

describeOnEveryStore('export, plan, apply', (open, kind) => {
  let pair: StorePair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('export → import of the same state plans nothing, and exporting again gives identical bytes', async () => {
    pair = await open();
    const shop = await seeded(pair.first);
    const document = await shop.exportSettings();
    expect(Object.keys(document.levels)).toEqual(['2024', '', 'eu', 'eu/de']);
    expect(document.levels['']).toEqual({
      title: 'Acme',
      fee: 1.5,
      mode: 'live',
      api_key: { $secret: expect.stringMatching(/^fp1:/) },
    });
    noSecret(document);
    let text = '';
    for await (const chunk of shop.exportSettingsText()) text += chunk;
    expect(text).toBe(JSON.stringify(document));
    const other = new Shop(pair.second);
    const plan = await other.planImport(JSON.parse(text));
    expect(plan).toMatchObject({ plugin: 'acme', changes: [], errors: [] });
    expect(await other.applyPlan(plan)).toEqual({ applied: 0 });
    expect(JSON.stringify(await other.exportSettings())).toBe(text);
    // Only the levels named.
    expect(Object.keys((await shop.exportSettings({ scopes: ['eu', ''] })).levels)).toEqual(['', 'eu']);
    shop.dispose();
    other.dispose();
  });

  it('lists levels as JSON orders them, whatever their first character, streamed or not', async () => {
    pair = await open();
    const shop = new Shop(pair.first);
    // Scopes before letters (digits, "-", "."), integer-like ones among them, and after.
    const scopes = [
      'zz',
      '10',
      '-a',
      '.b',
      '2',
      '1/x',
      '9a',
      'A',
      '_u',
      'a/1',
      '0',
      '3000000000',
      '4294967295',
    ];
    for (const [index, scope] of scopes.entries()) await shop.scope(scope).updateValue('fee', index);
    await shop.updateValue('title', 'Acme');
    const document = await shop.exportSettings();
    expect(Object.keys(document.levels)).toEqual([
      '0',
      '2',
      '10',
      '3000000000',
      '',
      '-a',
      '.b',
      '1/x',
      '4294967295',
      '9a',
      'A',
      '_u',
      'a/1',
      'zz',
    ]);
    expect(document.levels['9a']).toEqual({ fee: 6 });
    let text = '';
    for await (const chunk of shop.exportSettingsText()) text += chunk;
    expect(text).toBe(JSON.stringify(document));
    shop.dispose();
  });

  it('plans changes with a precondition per key; applies them in one step with history via import', async () => {
    pair = await open();
    const shop = await seeded(pair.first);
    const document = await shop.exportSettings();
    document.levels[''] = { ...document.levels[''], fee: 3 };
    document.levels.eu = { fee: null };
    document.levels['eu/fr'] = { title: 'France' };
    const plan = await shop.planImport(structuredClone(document));
    expect(plan.errors).toEqual([]);
    expect(plan.changes).toEqual([
      { scope: null, id: 'fee', action: 'set', old: 1.5, new: 3 },
      { scope: 'eu', id: 'fee', action: 'delete', old: 2, new: null },
      { scope: 'eu/fr', id: 'title', action: 'set', old: null, new: 'France' },
    ]);
    // The id depends only on the document and the keys' states.
    expect((await shop.planImport(structuredClone(document))).id).toBe(plan.id);
    const reader = new Shop(pair.second);
    expect(await reader.applyPlan(JSON.parse(JSON.stringify(plan)), { actor: { id: 'ci' } })).toEqual({
      applied: 3,
    });
    expect(await reader.getValue('fee')).toBe(3);
    expect(await reader.scope('eu').getOrigin('fee')).toBe('');
    expect(await reader.scope('eu/fr').getValue('title')).toBe('France');
    const [entry] = await reader.scope('eu/fr').getHistory();
    expect(entry).toMatchObject({ setting_id: 'title', via: 'import', actor: { id: 'ci' }, new: 'France' });
    // Applying an applied plan: its keys changed since.
    await expect(reader.applyPlan(plan)).rejects.toBeInstanceOf(PlanConflictError);
    shop.dispose();
    reader.dispose();
  });

  it('a concurrent change to a planned key: 412 naming exactly that key, nothing stored; a change elsewhere does not invalidate it', async () => {
    pair = await open();
    const shop = await seeded(pair.first);
    const document: SettingsDocument = {
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme',
      schema_version: 1,
      levels: { '': { title: 'Planned' }, eu: { fee: 9 } },
    };
    const plan = await shop.planImport(document);
    const other = new Shop(pair.second);
    await other.scope('eu').updateValue('fee', 4);
    const error = await shop.applyPlan(plan).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlanConflictError);
    expect((error as PlanConflictError).conflicts).toEqual([{ scope: 'eu', id: 'fee' }]);
    expect(await other.getValue('title')).toBe('Acme');
    // A change to a key the plan does not touch never invalidates it.
    const fresh = await shop.planImport(document);
    await other.updateValue('fee', 0.25);
    await other.scope('eu/de').updateValue('title', 'DE');
    expect(await shop.applyPlan(fresh)).toEqual({ applied: 2 });
    expect(await new Shop(pair.first).getValue('title')).toBe('Planned');
    shop.dispose();
    other.dispose();
  });

  it('a reader in another instance never sees part of an applied plan (on a Redis Cluster: of a level)', async () => {
    pair = await open();
    const writer = new Shop(pair.first);
    const levels = ['', 'eu', 'eu/de', 'us'];
    const ids = ['title', 'fee'];
    const keys = levels.flatMap((level) =>
      ids.map((id) => `framework_acme_${id}${level === '' ? '' : `@${level}`}`),
    );
    const reads: string[][] = [];
    let done = false;
    const second = pair.second;
    const reader = (async () => {
      while (!done) {
        const found = await second.getMany(keys);
        reads.push(keys.map((key) => found.get(key) ?? ''));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      // A fresh install: the first plan also records the schema version.
      const document = await writer.exportSettings();
      for (let round = 1; round <= 12; round++) {
        const values = { title: `round ${round}`, fee: round };
        const plan = await writer.planImport({
          ...document,
          levels: Object.fromEntries(levels.map((level) => [level, values])),
        });
        expect(plan.errors).toEqual([]);
        expect(await writer.applyPlan(plan)).toEqual({ applied: 8 });
        // Planning and applying may not wait for any I/O on the memory store: let the reader in.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      done = true;
      await reader;
    }
    expect(reads.length).toBeGreaterThan(1);
    // Each read: the round of each of its texts ('' before the first plan).
    const roundOf = (text: string) => text.replace(/^round /, '');
    for (const read of reads) {
      const rounds = read.map(roundOf);
      if (kind === 'Redis Cluster') {
        // One atomic step per scope: each level whole.
        for (let level = 0; level < levels.length; level++) {
          expect(rounds[level * 2], JSON.stringify(read)).toBe(rounds[level * 2 + 1]);
        }
      } else {
        expect(new Set(rounds).size, JSON.stringify(read)).toBe(1);
      }
    }
    writer.dispose();
  });

  it('secrets only by reference: a matching fingerprint is kept, $env sets, a mismatch, a missing variable or clear text are errors; nothing shows the secret', async () => {
    pair = await open();
    const shop = await seeded(pair.first);
    const exported = await shop.exportSettings();
    const fingerprint = (exported.levels['']!.api_key as { $secret: string }).$secret;
    const document = (levels: SettingsDocument['levels']): SettingsDocument => ({
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme',
      schema_version: 1,
      levels,
    });
    expect((await shop.planImport(document({ '': { api_key: { $secret: fingerprint } } }))).changes).toEqual(
      [],
    );
    const planned = await shop.planImport(document({ '': { api_key: { $env: 'ACME_KEY' } } }), {
      env: { ACME_KEY: 'sk_live_NEW_Secret_999' },
    });
    expect(planned.changes).toEqual([
      { scope: null, id: 'api_key', action: 'set', old: '********', new: '********' },
    ]);
    expect(JSON.stringify(planned)).not.toContain('sk_live_NEW_Secret_999');
    noSecret(planned);
    await shop.applyPlan(JSON.parse(JSON.stringify(planned)));
    expect(await shop.getValue('api_key')).toBe('sk_live_NEW_Secret_999');
    const errors = await shop.planImport(
      document({
        '': { api_key: { $secret: fingerprint } },
        eu: { api_key: { $env: 'MISSING_VARIABLE' } },
        'eu/de': { api_key: 'sk_in_clear_value' },
      }),
      { env: {} },
    );
    expect(errors.errors.map((error) => [error.scope, error.id, error.code])).toEqual([
      [null, 'api_key', 'secret_mismatch'],
      ['eu', 'api_key', 'env_missing'],
      ['eu/de', 'api_key', 'secret_in_clear'],
    ]);
    expect(JSON.stringify(errors)).not.toContain('sk_in_clear_value');
    await expect(shop.applyPlan(errors)).rejects.toBeInstanceOf(PlanRefusedError);
    for (const entry of await shop.getHistory({ limit: 50 })) noSecret(entry);
    shop.dispose();
  });

  it('every value is checked as a write: unknown settings and scopes, invalid values and paths, rules — all listed', async () => {
    pair = await open();
    const shop = new Shop(pair.first, { scopeExists: (path) => path !== 'nowhere' });
    const plan = await shop.planImport({
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme',
      schema_version: 1,
      levels: {
        '': { mode: 'live', fee: 'cheap', nope: 1 },
        'eu//de': { title: 'x' },
        nowhere: { title: 'x' },
      },
    });
    expect(plan.errors.map((error) => [error.scope, error.id, error.code])).toEqual([
      [null, 'fee', 'value_invalid'],
      [null, 'nope', 'setting_not_found'],
      ['eu//de', 'title', 'scope_invalid'],
      ['nowhere', 'title', 'scope_not_found'],
    ]);
    const rules = await shop.planImport({
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme',
      schema_version: 1,
      levels: { '': { mode: 'live' } },
    });
    expect(rules.errors).toEqual([
      { scope: null, id: 'api_key', code: 'rule_failed', message: 'Live mode needs an API key.' },
    ]);
    shop.dispose();
  });

  it('prune plans the removal of every stored value the document does not list, at every level', async () => {
    pair = await open();
    const shop = await seeded(pair.first);
    const plan = await shop.planImport(
      {
        format: 'commerce-plugin-settings',
        version: 1,
        plugin: 'acme',
        schema_version: 1,
        levels: { '': { title: 'Acme', mode: 'test' } },
      },
      { prune: true },
    );
    expect(plan.errors).toEqual([]);
    expect(plan.changes.map((change) => [change.scope, change.id, change.action])).toEqual([
      ['2024', '7', 'delete'],
      [null, 'fee', 'delete'],
      [null, 'mode', 'set'],
      [null, 'api_key', 'delete'],
      ['eu', 'fee', 'delete'],
      ['eu/de', 'methods', 'delete'],
    ]);
    await shop.applyPlan(plan);
    expect((await shop.exportSettings()).levels).toEqual({ '': { title: 'Acme', mode: 'test' } });
    shop.dispose();
  });
});

describe('documents and plans refused as a whole', () => {
  it('a document for another plugin, format or version, or a newer schema, is refused with 400', async () => {
    const { first } = memoryPair();
    const shop = new Shop(first);
    const base = {
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme',
      schema_version: 1,
      levels: {},
    };
    for (const document of [
      { ...base, plugin: 'other' },
      { ...base, format: 'yaml' },
      { ...base, version: 2 },
      { ...base, schema_version: 2 },
      { ...base, levels: [] },
      'not a document',
    ]) {
      await expect(shop.planImport(document), JSON.stringify(document)).rejects.toMatchObject({ code: 400 });
    }
  });

  it('an edited or forged plan is refused with 400, nothing stored', async () => {
    const { first } = memoryPair();
    const shop = await seeded(first);
    const plan = await shop.planImport({
      format: 'commerce-plugin-settings',
      version: 1,
      plugin: 'acme',
      schema_version: 1,
      levels: { '': { fee: 4 } },
    });
    const edits: ((copy: SettingsPlan) => void)[] = [
      (copy) => {
        copy.changes[0]!.new = 400;
      },
      (copy) => {
        copy.changes[0]!.id = 'title';
      },
      (copy) => {
        copy.preconditions[0] = null;
      },
      (copy) => {
        copy.id = `${copy.id}x`;
      },
      (copy) => {
        copy.changes.push({ scope: null, id: 'title', action: 'delete', old: null, new: null });
        copy.preconditions.push(null);
      },
    ];
    for (const edit of edits) {
      const copy = structuredClone(plan);
      edit(copy);
      await expect(shop.applyPlan(copy)).rejects.toBeInstanceOf(PlanRefusedError);
    }
    expect(await shop.getValue('fee')).toBe(1.5);
    await shop.applyPlan(plan);
    expect(await shop.getValue('fee')).toBe(4);
  });
});
