import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/** What a store without the optional capabilities cannot do (docs/stores.md). */
export type StoreFeature = 'conditional writes' | 'atomic batches' | 'history';

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
      `${store} cannot do ${feature}: it needs the optional OptionStore capabilities (commit${feature === 'history' ? ' and readLog' : ''})`,
      501,
    );
    this.name = 'UnsupportedByStoreError';
    this.feature = feature;
  }
}
