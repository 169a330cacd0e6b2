/**
 * The two calls an envelope cipher needs from a key management service: wrap a data key
 * under a master key that never leaves the service, and unwrap it again.
 *
 * AWS KMS (`Encrypt`/`Decrypt`, or `GenerateDataKey`), Google Cloud KMS
 * (`encrypt`/`decrypt`), HashiCorp Vault transit (`transit/encrypt/:name`,
 * `transit/decrypt/:name`) and an HSM all offer them; see this folder's README.
 */
export interface KeyManagementService {
  /**
   * Encrypts ("wraps") a data key under the service's master key.
   *
   * @param dataKey - the plain data key bytes (32 for AES-256)
   * @returns the wrapped key, opaque bytes that only {@link KeyManagementService.decryptDataKey} opens
   */
  encryptDataKey(dataKey: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>>;

  /**
   * Decrypts ("unwraps") a data key wrapped by {@link KeyManagementService.encryptDataKey}.
   *
   * @param wrappedKey - the wrapped key as stored
   * @returns the plain data key bytes
   * @throws (as a rejection) when the service cannot unwrap it: another master key, altered bytes
   */
  decryptDataKey(wrappedKey: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>>;
}
