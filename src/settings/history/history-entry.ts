/** Who made a write: the authenticated user (REST, admin) or what the plugin's code says. */
export interface WriteActor {
  /** The user's id. */
  readonly id: string | number;
}

/**
 * Through which interface a change was made: `rest`, `admin`, `api` (the plugin's own code),
 * `migration` (a schema migration, CONTRACT §11) or `import` (an applied import or restore plan, §13).
 */
export type WriteVia = 'rest' | 'admin' | 'api' | 'migration' | 'import';

/**
 * One accepted change of a stored value (CONTRACT §9), appended in the same atomic step as the
 * change. A secret's non-null `old` and `new` are `"********"`.
 */
export interface HistoryEntry {
  /** A unique id, usable as `getHistory({ before })`. */
  readonly id: string;
  /** When the change was made: ISO 8601, UTC. */
  readonly at: string;
  /** The setting changed. */
  readonly setting_id: string;
  /** The scope path the change was made at; `null` for the global value. */
  readonly scope: string | null;
  /** `update` stored a value, `delete` removed it. */
  readonly action: 'update' | 'delete';
  /** The typed value before; `null` when nothing (readable) was stored. */
  readonly old: unknown;
  /** The typed value after; `null` for a delete. */
  readonly new: unknown;
  /** Who made it (`{ id }`), or `null` when not known. */
  readonly actor: { readonly id: string | number } | null;
  /** `rest`, `admin`, `api` (the plugin's own code), `migration` or `import`. */
  readonly via: WriteVia;
}

/**
 * What a history entry keeps, besides what it shows, so that a restore can bring the value back
 * (CONTRACT §13): the storage texts of a value the entry masks — a secret's, or a value of an id
 * no longer registered — sealed by the cipher (context: the log name and the entry id), or, for
 * an unregistered id without a cipher, as stored. Never shown: entries are read through
 * {@link parseEntry}, which drops it.
 */
export interface SealedValues {
  /** The text before the change (sealed), absent when nothing was stored or it is not kept. */
  readonly old?: string;
  /** The text after the change (sealed), absent for a delete or when it is not kept. */
  readonly new?: string;
  /** `true`: the texts are kept as they were stored (no cipher to seal them with). */
  readonly asStored?: true;
}

/** A history entry as stored: the entry and, hidden, what a restore needs of masked values. */
export interface StoredHistoryEntry extends HistoryEntry {
  /** The masked values' texts, sealed (see {@link SealedValues}). */
  readonly sealed?: SealedValues;
}

let lastTime = 0;
let sequence = 0;
/** 48 random bits drawn once per process (12 hex characters): what keeps ids of different processes apart. */
let processTag: string | undefined;

function drawProcessTag(): string {
  const random = new Uint8Array(6);
  crypto.getRandomValues(random);
  let hex = '';
  for (const byte of random) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

/**
 * A new entry id: the time in milliseconds (base 36, fixed width), a per-process sequence (base
 * 36, restarting every millisecond) and a random tag drawn once per process, so ids sort by
 * creation time within a process, never repeat within it (time and sequence), and never repeat
 * across processes (the tag). No random bytes are drawn per entry.
 */
export function newEntryId(now = Date.now()): string {
  if (now <= lastTime) {
    // The same millisecond, or the clock stepped back: keep counting on the last time.
    sequence++;
    now = lastTime;
  } else {
    lastTime = now;
    sequence = 0;
  }
  processTag ??= drawProcessTag();
  return `${now.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(3, '0')}${processTag}`;
}

/** Reads a stored entry with what it keeps hidden; `null` for text that is not one (a foreign or damaged entry is skipped). */
export function parseStoredEntry(text: string): StoredHistoryEntry | null {
  try {
    const entry = JSON.parse(text) as Partial<StoredHistoryEntry> | null;
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof entry.id !== 'string' ||
      typeof entry.setting_id !== 'string' ||
      (entry.action !== 'update' && entry.action !== 'delete')
    ) {
      return null;
    }
    return entry as StoredHistoryEntry;
  } catch {
    return null;
  }
}

/** Reads a stored entry as it may be shown (its sealed values dropped); `null` for text that is not one. */
export function parseEntry(text: string): HistoryEntry | null {
  const entry = parseStoredEntry(text);
  if (entry === null || entry.sealed === undefined) return entry;
  const { sealed: _hidden, ...shown } = entry;
  return shown;
}
