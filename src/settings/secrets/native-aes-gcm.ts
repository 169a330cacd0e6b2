import { builtinModule } from '../builtin-module';
import { AES_GCM_TAG_BYTES, type AesGcmEngine } from './aes-gcm-engine';

/** The parts of `node:crypto` this engine uses (declared here: the root entry imports no `node:` module). */
interface NodeCrypto {
  createSecretKey(key: Uint8Array): object;
  createCipheriv(
    algorithm: 'aes-256-gcm',
    key: object,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): {
    setAAD(data: Uint8Array): unknown;
    update(data: Uint8Array): Uint8Array;
    final(): Uint8Array;
    getAuthTag(): Uint8Array;
  };
  createDecipheriv(
    algorithm: 'aes-256-gcm',
    key: object,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): {
    setAAD(data: Uint8Array): unknown;
    setAuthTag(tag: Uint8Array): unknown;
    update(data: Uint8Array): Uint8Array;
    final(): Uint8Array;
  };
}

/** The runtime's `node:crypto` when it has AES-GCM with key objects (see `builtinModule`). */
function nodeCrypto(): NodeCrypto | undefined {
  const crypto = builtinModule<NodeCrypto>('crypto');
  return typeof crypto?.createCipheriv === 'function' &&
    typeof crypto.createDecipheriv === 'function' &&
    typeof crypto.createSecretKey === 'function'
    ? (crypto as NodeCrypto)
    : undefined;
}

/**
 * The native engine: `node:crypto` AES-256-GCM, synchronous (a write of a secret encrypts up to
 * three times and decrypts once: through WebCrypto each is a hop to the thread pool and back,
 * here a few microseconds). The keys become key objects at once (held outside the JavaScript
 * heap) and their raw bytes are wiped. `undefined` where the runtime has no `node:crypto`, or
 * it refuses the keys: the cipher then uses WebCrypto.
 *
 * @param keyBytes - the raw 32-byte keys by id (wiped once they are key objects)
 */
export function nativeAesGcm(
  keyBytes: ReadonlyMap<string, Uint8Array<ArrayBuffer>>,
): AesGcmEngine | undefined {
  const crypto = nodeCrypto();
  if (crypto === undefined) return undefined;
  const keys = new Map<string, object>();
  try {
    for (const [id, bytes] of keyBytes) keys.set(id, crypto.createSecretKey(bytes));
  } catch {
    return undefined;
  }
  for (const bytes of keyBytes.values()) bytes.fill(0);
  const options = { authTagLength: AES_GCM_TAG_BYTES };
  return {
    seal(id, iv, additionalData, plain) {
      const cipher = crypto.createCipheriv('aes-256-gcm', keys.get(id)!, iv, options);
      cipher.setAAD(additionalData);
      const head = cipher.update(plain);
      const tail = cipher.final();
      const tag = cipher.getAuthTag();
      const sealed = new Uint8Array(head.length + tail.length + AES_GCM_TAG_BYTES);
      sealed.set(head);
      sealed.set(tail, head.length);
      sealed.set(tag, head.length + tail.length);
      return sealed;
    },
    open(id, iv, additionalData, sealed) {
      const decipher = crypto.createDecipheriv('aes-256-gcm', keys.get(id)!, iv, options);
      decipher.setAAD(additionalData);
      decipher.setAuthTag(sealed.subarray(sealed.length - AES_GCM_TAG_BYTES));
      const head = decipher.update(sealed.subarray(0, sealed.length - AES_GCM_TAG_BYTES));
      const tail = decipher.final();
      if (tail.length === 0) return head;
      const plain = new Uint8Array(head.length + tail.length);
      plain.set(head);
      plain.set(tail, head.length);
      return plain;
    },
  };
}
