import { isEncryptedText, type SecretCipher } from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type KeyManagementService,
  KmsEnvelopeCipher,
  LocalKmsStandIn,
} from '../../examples/kms-envelope-cipher';
import {
  anyText,
  contextArbitrary,
  distinctiveText,
  everySingleCharacterChange,
  expectLeakFreeRejection,
  tamperCharacters,
} from '../settings/secrets/support/cipher-arbitraries';

const CONTEXT = 'framework_acme_api_key';
const FORMAT = /^enc:kms1:([A-Za-z0-9_-]+):([A-Za-z0-9_-]+)$/;

/** The wrapped data key field of a stored value. */
const wrappedKeyOf = (stored: string) => FORMAT.exec(stored)![1]!;

describe('examples/kms-envelope-cipher', () => {
  it('is a SecretCipher: any string round-trips, stored as enc:kms1:<wrapped key>:<data>', async () => {
    const kms = new LocalKmsStandIn();
    const cipher: SecretCipher = new KmsEnvelopeCipher({ kms });
    const reader: SecretCipher = new KmsEnvelopeCipher({ kms }); // another instance, e.g. another process
    await fc.assert(
      fc.asyncProperty(anyText, contextArbitrary, async (plain, context) => {
        const stored = await cipher.encrypt(plain, context);
        expect(stored).toMatch(FORMAT);
        expect(isEncryptedText(stored)).toBe(true);
        expect(await cipher.decrypt(stored, context)).toBe(plain);
        expect(await reader.decrypt(stored, context)).toBe(plain);
      }),
      { numRuns: 100 },
    );
  });

  it('binds each value to its storage key: moved to another one, it does not decrypt', async () => {
    const cipher = new KmsEnvelopeCipher({ kms: new LocalKmsStandIn() });
    const stored = await cipher.encrypt('sk_live_0123456789abcdef', 'framework_acme_api_key');
    expect(await cipher.decrypt(stored, 'framework_acme_api_key')).toBe('sk_live_0123456789abcdef');
    const error = await expectLeakFreeRejection(cipher.decrypt(stored, 'framework_acme_webhook_secret'), [
      stored,
      'sk_live_0123456789abcdef',
    ]);
    expect(error.message).toMatch(/failed authentication/);
  });

  it('calls the KMS once per data key: to wrap it, and to unwrap it in each other instance', async () => {
    const kms = new LocalKmsStandIn();
    const writer = new KmsEnvelopeCipher({ kms });
    const stored = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        writer.encrypt(`secret ${index}`, `framework_acme_key_${index}`),
      ),
    );
    expect(new Set(stored.map(wrappedKeyOf)).size).toBe(1);
    await Promise.all(stored.map((text, index) => writer.decrypt(text, `framework_acme_key_${index}`)));
    expect(kms.calls).toEqual({ encryptDataKey: 1, decryptDataKey: 0 });

    const reader = new KmsEnvelopeCipher({ kms });
    for (let round = 0; round < 2; round++) {
      const plain = await Promise.all(
        stored.map((text, index) => reader.decrypt(text, `framework_acme_key_${index}`)),
      );
      expect(plain[49]).toBe('secret 49');
    }
    expect(kms.calls).toEqual({ encryptDataKey: 1, decryptDataKey: 1 });
  });

  it('rotates its data key after N encryptions and on demand; values under old data keys stay readable', async () => {
    const kms = new LocalKmsStandIn();
    const cipher = new KmsEnvelopeCipher({ kms, maxEncryptionsPerDataKey: 3 });
    const stored: string[] = [];
    for (let index = 0; index < 7; index++) stored.push(await cipher.encrypt(`v${index}`, CONTEXT));
    const wrapped = stored.map(wrappedKeyOf);
    expect(new Set(wrapped.slice(0, 3)).size).toBe(1);
    expect(new Set(wrapped.slice(3, 6)).size).toBe(1);
    expect(new Set(wrapped).size).toBe(3);
    expect(kms.calls.encryptDataKey).toBe(3);

    cipher.rotateDataKey();
    stored.push(await cipher.encrypt('after rotateDataKey', CONTEXT));
    expect(wrappedKeyOf(stored[7]!)).not.toBe(wrapped[6]);
    expect(kms.calls.encryptDataKey).toBe(4);

    const reader = new KmsEnvelopeCipher({ kms });
    const plain = await Promise.all(stored.map((text) => reader.decrypt(text, CONTEXT)));
    expect(plain).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'after rotateDataKey']);
    expect(kms.calls.decryptDataKey).toBe(4);
  });

  it('rejects a value when any one character of it is changed, without leaking', async () => {
    const kms = new LocalKmsStandIn();
    const cipher = new KmsEnvelopeCipher({ kms });
    await fc.assert(
      fc.asyncProperty(distinctiveText, tamperCharacters, async (plain, characters) => {
        const stored = await cipher.encrypt(plain, CONTEXT);
        for (const tampered of everySingleCharacterChange(stored, characters)) {
          await expectLeakFreeRejection(cipher.decrypt(tampered, CONTEXT), [tampered, stored, plain]);
        }
      }),
      { numRuns: 10 },
    );
  });

  it('cannot read values whose data key another KMS master key wrapped', async () => {
    const stored = await new KmsEnvelopeCipher({ kms: new LocalKmsStandIn() }).encrypt(
      'secret value',
      CONTEXT,
    );
    const error = await expectLeakFreeRejection(
      new KmsEnvelopeCipher({ kms: new LocalKmsStandIn() }).decrypt(stored, CONTEXT),
      [stored],
    );
    expect(error.message).toMatch(/not wrapped by this master key/);
  });

  it('survives a KMS outage: the failed call is not cached, the next one asks again', async () => {
    const kms = new LocalKmsStandIn();
    let down = true;
    const flaky: KeyManagementService = {
      encryptDataKey: (key) =>
        down ? Promise.reject(new Error('KMS unavailable')) : kms.encryptDataKey(key),
      decryptDataKey: (key) =>
        down ? Promise.reject(new Error('KMS unavailable')) : kms.decryptDataKey(key),
    };
    const cipher = new KmsEnvelopeCipher({ kms: flaky });
    await expect(cipher.encrypt('secret', CONTEXT)).rejects.toThrow('KMS unavailable');
    down = false;
    const stored = await cipher.encrypt('secret', CONTEXT);

    const reader = new KmsEnvelopeCipher({ kms: flaky });
    down = true;
    await expect(reader.decrypt(stored, CONTEXT)).rejects.toThrow('KMS unavailable');
    down = false;
    expect(await reader.decrypt(stored, CONTEXT)).toBe('secret');
  });

  it('refuses a rotation threshold that is not a positive integer', () => {
    for (const maxEncryptionsPerDataKey of [0, -1, 1.5, Number.NaN]) {
      expect(() => new KmsEnvelopeCipher({ kms: new LocalKmsStandIn(), maxEncryptionsPerDataKey })).toThrow(
        RangeError,
      );
    }
  });
});
