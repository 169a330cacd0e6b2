import { openAesGcm, sealAesGcm } from './aes-gcm-box';
import type { KeyManagementService } from './key-management-service';

/** Authenticated with every wrapped key, as a KMS encryption context would be. */
const WRAPPING_CONTEXT = new TextEncoder().encode('LocalKmsStandIn data key');

/** How often each call was made: what a real KMS would bill and rate-limit. */
export interface KmsCallCounts {
  /** Calls of `encryptDataKey` (new data keys wrapped). */
  readonly encryptDataKey: number;
  /** Calls of `decryptDataKey` (data keys unwrapped). */
  readonly decryptDataKey: number;
}

/**
 * A stand-in for a key management service, for tests and local development: the master key
 * is a non-extractable AES-256-GCM key that lives in this object (in a real KMS it never
 * leaves the service), and every call is counted.
 *
 * A wrapped key is `IV (12 bytes) ‖ AES-GCM(master key, data key) ‖ tag (16 bytes)`.
 */
export class LocalKmsStandIn implements KeyManagementService {
  readonly #masterKey: Promise<CryptoKey>;
  #encryptCalls = 0;
  #decryptCalls = 0;

  /** Creates the stand-in with a fresh random master key. */
  constructor() {
    this.#masterKey = crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
  }

  /** How often each call was made so far. */
  get calls(): KmsCallCounts {
    return { encryptDataKey: this.#encryptCalls, decryptDataKey: this.#decryptCalls };
  }

  /** {@inheritDoc KeyManagementService.encryptDataKey} */
  async encryptDataKey(dataKey: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
    this.#encryptCalls++;
    return sealAesGcm(await this.#masterKey, dataKey, WRAPPING_CONTEXT);
  }

  /** {@inheritDoc KeyManagementService.decryptDataKey} */
  async decryptDataKey(wrappedKey: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
    this.#decryptCalls++;
    const dataKey = await openAesGcm(await this.#masterKey, wrappedKey, WRAPPING_CONTEXT);
    if (!dataKey) {
      throw new Error('LocalKmsStandIn: the data key was not wrapped by this master key, or was altered');
    }
    return dataKey;
  }
}
