import { decodeBase64Url, encodeBase64Url } from 'commerce-plugin-framework/adapter-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../../src/settings/secrets/base64';

const bytesArbitrary = fc.uint8Array({ maxLength: 100 });

describe('base64url', () => {
  it('encodes as Node’s Buffer does, without padding', () => {
    fc.assert(
      fc.property(bytesArbitrary, (bytes) => {
        expect(encodeBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
      { numRuns: 200 },
    );
  });

  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(bytesArbitrary, (bytes) => {
        expect(decodeBase64Url(encodeBase64Url(bytes))).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });

  it('accepts exactly one text per byte sequence: anything else is undefined', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12, unit: fc.constantFrom(...'AQgw_-+/=. é') }), (text) => {
        const bytes = decodeBase64Url(text);
        if (bytes) expect(encodeBase64Url(bytes)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['a length of 4n+1', 'AAAAA'],
    ['padding', 'AA=='],
    ['non-zero unused bits (2 characters)', 'AB'],
    ['non-zero unused bits (3 characters)', 'AAB'],
    ['the standard alphabet', 'ab+/'],
    ['white space', 'AAAA AAAA'],
    ['a line break', 'AAAA\nAAAA'],
    ['a non-ASCII character', 'AAAé'],
  ])('refuses %s', (_case, text) => {
    expect(decodeBase64Url(text)).toBeUndefined();
  });

  it('decodes the empty text to no bytes', () => {
    expect(decodeBase64Url('')).toEqual(new Uint8Array(0));
    expect(encodeBase64Url(new Uint8Array(0))).toBe('');
  });
});

describe('decodeBase64 (standard alphabet, optional padding: the key form)', () => {
  it('decodes Node’s base64, padded or not', () => {
    fc.assert(
      fc.property(bytesArbitrary, (bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        expect(decodeBase64(text, 'base64', 'optional')).toEqual(bytes);
        expect(decodeBase64(text.replace(/=+$/, ''), 'base64', 'optional')).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['padding that does not complete a group of four', 'AAA=='],
    ['too much padding', 'AA==='],
    ['padding in the middle', 'AA==AAAA'],
    ['padding where none is allowed', 'AA=='],
    ['the URL-safe alphabet', 'ab-_'],
  ])('refuses %s', (name, text) => {
    const padding = name.includes('none is allowed') ? 'none' : 'optional';
    expect(decodeBase64(text, 'base64', padding)).toBeUndefined();
  });
});
