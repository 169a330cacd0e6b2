import { randomBytes } from 'node:crypto';
import { type AesGcmKey, createAesGcmCipher, Framework_Plugin_Exception } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { newKeyText } from './support/cipher-arbitraries';

/** Calls `createAesGcmCipher(keys)`, expects a synchronous 400, and checks the message leaks no key text. */
function creationError(keys: unknown, keyTexts: readonly string[]): Framework_Plugin_Exception {
  let caught: unknown;
  try {
    createAesGcmCipher(keys as AesGcmKey[]);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Framework_Plugin_Exception);
  const error = caught as Framework_Plugin_Exception;
  expect(error.code).toBe(400);
  expect(error.message).toMatch(/^createAesGcmCipher: /);
  for (const text of keyTexts.filter((key) => key.length > 0)) {
    expect(error.message).not.toContain(text);
    expect(error.message).not.toContain(text.replace(/=+$/, ''));
  }
  return error;
}

const good = () => ({ id: 'good', key: newKeyText() });

describe('createAesGcmCipher refuses, synchronously, a key list it cannot use', () => {
  it.each([16, 31, 33, 0, 64])('a key of %i bytes, naming the key by id and never showing it', (length) => {
    const key = randomBytes(length).toString('base64');
    const error = creationError([good(), { id: 'short-or-long', key }], [key]);
    expect(error.message).toContain('keys[1] (id "short-or-long")');
    expect(error.message).toContain(`decodes to ${length} bytes; AES-256 needs 32`);
  });

  const bytes = randomBytes(32);
  it.each([
    ['not base64', `${bytes.toString('hex').slice(0, 40)}!!!!`],
    ['a trailing line break', `${bytes.toString('base64')}\n`],
    ['white space inside', `${bytes.toString('base64').slice(0, 20)} ${bytes.toString('base64').slice(20)}`],
    ['both alphabets mixed', `${bytes.toString('base64').slice(0, 40)}+-_A`],
    ['broken padding', `${bytes.toString('base64').replace(/=$/, '')}==`],
    ['non-zero unused bits', `${bytes.toString('base64').slice(0, 42)}B=`],
  ])('a key that is %s', (_case, key) => {
    const error = creationError([{ id: 'k1', key }], [key]);
    expect(error.message).toContain('keys[0] (id "k1"): key is not base64');
  });

  it.each([
    ['an empty list', []],
    ['no list', undefined],
    ['an object instead of a list', { id: 'k1', key: 'x' }],
  ])('%s', (_case, keys) => {
    expect(creationError(keys, []).message).toContain('the key list must be a non-empty array');
  });

  it('duplicate ids, naming both positions', () => {
    const first = newKeyText();
    const second = newKeyText();
    const error = creationError(
      [
        { id: 'k1', key: first },
        { id: 'k1', key: second },
      ],
      [first, second],
    );
    expect(error.message).toContain('keys[1] (id "k1"): the id is already used by keys[0]');
  });

  it('a key in hex, with a hint', () => {
    const key = bytes.toString('hex');
    const error = creationError([{ id: 'k1', key }], [key]);
    expect(error.message).toContain('decodes to 48 bytes; AES-256 needs 32 (this looks like hex');
  });

  it.each([
    ['with a colon', 'k:1'],
    ['empty', ''],
    ['of 65 characters', 'k'.repeat(65)],
    ['with white space', 'k 1'],
    ['with a non-ASCII letter', 'schlüssel'],
    ['a number', 7],
    ['missing', undefined],
  ])('an id %s, naming the key by position', (_case, id) => {
    const key = newKeyText();
    const error = creationError(
      [good(), { id, key }],
      [key, String(id)].filter((text) => text.length > 1),
    );
    expect(error.message).toContain('keys[1].id must be 1 to 64 characters of A-Z a-z 0-9 _ . -');
  });

  it('a key that is not a string', () => {
    expect(creationError([{ id: 'k1', key: 42 }], []).message).toContain('key must be a string');
  });

  it('id and key swapped: the id, which is key text, is not shown', () => {
    const key = randomBytes(32).toString('base64url');
    const error = creationError([{ id: key, key: 'k1' }], [key]);
    expect(error.message).toContain('keys[0]: key is not base64');
  });

  it('a 64-character id of the documented charset is fine', () => {
    expect(() => createAesGcmCipher([{ id: `${'A'.repeat(60)}_.-9`, key: newKeyText() }])).not.toThrow();
  });
});
