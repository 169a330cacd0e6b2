/**
 * AES-256-GCM with a 128-bit tag under the keys of a key ring, as the cipher needs it: sealing
 * gives the ciphertext followed by the tag, opening checks the tag and gives the plain bytes (or
 * throws). Two engines: the runtime's native `node:crypto` where it offers one (synchronous,
 * no thread hop) and WebCrypto everywhere else. Both give the same bytes for the same input.
 */
export interface AesGcmEngine {
  /** `plain` sealed under key `id` with `iv`, authenticating `additionalData`: ciphertext ‖ 16-byte tag. */
  seal(
    id: string,
    iv: Uint8Array<ArrayBuffer>,
    additionalData: Uint8Array<ArrayBuffer>,
    plain: Uint8Array<ArrayBuffer>,
  ): Uint8Array | Promise<Uint8Array>;
  /** The plain bytes of `sealed` (ciphertext ‖ tag); throws (or rejects) when the tag does not match. */
  open(
    id: string,
    iv: Uint8Array<ArrayBuffer>,
    additionalData: Uint8Array<ArrayBuffer>,
    sealed: Uint8Array<ArrayBuffer>,
  ): Uint8Array | Promise<Uint8Array>;
}

/** The tag's length: the full 128 bits (WebCrypto's default; stated explicitly, some runtimes differ). */
export const AES_GCM_TAG_BITS = 128;

/** The tag's length in bytes. */
export const AES_GCM_TAG_BYTES = AES_GCM_TAG_BITS / 8;
