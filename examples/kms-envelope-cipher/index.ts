/**
 * A host's own secret cipher: envelope encryption whose data keys are wrapped by a key
 * management service (AWS KMS, Google Cloud KMS, Vault transit…), shown with a local
 * stand-in for the KMS. Written only against the package's public API.
 */
export type { KeyManagementService } from './key-management-service';
export { KmsEnvelopeCipher, type KmsEnvelopeCipherOptions } from './kms-envelope-cipher';
export { type KmsCallCounts, LocalKmsStandIn } from './local-kms-stand-in';
