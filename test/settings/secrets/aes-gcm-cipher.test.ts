import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import {
  type AesGcmKey,
  createAesGcmCipher,
  ENCRYPTED_TEXT_PREFIX,
  isEncryptedText,
} from 'commerce-plugin-framework';
import { decodeBase64Url, encodeBase64Url } from 'commerce-plugin-framework/adapter-kit';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aesGcmCipher } from '../../../src/settings/secrets/aes-gcm-cipher';
import {
  anyText,
  contextArbitrary,
  distinctiveText,
  everySingleCharacterChange,
  expectLeakFreeException,
  keyListArbitrary,
  newKeyText,
  RUNS,
  tamperCharacters,
} from './support/cipher-arbitraries';

const FORMAT = /^enc:v1:([A-Za-z0-9_.-]{1,64}):([A-Za-z0-9_-]+)$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CONTEXT = 'framework_acme_api_key';
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const utf8Length = (text: string) => new TextEncoder().encode(text).length;
const keyTexts = (keys: readonly AesGcmKey[]) => keys.map((key) => key.key);

/** The storage form's key id and decoded IV ‖ ciphertext ‖ tag. */
function parseStored(stored: string): { id: string; payload: Uint8Array } {
  const match = FORMAT.exec(stored);
  expect(match, stored).not.toBeNull();
  const payload = decodeBase64Url(match![2]!);
  expect(payload).toBeDefined();
  return { id: match![1]!, payload: payload! };
}

/** Key lists to encrypt with (1–4 keys), plus a permutation of them and a shuffled superset. */
const keyScenario = keyListArbitrary(1, 7).chain((all) =>
  fc.integer({ min: 1, max: Math.min(4, all.length) }).chain((size) => {
    const encrypting = all.slice(0, size);
    return fc.record({
      encrypting: fc.constant(encrypting),
      permutation: fc.shuffledSubarray(encrypting, { minLength: size, maxLength: size }),
      superset: fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }),
    });
  }),
);

describe('createAesGcmCipher: properties', () => {
  it('any string round-trips, also through a cipher built from a permutation or a superset of the keys', async () => {
    await fc.assert(
      fc.asyncProperty(keyScenario, anyText, contextArbitrary, async (keys, plain, context) => {
        const stored = await createAesGcmCipher(keys.encrypting).encrypt(plain, context);
        expect(parseStored(stored).id).toBe(keys.encrypting[0]!.id);
        for (const list of [keys.encrypting, keys.permutation, keys.superset]) {
          expect(await createAesGcmCipher(list).decrypt(stored, context)).toBe(plain);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the output has the documented form: enc:v1:<first key id>:<base64url of 12-byte IV ‖ ciphertext ‖ 16-byte tag>', async () => {
    await fc.assert(
      fc.asyncProperty(keyListArbitrary(1, 4), anyText, contextArbitrary, async (keys, plain, context) => {
        const stored = await createAesGcmCipher(keys).encrypt(plain, context);
        expect(isEncryptedText(stored)).toBe(true);
        expect(stored.startsWith(`${ENCRYPTED_TEXT_PREFIX}v1:`)).toBe(true);
        const { id, payload } = parseStored(stored);
        expect(id).toBe(keys[0]!.id);
        expect(payload.length).toBe(IV_BYTES + utf8Length(plain) + TAG_BYTES);
        expect(encodeBase64Url(payload)).toBe(stored.slice(stored.lastIndexOf(':') + 1));
      }),
      { numRuns: RUNS },
    );
  });

  it('changing any one character of the stored text, at every position, makes decrypt reject, without leaking', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyListArbitrary(1, 3),
        distinctiveText,
        tamperCharacters,
        async (keys, plain, characters) => {
          const cipher = createAesGcmCipher(keys);
          const stored = await cipher.encrypt(plain, CONTEXT);
          for (const tampered of everySingleCharacterChange(stored, characters)) {
            const leaks = [tampered, stored, plain, ...keyTexts(keys)];
            await expectLeakFreeException(cipher.decrypt(tampered, CONTEXT), leaks);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('changing the last character, whose low bits base64url leaves unused, makes decrypt reject', async () => {
    const cipher = createAesGcmCipher([{ id: 'k1', key: newKeyText() }]);
    for (const plain of ['', 'a', 'ab']) {
      const stored = await cipher.encrypt(plain, CONTEXT);
      for (const character of BASE64URL_ALPHABET) {
        if (character === stored.at(-1)) continue;
        await expect(cipher.decrypt(stored.slice(0, -1) + character, CONTEXT)).rejects.toThrow();
      }
    }
  });

  it('flipping any bit of IV, ciphertext or tag makes decrypt reject (authentication)', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyListArbitrary(1, 2),
        anyText,
        fc.nat(),
        fc.nat(7),
        async (keys, plain, position, bit) => {
          const cipher = createAesGcmCipher(keys);
          const stored = await cipher.encrypt(plain, CONTEXT);
          const { id, payload } = parseStored(stored);
          payload[position % payload.length]! ^= 1 << bit;
          const tampered = `enc:v1:${id}:${encodeBase64Url(payload)}`;
          const error = await expectLeakFreeException(cipher.decrypt(tampered, CONTEXT), [tampered, plain]);
          expect(error.message).toMatch(/authentication failed/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('cutting the stored text short anywhere makes decrypt reject', async () => {
    await fc.assert(
      fc.asyncProperty(keyListArbitrary(1, 2), distinctiveText, fc.nat(), async (keys, plain, cut) => {
        const cipher = createAesGcmCipher(keys);
        const stored = await cipher.encrypt(plain, CONTEXT);
        const truncated = stored.slice(0, cut % stored.length);
        await expectLeakFreeException(cipher.decrypt(truncated, CONTEXT), [stored, plain]);
      }),
      { numRuns: RUNS },
    );
  });

  it('a ciphertext moved to another context (storage key) does not decrypt', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyListArbitrary(1, 2),
        distinctiveText,
        contextArbitrary,
        contextArbitrary,
        async (keys, plain, from, to) => {
          fc.pre(from !== to);
          const cipher = createAesGcmCipher(keys);
          const stored = await cipher.encrypt(plain, from);
          const error = await expectLeakFreeException(cipher.decrypt(stored, to), [stored, plain]);
          expect(error.message).toMatch(/authentication failed/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('two encryptions of the same text differ, in the IV too', async () => {
    await fc.assert(
      fc.asyncProperty(keyListArbitrary(1, 2), anyText, async (keys, plain) => {
        const cipher = createAesGcmCipher(keys);
        const first = await cipher.encrypt(plain, CONTEXT);
        const second = await cipher.encrypt(plain, CONTEXT);
        expect(first).not.toBe(second);
        const ivOf = (stored: string) => Array.from(parseStored(stored).payload.subarray(0, IV_BYTES));
        expect(ivOf(first)).not.toEqual(ivOf(second));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('createAesGcmCipher: decrypt rejects what it cannot read', () => {
  const keys = [
    { id: 'current', key: newKeyText() },
    { id: 'old', key: newKeyText() },
  ];
  const cipher = createAesGcmCipher(keys);

  it.each([
    ['plain text', 'sk_live_0123456789abcdef', /not in the enc:v1:<key id>:<data> form/],
    ['another scheme', 'enc:kms1:AAAA:BBBB', /not in the enc:v1:<key id>:<data> form/],
    ['another version', 'enc:v2:current:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', /not in the enc:v1/],
    [
      'an unknown key id',
      'enc:v1:retired:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      /not among the configured ones \(current, old\)/,
    ],
    ['an empty key id', 'enc:v1::AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', /not among the configured ones/],
    ['a third field', 'enc:v1:current:AAAA:BBBB', /exactly one key id and one data field/],
    ['no data field', 'enc:v1:current', /exactly one key id and one data field/],
    ['padding', 'enc:v1:current:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', /not canonical base64url/],
    [
      'the standard alphabet',
      'enc:v1:current:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA+/A',
      /not canonical base64url/,
    ],
    ['white space', 'enc:v1:current:AAAAAAAAAAAAAAAAAAAA AAAAAAAAAAAAAAAAAA', /not canonical base64url/],
    ['27 bytes', `enc:v1:current:${encodeBase64Url(new Uint8Array(27))}`, /too short/],
    ['28 zero bytes', `enc:v1:current:${encodeBase64Url(new Uint8Array(28))}`, /authentication failed/],
  ])('%s', async (_case, stored, reason) => {
    const error = await expectLeakFreeException(cipher.decrypt(stored, CONTEXT), [stored]);
    expect(error.message).toMatch(reason);
    expect(error.message).toContain(`"${CONTEXT}"`);
    expect(error.code).toBe(0);
  });

  it('a value encrypted under a key that was replaced under the same id', async () => {
    const stored = await createAesGcmCipher([{ id: 'current', key: newKeyText() }]).encrypt(
      'secret',
      CONTEXT,
    );
    const error = await expectLeakFreeException(cipher.decrypt(stored, CONTEXT), [stored]);
    expect(error.message).toMatch(/authentication failed under key "current"/);
  });

  it('a value of a key that is no longer configured, readable again once it is', async () => {
    const retired = { id: 'retired', key: newKeyText() };
    const stored = await createAesGcmCipher([retired]).encrypt('whsec_abcdefgh12345678', CONTEXT);
    await expectLeakFreeException(cipher.decrypt(stored, CONTEXT), [stored, 'whsec_abcdefgh12345678']);
    expect(await createAesGcmCipher([...keys, retired]).decrypt(stored, CONTEXT)).toBe(
      'whsec_abcdefgh12345678',
    );
  });

  it('never throws synchronously, even for arguments of the wrong type', async () => {
    const loose = cipher as unknown as { decrypt(a: unknown, b: unknown): Promise<string> };
    const encryptLoose = cipher as unknown as { encrypt(a: unknown, b: unknown): Promise<string> };
    for (const call of [
      () => loose.decrypt(42, CONTEXT),
      () => loose.decrypt('enc:v1:x:y', undefined),
      () => encryptLoose.encrypt(null, CONTEXT),
      () => encryptLoose.encrypt('x', 7),
    ]) {
      let result: Promise<string> | undefined;
      expect(() => {
        result = call();
      }).not.toThrow();
      await expect(result).rejects.toThrow();
    }
  });
});

describe('createAesGcmCipher: encrypt', () => {
  const cipher = createAesGcmCipher([{ id: 'k1', key: newKeyText() }]);

  it('rejects (400) a lone surrogate, which UTF-8 cannot carry, without echoing the text', async () => {
    const plain = 'sk_live_0123456789\uD800abcdef';
    const error = await expectLeakFreeException(cipher.encrypt(plain, CONTEXT), [
      plain,
      'sk_live_0123456789',
    ]);
    expect(error.code).toBe(400);
    expect(error.message).toMatch(/the plain text has a lone surrogate/);
  });

  it('keeps a leading byte order mark, NUL and astral characters', async () => {
    for (const plain of ['\uFEFFkey', '\0', '😀\u{10FFFF}', '']) {
      expect(await cipher.decrypt(await cipher.encrypt(plain, CONTEXT), CONTEXT)).toBe(plain);
    }
  });
});

describe('createAesGcmCipher: interoperability (standard AES-256-GCM, checked against node:crypto)', () => {
  const keyBytes = randomBytes(32);
  const cipher = createAesGcmCipher([{ id: 'k1', key: keyBytes.toString('base64') }]);

  it('node:crypto decrypts what the cipher writes', async () => {
    const stored = await cipher.encrypt('Grüße, 世界 😀', CONTEXT);
    const payload = Buffer.from(parseStored(stored).payload);
    const decipher = createDecipheriv('aes-256-gcm', keyBytes, payload.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(CONTEXT, 'utf8'));
    decipher.setAuthTag(payload.subarray(payload.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(payload.subarray(IV_BYTES, -TAG_BYTES)), decipher.final()]);
    expect(plain.toString('utf8')).toBe('Grüße, 世界 😀');
  });

  it('the cipher decrypts what node:crypto writes in the documented form', async () => {
    const iv = randomBytes(IV_BYTES);
    const encryptor = createCipheriv('aes-256-gcm', keyBytes, iv);
    encryptor.setAAD(Buffer.from(CONTEXT, 'utf8'));
    const body = Buffer.concat([encryptor.update('rk_test_51H', 'utf8'), encryptor.final()]);
    const stored = `enc:v1:k1:${Buffer.concat([iv, body, encryptor.getAuthTag()]).toString('base64url')}`;
    expect(await cipher.decrypt(stored, CONTEXT)).toBe('rk_test_51H');
  });
});

describe('createAesGcmCipher: the native engine and WebCrypto', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('on Node, runs AES-GCM natively: WebCrypto is never called', async () => {
    const encrypt = vi.spyOn(globalThis.crypto.subtle, 'encrypt');
    const decrypt = vi.spyOn(globalThis.crypto.subtle, 'decrypt');
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    const cipher = createAesGcmCipher([{ id: 'k1', key: newKeyText() }]);
    expect(await cipher.decrypt(await cipher.encrypt('sk_live_1', CONTEXT), CONTEXT)).toBe('sk_live_1');
    expect([encrypt, decrypt, importKey].map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it('each reads what the other writes, and both refuse the same altered texts', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, contextArbitrary, fc.nat(), async (plain, context, position) => {
        const key = [{ id: 'k1', key: newKeyText() }];
        const native = createAesGcmCipher(key);
        const web = aesGcmCipher(key, 'webcrypto');
        const fromNative = await native.encrypt(plain, context);
        const fromWeb = await web.encrypt(plain, context);
        expect(await web.decrypt(fromNative, context)).toBe(plain);
        expect(await native.decrypt(fromWeb, context)).toBe(plain);
        expect(fromNative.length).toBe(fromWeb.length);
        // One character of the data changed: both refuse it.
        const data = fromNative.lastIndexOf(':') + 1;
        const at = data + (position % (fromNative.length - data));
        const altered = `${fromNative.slice(0, at)}${fromNative[at] === 'A' ? 'B' : 'A'}${fromNative.slice(at + 1)}`;
        await expect(native.decrypt(altered, context)).rejects.toThrow();
        await expect(web.decrypt(altered, context)).rejects.toThrow();
      }),
      { numRuns: RUNS },
    );
  });
});

describe('createAesGcmCipher: keys', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('on WebCrypto, imports each key once, lazily, also under concurrent use', async () => {
    const oldKey = { id: 'old', key: newKeyText() };
    const storedOld = await createAesGcmCipher([oldKey]).encrypt('before rotation', CONTEXT);
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');

    const cipher = aesGcmCipher([{ id: 'new', key: newKeyText() }, oldKey], 'webcrypto');
    expect(importKey).not.toHaveBeenCalled();
    const stored = await Promise.all(
      Array.from({ length: 20 }, (_, index) => cipher.encrypt(`v${index}`, CONTEXT)),
    );
    expect(importKey).toHaveBeenCalledTimes(1);
    await Promise.all(stored.map((text) => cipher.decrypt(text, CONTEXT)));
    expect(importKey).toHaveBeenCalledTimes(1);
    await Promise.all([cipher.decrypt(storedOld, CONTEXT), cipher.decrypt(storedOld, CONTEXT)]);
    expect(importKey).toHaveBeenCalledTimes(2);
    const [, , algorithm, extractable, usages] = importKey.mock.calls[0]!;
    expect(algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    expect(extractable).toBe(false);
    expect(usages).toEqual(['encrypt', 'decrypt']);
  });

  it('does not show its keys when logged or serialised', () => {
    const key = newKeyText();
    const cipher = createAesGcmCipher([{ id: 'k1', key }]);
    expect(inspect(cipher, { showHidden: true, depth: 5 })).not.toContain(key);
    expect(JSON.stringify(cipher)).not.toContain(key);
  });

  it('accepts a key in standard or URL-safe base64, padded or not: the same key', async () => {
    const bytes = randomBytes(32);
    const forms = [
      bytes.toString('base64'),
      bytes.toString('base64').replace(/=+$/, ''),
      bytes.toString('base64url'),
      `${bytes.toString('base64url')}=`,
    ];
    const stored = await createAesGcmCipher([{ id: 'k', key: forms[0]! }]).encrypt('same key', CONTEXT);
    for (const key of forms) {
      expect(await createAesGcmCipher([{ id: 'k', key }]).decrypt(stored, CONTEXT)).toBe('same key');
    }
  });
});
