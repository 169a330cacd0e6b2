import {
  createAesGcmCipher,
  Framework_Abstract_Settings,
  MemoryOptionStore,
  type OptionStore,
  type SecretCipher,
  type StoreCommit,
} from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

class GatewaySettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('api_key', 'string', { secret: true, default: 'sk_test_default' });
    this.registerSetting('webhook_secret', 'string');
    this.registerControl('webhook_secret', 'password');
    this.registerSetting('title', 'string');
  }
}

function key(fill: number): string {
  return btoa(String.fromCharCode(...new Uint8Array(32).fill(fill)));
}
const OLD = { id: 'old', key: key(1) };
const NEW = { id: 'new', key: key(2) };

/** A store that remembers every text it was ever given, through every write path. */
class RecordingTexts implements OptionStore {
  readonly seen: string[] = [];
  constructor(readonly inner = new MemoryOptionStore()) {}
  get(key: string) {
    return this.inner.get(key);
  }
  getMany(keys: readonly string[]) {
    return this.inner.getMany(keys);
  }
  set(key: string, value: string) {
    this.seen.push(value);
    return this.inner.set(key, value);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  commit(commit: StoreCommit) {
    for (const write of commit.writes) if (write.value !== null) this.seen.push(write.value);
    this.seen.push(...(commit.log?.entries ?? []));
    return this.inner.commit(commit);
  }
  readLog(log: string, limit: number) {
    return this.inner.readLog(log, limit);
  }
  listKeys(prefix: string) {
    return this.inner.listKeys(prefix);
  }
}

describe('secret settings', () => {
  it('are those registered with secret: true and those with a password control', () => {
    const settings = new GatewaySettings('acme', new MemoryOptionStore());
    expect(settings.getSetting('api_key')!.isSecret()).toBe(true);
    expect(settings.getSetting('webhook_secret')!.isSecret()).toBe(true);
    expect(settings.getSetting('title')!.isSecret()).toBe(false);
    expect(() => settings.registerSetting('x', 'string', { secret: 'yes' as never })).toThrow(
      /secret must be a boolean/,
    );
  });

  it('give their plain value to getValue and Framework_Setting.getValue(), and "********" to toJSON (value and default)', async () => {
    const settings = new GatewaySettings('acme', new MemoryOptionStore());
    expect(settings.getSetting('api_key')!.toJSON()).toMatchObject({
      value: '********',
      default: '********',
    });
    expect(settings.getSetting('webhook_secret')!.toJSON()).toMatchObject({ value: null, default: null });
    await settings.updateValue('webhook_secret', 'whsec_1');
    expect(await settings.getValue('webhook_secret')).toBe('whsec_1');
    expect(settings.getSetting('webhook_secret')!.getValue()).toBe('whsec_1');
    expect(settings.getSetting('webhook_secret')!.toJSON().value).toBe('********');
    expect(JSON.stringify(await settings.level().getSettingObjects())).not.toContain('whsec_1');
    expect(JSON.stringify(await settings.scope('eu').getSettingObjects())).not.toContain('whsec_1');
  });

  it('with a cipher, never reach the store in plain text: programmatic, batch, scoped writes and rotation', async () => {
    const store = new RecordingTexts();
    const settings = new GatewaySettings('acme', store, { secrets: createAesGcmCipher([NEW, OLD]) });
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), async (secret) => {
        const value = `sk_${secret}`;
        store.seen.length = 0;
        await settings.updateValue('api_key', value);
        await settings.updateValues([
          { id: 'webhook_secret', value },
          { id: 'title', value: 'Shop' },
        ]);
        await settings.scope('eu').updateValue('api_key', value);
        await settings.scope('eu/de').updateValues([{ id: 'webhook_secret', value }]);
        await settings.rotateSecrets();
        for (const text of store.seen) expect(text).not.toContain(value);
        expect(await settings.getValue('api_key')).toBe(value);
        expect(await settings.scope('eu/de').getValue('webhook_secret')).toBe(value);
      }),
      { numRuns: 30 },
    );
    expect(await store.get('framework_acme_api_key')).toMatch(/^enc:v1:new:/);
  });

  it('decrypt on read; plain text stored before the cipher still reads; undecryptable text reads as nothing stored and is listed', async () => {
    const data = new MemoryOptionStore({ framework_acme_webhook_secret: 'whsec_plain' });
    const settings = new GatewaySettings('acme', data, { secrets: createAesGcmCipher([OLD]) });
    expect(await settings.getValue('webhook_secret')).toBe('whsec_plain');
    await settings.updateValue('api_key', 'sk_live');
    const ciphertext = (await data.get('framework_acme_api_key'))!;
    expect(ciphertext).toMatch(/^enc:v1:old:/);

    // Copied to another storage key, it does not decrypt there (the key is authenticated data).
    await data.set('framework_acme_webhook_secret', ciphertext);
    const reader = new GatewaySettings('acme', data, { secrets: createAesGcmCipher([OLD]) });
    expect(await reader.getValue('webhook_secret')).toBeNull();
    expect(await reader.getValue('api_key')).toBe('sk_live');
    expect(await reader.getUnreadableSecrets()).toEqual(['webhook_secret']);

    // Without the key (or without any cipher) it is unreadable too; the default applies.
    const withoutKey = new GatewaySettings('acme', data, { secrets: createAesGcmCipher([NEW]) });
    expect(await withoutKey.getValue('api_key')).toBe('sk_test_default');
    expect(await new GatewaySettings('acme', data).getUnreadableSecrets()).toEqual([
      'api_key',
      'webhook_secret',
    ]);
  });

  it('rotateSecrets rewrites every stored secret — scoped and plain ones too — under the first key and counts them', async () => {
    const data = new MemoryOptionStore({
      framework_acme_webhook_secret: 'whsec_plain',
      framework_acme_title: 'Shop',
    });
    const before = new GatewaySettings('acme', data, { secrets: createAesGcmCipher([OLD]) });
    await before.updateValue('api_key', 'sk_1');
    await before.scope('eu').updateValue('api_key', 'sk_eu');
    await before.scope('eu/de').updateValue('webhook_secret', 'whsec_de');
    const after = new GatewaySettings('acme', data, { secrets: createAesGcmCipher([NEW, OLD]) });
    expect(await after.rotateSecrets()).toBe(4);
    for (const storageKey of [
      'framework_acme_api_key',
      'framework_acme_api_key@eu',
      'framework_acme_webhook_secret',
      'framework_acme_webhook_secret@eu/de',
    ]) {
      expect(await data.get(storageKey)).toMatch(/^enc:v1:new:/);
    }
    expect(await data.get('framework_acme_title')).toBe('Shop');
    expect(await after.rotateSecrets()).toBe(0);
    const onlyNew = new GatewaySettings('acme', data, { secrets: createAesGcmCipher([NEW]) });
    expect(await onlyNew.getValue('webhook_secret')).toBe('whsec_plain');
    expect(await onlyNew.scope('eu/de').getValue('webhook_secret')).toBe('whsec_de');
    expect(await onlyNew.scope('eu').getValue('api_key')).toBe('sk_eu');
    // Rotation is not a change of value: no history.
    expect((await after.getHistory()).length).toBe((await before.getHistory()).length);
  });

  it('rotateSecrets needs a cipher', async () => {
    await expect(new GatewaySettings('acme', new MemoryOptionStore()).rotateSecrets()).rejects.toMatchObject({
      code: 400,
    });
  });

  it('a host cipher plugs in through the same interface; one that returns plain text is refused', async () => {
    const reversing: SecretCipher = {
      encrypt: async (plain, context) => `enc:rev:${context}:${[...plain].reverse().join('')}`,
      decrypt: async (stored, context) => {
        const prefix = `enc:rev:${context}:`;
        if (!stored.startsWith(prefix)) throw new Error('not mine');
        return [...stored.slice(prefix.length)].reverse().join('');
      },
    };
    const data = new MemoryOptionStore();
    const settings = new GatewaySettings('acme', data, { secrets: reversing });
    await settings.updateValue('api_key', 'sk_abc');
    expect(await data.get('framework_acme_api_key')).toBe('enc:rev:framework_acme_api_key:cba_ks');
    expect(await new GatewaySettings('acme', data, { secrets: reversing }).getValue('api_key')).toBe(
      'sk_abc',
    );
    const leaky: SecretCipher = { encrypt: async (plain) => plain, decrypt: async (stored) => stored };
    const broken = new GatewaySettings('acme', new MemoryOptionStore(), { secrets: leaky });
    await expect(broken.updateValue('api_key', 'sk_abc')).rejects.toThrow(/does not start with "enc:"/);
    expect(() => new GatewaySettings('acme', data, { secrets: {} as SecretCipher })).toThrow(/SecretCipher/);
  });

  it('without a cipher, a secret whose text starts with enc: is refused (it would read back as a ciphertext)', async () => {
    const settings = new GatewaySettings('acme', new MemoryOptionStore());
    await expect(settings.updateValue('api_key', 'enc:v1:x:y')).rejects.toMatchObject({ code: 400 });
  });

  it('a rejected value of a secret is not echoed in the error message', async () => {
    class Strict extends GatewaySettings {
      protected override registerSettings(): void {
        this.registerSetting('pin', 'integer', { secret: true, options: [1234, 5678] });
      }
    }
    const error = await new Strict('acme', new MemoryOptionStore())
      .updateValue('pin', 9999)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 400 });
    expect((error as Error).message).not.toContain('9999');
    expect((error as Error).message).not.toContain('1234');
  });
});
