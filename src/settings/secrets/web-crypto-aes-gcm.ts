import { AES_GCM_TAG_BITS, type AesGcmEngine } from './aes-gcm-engine';

/**
 * The WebCrypto engine (`globalThis.crypto.subtle`: Node 20+, Bun, Deno, browsers, edge
 * runtimes). Each key is imported as a non-extractable key on first use, and its raw bytes are
 * wiped once imported.
 *
 * @param subtle - the runtime's WebCrypto
 * @param keyBytes - the raw 32-byte keys by id (wiped as they are imported)
 */
export function webCryptoAesGcm(
  subtle: SubtleCrypto,
  keyBytes: ReadonlyMap<string, Uint8Array<ArrayBuffer>>,
): AesGcmEngine {
  /** Key bytes not imported yet; an id leaves this map (its bytes zeroed) once imported. */
  const pendingBytes = new Map(keyBytes);
  const imported = new Map<string, Promise<CryptoKey>>();

  /** The WebCrypto key for an id, imported on first use; the raw bytes are wiped after. */
  function cryptoKey(id: string): Promise<CryptoKey> {
    let key = imported.get(id);
    if (!key) {
      const bytes = pendingBytes.get(id)!;
      key = subtle.importKey('raw', bytes, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      imported.set(id, key);
      key.then(
        () => {
          pendingBytes.delete(id);
          bytes.fill(0);
        },
        () => imported.delete(id),
      );
    }
    return key;
  }

  /** `subtle.encrypt` or `subtle.decrypt` under key `id`, as bytes. */
  async function run(
    operation: 'encrypt' | 'decrypt',
    id: string,
    iv: Uint8Array<ArrayBuffer>,
    additionalData: Uint8Array<ArrayBuffer>,
    data: Uint8Array<ArrayBuffer>,
  ): Promise<Uint8Array> {
    const algorithm = { name: 'AES-GCM', iv, additionalData, tagLength: AES_GCM_TAG_BITS };
    return new Uint8Array(await subtle[operation](algorithm, await cryptoKey(id), data));
  }

  return {
    seal: (id, iv, additionalData, plain) => run('encrypt', id, iv, additionalData, plain),
    open: (id, iv, additionalData, sealed) => run('decrypt', id, iv, additionalData, sealed),
  };
}
