import type { OptionStore } from '../../storage/option-store';
import type { StoreCommitResult, StoreWrite } from '../../storage/store-commit';

/**
 * A write without `commit` failed midway AND putting back the writes already made failed too:
 * some of the writes may be in the store. `cause` is the original failure.
 */
export class PartialWriteError extends Error {
  /** @param cause - the failure that stopped the writes */
  constructor(cause: unknown) {
    super(
      `A write failed midway and the writes already made could not all be put back: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'PartialWriteError';
  }
}

/**
 * The write path's commit on a store without the `commit` capability: the writes one after the
 * other with `set`/`delete`, their conditions not checked and no history kept. When one fails,
 * the writes already made are put back (in reverse order, best effort) and the failure is
 * rethrown — as a {@link PartialWriteError} when putting back failed too. Not atomic: another
 * reader may see part of it (see docs/stores.md).
 *
 * @param previous - the text each key held before (`undefined`: nothing), to put back
 */
export async function applyWithoutCommit(
  store: OptionStore,
  writes: readonly StoreWrite[],
  previous: ReadonlyMap<string, string | undefined>,
): Promise<StoreCommitResult> {
  const applied: StoreWrite[] = [];
  try {
    for (const write of writes) {
      if (write.value === null) await store.delete(write.key);
      else await store.set(write.key, write.value);
      applied.push(write);
    }
  } catch (error) {
    let restored = true;
    for (const write of applied.reverse()) {
      const text = previous.get(write.key);
      try {
        if (text === undefined) await store.delete(write.key);
        else await store.set(write.key, text);
      } catch {
        restored = false;
      }
    }
    throw restored ? error : new PartialWriteError(error);
  }
  return { ok: true };
}
