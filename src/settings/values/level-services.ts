import type { OptionStoreOperation } from '../../errors/option-store-error';
import type { OptionStore } from '../../storage/option-store';
import type { StoreCommit, StoreCommitResult } from '../../storage/store-commit';
import type { VersionedTexts } from '../../storage/versioned-reads';
import type { TagSalt } from '../etag/tag-salt';
import type { SettingsSchema } from '../schema/settings-schema';
import type { SchemaVersions } from '../schema-versions/schema-versions';
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
  /** The plugin's schema record as this instance knows it (read along with the first read). */
  readonly versions: SchemaVersions;
  /**
   * Reads `keys` in one `getMany` (as `call` runs it), with each key's version when the store
   * has versioned reads (see `storage/versioned-reads.ts`).
   */
  read(keys: readonly string[]): Promise<VersionedTexts>;
  /** Runs one store call; any failure becomes an `OptionStoreError` naming `operation`. */
  call<T>(operation: OptionStoreOperation, work: () => Promise<T>): Promise<T>;
  /**
   * Runs the store's `commit` (the caller checked the store has it) as `call` does, under
   * `operation` (default `'commit'`); once applied, the container notes the keys it wrote. Every
   * commit of the settings layer goes through here.
   */
  commit(commit: StoreCommit, operation?: OptionStoreOperation): Promise<StoreCommitResult>;
  /**
   * Runs `work` (which makes store calls through `call`) after every earlier operation on `keys` of this
   * container, within the store time limit. When the work succeeds only after the time limit, the levels holding `keys` are marked stale.
   */
  queued<T>(operation: OptionStoreOperation, keys: readonly string[], work: () => Promise<T>): Promise<T>;
}
