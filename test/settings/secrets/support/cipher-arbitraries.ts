/**
 * Shared pieces of the cipher tests: random AES keys and key lists, texts, and a helper that
 * awaits a rejection and checks its message leaks nothing.
 */
import { randomBytes } from 'node:crypto';
import { type AesGcmKey, Framework_Plugin_Exception } from 'commerce-plugin-framework';
import fc from 'fast-check';
import { expect } from 'vitest';

/** Property runs per property: enough to explore, few enough for a file of a few seconds. */
export const RUNS = 150;

/** A fresh random AES-256 key in standard base64, as `openssl rand -base64 32` prints it. */
export function newKeyText(): string {
  return randomBytes(32).toString('base64');
}

/** Key ids of the documented charset, `[A-Za-z0-9_.-]{1,64}`. */
export const keyIdArbitrary = fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/);

/** One key: a random id and 32 random bytes in base64. */
export const keyArbitrary: fc.Arbitrary<AesGcmKey> = fc.record({
  id: keyIdArbitrary,
  key: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64')),
});

/** `minLength` to `maxLength` keys with distinct ids. */
export function keyListArbitrary(minLength: number, maxLength: number): fc.Arbitrary<AesGcmKey[]> {
  return fc.uniqueArray(keyArbitrary, { minLength, maxLength, selector: (key) => key.id });
}

/** Any well-formed string: every code point of the full Unicode range (astral included), or empty. */
export const anyText = fc.string({ unit: 'binary', maxLength: 200 });

/** A text long and random enough that finding it inside an error message would mean a leak. */
export const distinctiveText = fc.string({ unit: 'binary', minLength: 12, maxLength: 120 });

/** A storage key as the settings layer builds them, or any other string. */
export const contextArbitrary = fc.oneof(
  fc.stringMatching(/^[a-z]{1,10}_[a-z]{1,10}_[A-Za-z0-9_-]{1,20}$/),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Characters to tamper with: the base64url alphabet, the separators, and any code point. */
export const tamperCharacters = fc.array(
  fc.oneof(
    fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_:=+/.'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  { minLength: 1, maxLength: 16 },
);

/**
 * `text` with one character changed, once for every position: the character at position i
 * becomes `characters[i % characters.length]` (or `~` where that is the same character).
 */
export function everySingleCharacterChange(text: string, characters: readonly string[]): string[] {
  return Array.from({ length: text.length }, (_, index) => {
    const wanted = characters[index % characters.length]!;
    return text.slice(0, index) + (wanted === text[index] ? '~' : wanted) + text.slice(index + 1);
  });
}

/**
 * Awaits `promise`, expects it to reject with an Error, and checks that the message contains
 * none of `secrets` (stored text, plain text, key text). Secrets shorter than 8 characters are
 * not checked: they could stand in any message by chance.
 */
export async function expectLeakFreeRejection(
  promise: Promise<unknown>,
  secrets: readonly string[],
): Promise<Error> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 40)}`);
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message.length).toBeGreaterThan(0);
  for (const secret of secrets.filter((text) => text.length >= 8)) {
    expect(message.includes(secret), `message leaks: ${message}`).toBe(false);
  }
  return error as Error;
}

/** The same, for errors of the settings layer: also a `Framework_Plugin_Exception`. */
export async function expectLeakFreeException(
  promise: Promise<unknown>,
  secrets: readonly string[],
): Promise<Framework_Plugin_Exception> {
  const error = await expectLeakFreeRejection(promise, secrets);
  expect(error).toBeInstanceOf(Framework_Plugin_Exception);
  return error as Framework_Plugin_Exception;
}
