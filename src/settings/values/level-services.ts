import type { OptionStoreOperation } from '../../errors/option-store-error';
import type { OptionStore } from '../../storage/option-store';
import type { TagSalt } from '../etag/tag-salt';
import type { SettingsSchema } from '../schema/settings-schema';
import type { SecretCipher } from '../secrets/secret-cipher';

/** What the value levels and the write path of one settings container share. */
export interface LevelServices {
  /** The registered settings and their keys. */
  readonly schema: SettingsSchema;
  /** The store. */
  readonly store: OptionStore;
  /** The cipher of secret settings, if any. */
  readonly cipher: SecretCipher | undefined;
  /** The salt of the entity tags, loaded with the global values. */
  readonly salt: TagSalt;
  /** Runs one store call; any failure becomes an `OptionStoreError` naming `operation`. */
  call<T>(operation: OptionStoreOperation, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` (which makes store calls through `call`) after every earlier operation on `keys` of this
   * container, within the store time limit. When the work succeeds only after the time limit, the levels holding `keys` are marked stale.
   */
  queued<T>(operation: OptionStoreOperation, keys: readonly string[], work: () => Promise<T>): Promise<T>;
}
