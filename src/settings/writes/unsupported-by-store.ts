import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/** What a store without the optional capabilities cannot do (docs/stores.md). */
export type StoreFeature =
  | 'conditional writes'
  | 'atomic batches'
  | 'history'
  | 'migrations'
  | 'applying plans'
  | 'listing scopes';

/** The capabilities each feature needs. */
const NEEDS: Readonly<Record<StoreFeature, string>> = {
  'conditional writes': 'commit',
  'atomic batches': 'commit',
  history: 'commit and readLog',
  migrations: 'commit, and scan or listKeys',
  'applying plans': 'commit',
  'listing scopes': 'scan or listKeys',
};

/**
 * The store lacks a capability a call needs (code 501): If-Match and atomic batches need
 * `OptionStore.commit`, history needs `commit` and `readLog`. Nothing was stored.
 */
export class UnsupportedByStoreError extends Framework_Plugin_Exception {
  /** What the store cannot do. */
  readonly feature: StoreFeature;

  /**
   * @param feature - what the store cannot do
   * @param store - the store's name
   */
  constructor(feature: StoreFeature, store: string) {
    super(
      `${store} cannot do ${feature}: it needs the optional OptionStore capabilities (${NEEDS[feature]})`,
      501,
    );
    this.name = 'UnsupportedByStoreError';
    this.feature = feature;
  }
}
brandClass(UnsupportedByStoreError, 'UnsupportedByStoreError');
