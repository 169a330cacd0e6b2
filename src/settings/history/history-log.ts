import type { StoreLogAppend } from '../../storage/store-commit';
import type { SecretCipher } from '../secrets/secret-cipher';
import type { SealedValues, StoredHistoryEntry } from './history-entry';

/** How much history each level's log keeps (CONTRACT §9 and the third round). */
export interface HistoryLimits {
  /** At most this many entries (`historyLimit`; 0: no history at all). */
  readonly limit: number;
  /** At most this many bytes of entries (`historyMaxBytes`): the UTF-8 length of their stored form. */
  readonly maxBytes: number;
}

/** The default of `historyMaxBytes`: 1 MiB per level. */
export const DEFAULT_HISTORY_MAX_BYTES = 1024 * 1024;

/**
 * The append of `entries` (oldest first) to the log `name`, with its bounds (`keep`, `maxBytes`)
 * and each entry tagged with its setting id; `undefined` when there is nothing to append. The
 * store applies the bounds (and so knows when the log lost entries: a restore needs to).
 */
export function historyAppend(
  name: string,
  entries: readonly StoredHistoryEntry[],
  limits: HistoryLimits,
): StoreLogAppend | undefined {
  if (limits.limit <= 0 || entries.length === 0) return undefined;
  return {
    name,
    entries: entries.map((entry) => JSON.stringify(entry)),
    tags: entries.map((entry) => entry.setting_id),
    keep: limits.limit,
    maxBytes: limits.maxBytes,
  };
}

/** The cipher context a sealed text of entry `entryId` in log `log` is bound to (`which`: old or new). */
function sealContext(log: string, entryId: string, which: 'old' | 'new'): string {
  return `${log}#${entryId}#${which}`;
}

/**
 * Seals the storage texts of a masked value change with the cipher, bound to the log and the
 * entry (a sealed text copied elsewhere does not open).
 */
export async function sealTexts(
  cipher: SecretCipher,
  log: string,
  entryId: string,
  texts: { readonly old?: string | undefined; readonly new?: string | undefined },
): Promise<SealedValues> {
  const [old, next] = await Promise.all([
    texts.old === undefined ? undefined : cipher.encrypt(texts.old, sealContext(log, entryId, 'old')),
    texts.new === undefined ? undefined : cipher.encrypt(texts.new, sealContext(log, entryId, 'new')),
  ]);
  return { ...(old === undefined ? {} : { old }), ...(next === undefined ? {} : { new: next }) };
}

/** Opens a sealed text of an entry; `undefined` when it cannot be opened. */
export async function unsealText(
  cipher: SecretCipher,
  log: string,
  entryId: string,
  which: 'old' | 'new',
  sealed: string,
): Promise<string | undefined> {
  try {
    const text = await cipher.decrypt(sealed, sealContext(log, entryId, which));
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
