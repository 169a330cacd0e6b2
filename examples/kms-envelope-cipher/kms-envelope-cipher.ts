import { ENCRYPTED_TEXT_PREFIX, type SecretCipher } from 'commerce-plugin-framework';
import { decodeBase64Url, encodeBase64Url } from 'commerce-plugin-framework/adapter-kit';
import { openAesGcm, sealAesGcm } from './aes-gcm-box';
import type { KeyManagementService } from './key-management-service';

/** The storage form: `enc:kms1:<wrapped data key, base64url>:<IV ‖ ciphertext ‖ tag, base64url>`. */
const FORMAT_PREFIX = `${ENCRYPTED_TEXT_PREFIX}kms1:`;
const DATA_KEY_BYTES = 32;
const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Options of a {@link KmsEnvelopeCipher}. */
export interface KmsEnvelopeCipherOptions {
  /** The service that wraps and unwraps data keys. */
  kms: KeyManagementService;
  /**
   * After how many encryptions the cipher starts a new data key (default 10 000). Values
   * under older data keys stay readable: each carries its own wrapped data key.
   */
  maxEncryptionsPerDataKey?: number;
}

/** The data key that currently encrypts: its wrapped form (as stored) and its WebCrypto key. */
interface ActiveDataKey {
  readonly wrappedText: string;
  readonly key: CryptoKey;
}

/**
 * A host's own {@link SecretCipher}: envelope encryption with a key management service.
 *
 * Values are encrypted locally with AES-256-GCM under a data key; the data key is wrapped by
 * the KMS and stored, wrapped, next to every value. The KMS's master key never reaches this
 * process, and the KMS is called once per data key, not once per value:
 * - encrypting: one `encryptDataKey` call per new data key (a new one after
 *   `maxEncryptionsPerDataKey` encryptions, or after {@link KmsEnvelopeCipher.rotateDataKey});
 * - decrypting: one `decryptDataKey` call per distinct wrapped data key, then cached.
 *
 * The storage key (`context`) is the additional authenticated data of every value, so a value
 * copied to another setting does not decrypt.
 */
export class KmsEnvelopeCipher implements SecretCipher {
  readonly #kms: KeyManagementService;
  readonly #maxEncryptionsPerDataKey: number;
  #active: Promise<ActiveDataKey> | undefined;
  #activeEncryptions = 0;
  /** Unwrapped data keys by wrapped text: each is unwrapped by the KMS once. */
  readonly #unwrapped = new Map<string, Promise<CryptoKey>>();

  /** @param options - the KMS and the data-key rotation threshold */
  constructor(options: KmsEnvelopeCipherOptions) {
    const max = options.maxEncryptionsPerDataKey ?? 10_000;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new RangeError('KmsEnvelopeCipher: maxEncryptionsPerDataKey must be a positive integer');
    }
    this.#kms = options.kms;
    this.#maxEncryptionsPerDataKey = max;
  }

  /** Starts a new data key for the next encryption; values under older ones stay readable. */
  rotateDataKey(): void {
    this.#active = undefined;
  }

  /** {@inheritDoc SecretCipher.encrypt} */
  async encrypt(plain: string, context: string): Promise<string> {
    const dataKey = await this.#takeDataKey();
    const box = await sealAesGcm(dataKey.key, utf8.encode(plain), utf8.encode(context));
    return `${FORMAT_PREFIX}${dataKey.wrappedText}:${encodeBase64Url(box)}`;
  }

  /** {@inheritDoc SecretCipher.decrypt} */
  async decrypt(stored: string, context: string): Promise<string> {
    const fields = stored.startsWith(FORMAT_PREFIX) ? stored.slice(FORMAT_PREFIX.length).split(':') : [];
    const [wrappedText = '', data = ''] = fields;
    const wrapped = decodeBase64Url(wrappedText);
    const box = decodeBase64Url(data);
    if (fields.length !== 2 || !wrapped || !box) {
      throw new Error(`KmsEnvelopeCipher: the value under "${context}" is not in the ${FORMAT_PREFIX} form`);
    }
    const plain = await openAesGcm(await this.#unwrap(wrappedText, wrapped), box, utf8.encode(context));
    if (!plain) {
      throw new Error(
        `KmsEnvelopeCipher: the value under "${context}" failed authentication (altered, or another storage key's)`,
      );
    }
    return utf8Strict.decode(plain);
  }

  /** The data key for the next encryption: the active one, or a new one when it is used up. */
  #takeDataKey(): Promise<ActiveDataKey> {
    if (!this.#active || this.#activeEncryptions >= this.#maxEncryptionsPerDataKey) {
      const created = this.#newDataKey();
      this.#active = created;
      this.#activeEncryptions = 0;
      created.catch(() => {
        if (this.#active === created) this.#active = undefined; // a KMS outage: retry next time
      });
    }
    this.#activeEncryptions++;
    return this.#active;
  }

  /** A fresh random data key, wrapped by the KMS (one call) and kept as a non-extractable key. */
  async #newDataKey(): Promise<ActiveDataKey> {
    const bytes = crypto.getRandomValues(new Uint8Array(DATA_KEY_BYTES));
    try {
      const wrappedText = encodeBase64Url(await this.#kms.encryptDataKey(bytes));
      const key = await importDataKey(bytes);
      this.#unwrapped.set(wrappedText, Promise.resolve(key));
      return { wrappedText, key };
    } finally {
      bytes.fill(0);
    }
  }

  /** The data key of a stored value: from the cache, or unwrapped by the KMS (one call per key). */
  #unwrap(wrappedText: string, wrapped: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
    let key = this.#unwrapped.get(wrappedText);
    if (!key) {
      key = this.#kms.decryptDataKey(wrapped).then(async (bytes) => {
        try {
          return await importDataKey(bytes);
        } finally {
          bytes.fill(0);
        }
      });
      this.#unwrapped.set(wrappedText, key);
      key.catch(() => this.#unwrapped.delete(wrappedText)); // not cached: a later try asks the KMS again
    }
    return key;
  }
}

function importDataKey(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bytes, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}
