/**
 * The table a {@link PostgresOptionStore} keeps its options in: a checked name, its quoted
 * SQL form and the notification channel derived from it.
 *
 * A name is one identifier or `schema.table`, each part a letter or `_` followed by letters,
 * digits, `_` or `$`, at most 63 bytes (PostgreSQL's identifier limit). The name is quoted in
 * SQL, so it is used exactly as written: `Options` and `options` are two different tables.
 */
export interface OptionTableName {
  /** The name as given, e.g. `options` or `shop.options`. */
  readonly name: string;
  /** The quoted SQL form, e.g. `"shop"."options"`. */
  readonly sql: string;
  /** The LISTEN/NOTIFY channel of the table, e.g. `cpf_options_ef286ca5`. */
  readonly channel: string;
  /**
   * The quoted SQL form of the change-log table beside it, in the same schema: the table's
   * name with `_log` appended, e.g. `"shop"."options_log"` (a name too long for that is cut
   * and made distinct with a hash of the full name).
   */
  readonly logSql: string;
  /**
   * The quoted SQL form of the log heads table beside it: one row per log, with how far it has
   * been trimmed and whether it ever lost entries (`<table>_log_head`, cut and hashed as above).
   */
  readonly logHeadSql: string;
  /**
   * The quoted SQL form of the sequence that numbers the entries of every log of the table
   * (`<table>_log_seq`, cut and hashed as above), owned by the log table's `seq` column.
   */
  readonly logSeqSql: string;
  /**
   * The quoted SQL form of the index of tagged entries that log tables of earlier 0.3 builds
   * have (`<table>_log_tag`): the upgrade drops it (pages are read through the kept window).
   */
  readonly logTagIndexSql: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;
const MAX_IDENTIFIER_BYTES = 63;
const MAX_CHANNEL_STEM = 40;

/**
 * Checks `name` and derives its quoted form and channel.
 *
 * @throws TypeError when `name` is not an identifier or `schema.identifier`
 */
export function optionTableName(name: string): OptionTableName {
  const parts = typeof name === 'string' ? name.split('.') : [];
  const valid =
    parts.length >= 1 &&
    parts.length <= 2 &&
    parts.every((part) => IDENTIFIER.test(part) && part.length <= MAX_IDENTIFIER_BYTES);
  if (!valid) {
    throw new TypeError(
      `PostgresOptionStore: invalid table name ${JSON.stringify(name)}; use an identifier such as ` +
        `"options" or "schema.options" (letters, digits, "_" and "$", not starting with a digit, ` +
        `at most ${MAX_IDENTIFIER_BYTES} characters per part)`,
    );
  }
  const table = parts[parts.length - 1]!;
  const beside = (suffix: string) =>
    [...parts.slice(0, -1), sideTableFor(table, suffix)].map((part) => `"${part}"`).join('.');
  return {
    name,
    sql: parts.map((part) => `"${part}"`).join('.'),
    channel: channelFor(name),
    logSql: beside('_log'),
    logHeadSql: beside('_log_head'),
    logSeqSql: beside('_log_seq'),
    logTagIndexSql: beside('_log_tag'),
  };
}

/**
 * `<table><suffix>`, or, when that exceeds the identifier limit, a cut stem, a hash of the
 * table name and the suffix.
 */
function sideTableFor(table: string, suffix: string): string {
  if (table.length + suffix.length <= MAX_IDENTIFIER_BYTES) return table + suffix;
  const hash = fnv1a32(table).toString(16).padStart(8, '0');
  const stem = table.slice(0, MAX_IDENTIFIER_BYTES - suffix.length - hash.length - 1);
  return `${stem}_${hash}${suffix}`;
}

/**
 * `cpf_<readable stem>_<hash>`: lower case, within the 63-byte channel limit, and distinct
 * for distinct table names (the hash covers the exact name, case and schema included).
 */
function channelFor(name: string): string {
  const stem = name
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, MAX_CHANNEL_STEM);
  return `cpf_${stem}_${fnv1a32(name).toString(16).padStart(8, '0')}`;
}

/** 32-bit FNV-1a over the UTF-16 code units: a short, stable, dependency-free name hash. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
