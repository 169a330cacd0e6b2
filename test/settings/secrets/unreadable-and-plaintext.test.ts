import {
  createAesGcmCipher,
  Framework_Abstract_Settings,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

class GatewaySettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('api_key', 'string', { secret: true, default: 'sk_test_default' });
    this.registerSetting('title', 'string');
  }
}

function key(fill: number): string {
  return btoa(String.fromCharCode(...new Uint8Array(32).fill(fill)));
}
const OLD = { id: 'old', key: key(1) };
const OTHER = { id: 'other', key: key(7) };

/** A store where the global secret and the scope eu's are encrypted, eu's with a key the reader does not have. */
async function storeWithForeignScopeSecret(): Promise<MemoryOptionStore> {
  const store = new MemoryOptionStore();
  await new GatewaySettings('acme', store, { secrets: createAesGcmCipher([OLD]) }).updateValue(
    'api_key',
    'sk_global_account',
  );
  await new GatewaySettings('acme', store, { secrets: createAesGcmCipher([OTHER]) })
    .scope('eu')
    .updateValue('api_key', 'sk_eu_account');
  return store;
}

describe('an unreadable secret at a scope', () => {
  it('reads null there and below — never the parent’s secret, never the default — and getOrigin names that scope', async () => {
    const store = await storeWithForeignScopeSecret();
    const settings = new GatewaySettings('acme', store, { secrets: createAesGcmCipher([OLD]) });
    expect(await settings.getValue('api_key')).toBe('sk_global_account');
    for (const path of ['eu', 'eu/de', 'eu/de/berlin']) {
      const scope = settings.scope(path);
      expect(await scope.getValue('api_key'), path).toBeNull();
      expect(await scope.getValue('api_key', false), path).toBeNull();
      expect(await scope.getOrigin('api_key'), path).toBe('eu');
      expect((await scope.getSettingObject('api_key')).value, path).toBeNull();
    }
    // A sibling scope inherits the global secret as before.
    expect(await settings.scope('us').getValue('api_key')).toBe('sk_global_account');
    // A scope below with its own readable secret reads it.
    await settings.scope('eu/fr').updateValue('api_key', 'sk_fr_account');
    expect(await settings.scope('eu/fr').getValue('api_key')).toBe('sk_fr_account');
  });

  it('is listed as id@scope by getUnreadableSecrets (the global value by its id)', async () => {
    const store = await storeWithForeignScopeSecret();
    await store.set('framework_acme_api_key@us/ca', 'enc:v1:nobody:AAAA');
    const settings = new GatewaySettings('acme', store, { secrets: createAesGcmCipher([OLD]) });
    expect(await settings.getUnreadableSecrets()).toEqual(['api_key@eu', 'api_key@us/ca']);
    const withoutKeys = new GatewaySettings('acme', store, { secrets: createAesGcmCipher([OTHER]) });
    expect(await withoutKeys.getUnreadableSecrets()).toEqual(['api_key', 'api_key@us/ca']);
    // The global value's unreadable secret reads as nothing stored: its default applies (CONTRACT §7).
    expect(await withoutKeys.getValue('api_key')).toBe('sk_test_default');
  });
});

describe('plain text planted where a cipher is configured', () => {
  it('still reads, is listed by getPlaintextSecrets (global and scopes), and rotateSecrets encrypts it', async () => {
    const store = new MemoryOptionStore({
      framework_acme_api_key: 'sk_planted',
      'framework_acme_api_key@eu': 'sk_planted_eu',
      framework_acme_title: 'not a secret',
    });
    const settings = new GatewaySettings('acme', store, { secrets: createAesGcmCipher([OLD]) });
    expect(await settings.getValue('api_key')).toBe('sk_planted');
    expect(await settings.scope('eu').getValue('api_key')).toBe('sk_planted_eu');
    expect(await settings.getPlaintextSecrets()).toEqual(['api_key', 'api_key@eu']);
    expect(await settings.rotateSecrets()).toBe(2);
    expect(await settings.getPlaintextSecrets()).toEqual([]);
    expect(await store.get('framework_acme_api_key')).toMatch(/^enc:v1:old:/);
    // Without a cipher nothing is "plain text planted": secrets are stored in plain by design.
    expect(
      await new GatewaySettings(
        'acme',
        new MemoryOptionStore(Object.fromEntries([['framework_acme_api_key', 'x']])),
      ).getPlaintextSecrets(),
    ).toEqual([]);
  });
});

describe('repeated audits (the status report audits on every request)', () => {
  /** The real cipher, counting its decryptions. */
  function countingCipher() {
    const cipher = createAesGcmCipher([OLD]);
    const counted = {
      decryptions: 0,
      cipher: {
        ...cipher,
        decrypt: (text: string, context: string) => {
          counted.decryptions++;
          return cipher.decrypt(text, context);
        },
      },
    };
    return counted;
  }

  /** A memory store counting the reads that list or read several keys. */
  class CountingStore extends MemoryOptionStore {
    reads = 0;
    override getMany(keys: readonly string[]) {
      this.reads++;
      return super.getMany(keys);
    }
    override scan(query: Parameters<MemoryOptionStore['scan']>[0]) {
      this.reads++;
      return super.scan(query);
    }
  }

  /** Lets the memory store deliver its change reports (asynchronous, like a real feed). */
  const delivered = () => new Promise((resolve) => setTimeout(resolve, 5));
  const clean = { unreadable: [], plaintext: [] };

  it('read and decrypt only what changed since the last audit: own writes and other instances’', async () => {
    const store = new CountingStore();
    const counting = countingCipher();
    const settings = new GatewaySettings('acme', store, { secrets: counting.cipher });
    await settings.updateValue('api_key', 'sk_global');
    for (const path of ['eu', 'us', 'us/ca']) await settings.scope(path).updateValue('api_key', `sk_${path}`);
    counting.decryptions = 0;
    expect(await settings.getSecretAudit()).toEqual(clean);
    expect(counting.decryptions).toBe(4);
    // Nothing changed: no read, no decryption.
    store.reads = 0;
    expect(await settings.getSecretAudit()).toEqual(clean);
    expect([store.reads, counting.decryptions]).toEqual([0, 4]);
    // A secret written here: the text its commit stored is judged (decrypted once), nothing is read.
    await settings.scope('eu').updateValue('api_key', 'sk_eu_2');
    await settings.updateValue('title', 'not a secret');
    [store.reads, counting.decryptions] = [0, 0];
    expect(await settings.getSecretAudit()).toEqual(clean);
    expect([store.reads, counting.decryptions]).toEqual([0, 1]);

    // Another instance alters a text (one character off): reported by the change feed, judged again.
    const other = store.share();
    const stored = (await store.get('framework_acme_api_key@us'))!;
    const last = stored.at(-2) === 'A' ? 'B' : 'A';
    await other.set('framework_acme_api_key@us', `${stored.slice(0, -2)}${last}${stored.at(-1)}`);
    await delivered();
    expect(await settings.getSecretAudit()).toEqual({ unreadable: ['api_key@us'], plaintext: [] });
    // A text moved to another key is judged there, with that key as its context.
    await other.set('framework_acme_api_key@us', stored);
    await other.set('framework_acme_api_key@eu', stored);
    await delivered();
    expect(await settings.getSecretAudit()).toEqual({ unreadable: ['api_key@eu'], plaintext: [] });
    // Plain text planted at a new scope, a removed secret: both seen.
    await other.set('framework_acme_api_key@us/ny', 'sk_planted');
    await other.delete('framework_acme_api_key@eu');
    await delivered();
    expect(await settings.getSecretAudit()).toEqual({ unreadable: [], plaintext: ['api_key@us/ny'] });
  });

  it('read everything again on a store without a change feed', async () => {
    const store = new CountingStore();
    const settings = new GatewaySettings('acme', store, { secrets: createAesGcmCipher([OLD]) });
    await settings.scope('eu').updateValue('api_key', 'sk_eu');
    expect(await settings.getSecretAudit()).toEqual(clean);
    // A store without a change feed (the same data): every audit reads every secret again.
    const unwatched = store.share();
    Object.defineProperty(unwatched, 'watch', { value: undefined });
    const blind = new GatewaySettings('acme', unwatched, { secrets: createAesGcmCipher([OLD]) });
    expect(await blind.getSecretAudit()).toEqual(clean);
    await store.set('framework_acme_api_key@us', 'sk_planted');
    expect(await blind.getSecretAudit()).toEqual({ unreadable: [], plaintext: ['api_key@us'] });
  });
});
