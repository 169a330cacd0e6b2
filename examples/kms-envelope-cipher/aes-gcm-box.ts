/**
 * AES-256-GCM with a random 96-bit IV, as one byte string `IV ‖ ciphertext ‖ tag`: what the
 * envelope cipher stores per value and what the KMS stand-in returns per wrapped data key.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts `plain` under `key`, authenticating `additionalData` too.
 *
 * @returns `IV (12 bytes) ‖ ciphertext ‖ tag (16 bytes)`
 */
export async function sealAesGcm(
  key: CryptoKey,
  plain: Uint8Array<ArrayBuffer>,
  additionalData: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData, tagLength: TAG_BYTES * 8 },
    key,
    plain,
  );
  const box = new Uint8Array(IV_BYTES + sealed.byteLength);
  box.set(iv);
  box.set(new Uint8Array(sealed), IV_BYTES);
  return box;
}

/**
 * Decrypts a box of {@link sealAesGcm}.
 *
 * @returns the plain bytes, or `undefined` when the box is too short, altered, of another key
 *   or of other additional data
 */
export async function openAesGcm(
  key: CryptoKey,
  box: Uint8Array<ArrayBuffer>,
  additionalData: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (box.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: box.subarray(0, IV_BYTES), additionalData, tagLength: TAG_BYTES * 8 },
      key,
      box.subarray(IV_BYTES),
    );
    return new Uint8Array(plain);
  } catch {
    return undefined;
  }
}
