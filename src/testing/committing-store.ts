import type { OptionStore } from '../storage/option-store';
import type { StoreCommitResult } from '../storage/store-commit';
import type { Skip, SuiteTools } from './suite-tools';

/** A store with the `commit` and `readLog` capabilities. */
export type CommittingStore = OptionStore & Required<Pick<OptionStore, 'commit' | 'readLog'>>;

/** Whether `store` has `commit` and `readLog`. */
export function hasCommit(store: OptionStore): store is CommittingStore {
  return typeof store.commit === 'function' && typeof store.readLog === 'function';
}

/** The refused result's current texts, as a plain object for readable failures (`undefined` when it was applied). */
export function currentOf(result: StoreCommitResult): Record<string, string | null> | undefined {
  return result.ok ? undefined : Object.fromEntries(result.current);
}

/** Opens a store with the capability, or skips the test (answering `undefined`) for one without. */
export async function openCommitting(tools: SuiteTools, skip: Skip): Promise<CommittingStore | undefined> {
  const store = await tools.open();
  if (hasCommit(store)) return store;
  skip('the store has no commit');
  return undefined;
}

/** Two instances on the same data: `store` and a sibling (or `store` twice, without a sibling factory). */
export async function openTwo(
  tools: SuiteTools,
  store: CommittingStore,
): Promise<[CommittingStore, CommittingStore]> {
  if (!tools.hasSibling) return [store, store];
  const sibling = await tools.openSibling(store);
  if (!hasCommit(sibling)) throw new Error('the sibling has no commit');
  return [store, sibling];
}
