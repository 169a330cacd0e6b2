import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256 } from '../../../src/settings/secrets/hmac-sha256';

const encoder = new TextEncoder();

async function webCryptoHmac(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

describe('sha256 and hmacSha256 (synchronous, plain JavaScript)', () => {
  it('gives the FIPS 180-4 and RFC 4231 test vectors', () => {
    expect(hex(sha256(encoder.encode('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256(new Uint8Array(0)))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    // RFC 4231 test case 2.
    expect(hex(hmacSha256('Jefe', 'what do ya want for nothing?'))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('equals WebCrypto for every length around the block and padding edges', async () => {
    for (let length = 0; length <= 200; length++) {
      const message = 'm'.repeat(length);
      const secret = 's'.repeat(1 + (length % 130)); // short keys, a 64-byte key, keys hashed first
      expect(hex(hmacSha256(secret, message)), `${length}`).toBe(hex(await webCryptoHmac(secret, message)));
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(message)));
      expect(hex(sha256(encoder.encode(message))), `${length}`).toBe(hex(digest));
    }
  });

  it('equals WebCrypto for random keys and messages, any Unicode', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 90 }),
        fc.string({ unit: 'binary', maxLength: 400 }),
        async (secret, message) => {
          expect(hex(hmacSha256(secret, message))).toBe(hex(await webCryptoHmac(secret, message)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('equals WebCrypto for long messages (signed natively where the runtime has node:crypto)', async () => {
    const piece = 'plan 🧾 ü \ud800 "x" ';
    for (const length of [8191, 8192, 8193, 70_000, 1_100_000]) {
      const message = piece.repeat(Math.ceil(length / piece.length)).slice(0, length);
      for (const secret of ['salt', 'k'.repeat(65), 'sä\udc00lt']) {
        expect(hex(hmacSha256(secret, message)), `${length} ${secret.length}`).toBe(
          hex(await webCryptoHmac(secret, message)),
        );
      }
    }
  });
});
