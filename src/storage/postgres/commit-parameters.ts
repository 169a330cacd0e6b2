import { type BoundedAppend, boundAppend } from '../log-bounds';
import type { VersionedMessage } from '../remote/change-message';
import { commitLogs, type StoreCommit, type StoreLogAppend, type StoreWrite } from '../store-commit';
import { booleanArrayLiteral, integerArrayLiteral, textArrayLiteral } from './array-literal';
import type { CommitShape } from './commit-statement';

/** The condition modes of a write as the commit statement reads them. */
export const ConditionMode = {
  /** No condition. */
  None: 0,
  /** The key must hold nothing. */
  Absent: 1,
  /** The key must hold exactly the expected text. */
  Equal: 2,
} as const;

/** A commit as the store sends it: the statement's shape and its bound parameters, in statement order. */
export interface CommitRequest {
  /** Which commit statement runs it. */
  readonly shape: CommitShape;
  /** The parameters, in the order `commitStatement` numbers them. */
  readonly values: unknown[];
}

/** How {@link commitRequest} decides whether a commit trims its logs. */
export interface CommitRequestOptions {
  /** Send the trim steps whatever was drawn (the store's second try after a log's bounds changed). */
  readonly forceTrims?: boolean;
  /** Draws whether a log that is sent `sent` entries and keeps `keep` is trimmed. Default {@link drawLazyTrim}. */
  readonly draw?: (sent: number, keep: number) => boolean;
}

/**
 * The statement shape and parameters of `commit`: parallel arrays of keys, values (null:
 * delete), expected texts and condition modes, the channel and payload of the one notification
 * (a versioned one's head and tail);
 * with checks, their keys and texts; with logs, each log's fields and entries as its bounds let
 * them stay, and (when it trims: a trim drawn, entries dropped, or `forceTrims`) the trims drawn
 * (see `commitStatement`).
 */
export function commitRequest(
  commit: StoreCommit,
  channel: string,
  payload: string | VersionedMessage,
  options: CommitRequestOptions = {},
): CommitRequest {
  const single = commit.writes.length === 1 && commit.writes[0]!.value !== null;
  const parameters: unknown[] = single ? singleWriteParameters(commit.writes[0]!) : writeParameters(commit);
  const versioned = typeof payload !== 'string';
  if (versioned) parameters.push(channel, payload.head, payload.tail);
  else parameters.push(channel, payload);
  const checks = commit.checks ?? [];
  if (checks.length > 0) {
    parameters.push(
      textArrayLiteral(checks.map((check) => check.key)),
      textArrayLiteral(checks.map((check) => check.expect)),
    );
  }
  const logs = appendedLogs(commit);
  const bounded = logs.map(boundAppend);
  const draw = options.draw ?? drawLazyTrim;
  const draws = logs.map((log, index) => draw(bounded[index]!.entries.length, log.keep));
  const trims =
    logs.length > 0 &&
    (options.forceTrims === true || draws.some(Boolean) || bounded.some((kept) => kept.dropped > 0));
  const byteBound = logs.some((log) => log.maxBytes !== undefined);
  const sharedBounds = logs.length > 1 && haveSharedBounds(logs);
  const drawn = trims ? draws : null;
  if (logs.length === 1) parameters.push(...oneLogParameters(logs[0]!, bounded[0]!, drawn?.[0]));
  else if (logs.length > 1) parameters.push(...logParameters(logs, bounded, byteBound, sharedBounds, drawn));
  return {
    shape: {
      single,
      checks: checks.length > 0,
      logs: logs.length === 0 ? 'none' : logs.length === 1 ? 'one' : 'many',
      byteBound,
      ...(sharedBounds ? { sharedBounds } : {}),
      ...(trims ? { trims } : {}),
      ...(versioned ? { versioned } : {}),
    },
    values: parameters,
  };
}

/** Whether every one of `logs` has the `keep` and `maxBytes` of the first. */
function haveSharedBounds(logs: readonly StoreLogAppend[]): boolean {
  const [first] = logs;
  return logs.every((log) => log.keep === first!.keep && log.maxBytes === first!.maxBytes);
}

/** The condition mode of a write. */
function conditionMode(expect: string | null | undefined): number {
  return expect === undefined
    ? ConditionMode.None
    : expect === null
      ? ConditionMode.Absent
      : ConditionMode.Equal;
}

/** The key, text, expected text and condition mode of the one write of a `single` commit. */
function singleWriteParameters({ key, value, expect }: StoreWrite): unknown[] {
  return [key, value, typeof expect === 'string' ? expect : null, conditionMode(expect)];
}

/** The parallel arrays of keys, texts (null: delete), expected texts and condition modes. */
function writeParameters(commit: StoreCommit): unknown[] {
  const keys: string[] = [];
  const values: Array<string | null> = [];
  const expects: Array<string | null> = [];
  const modes: number[] = [];
  for (const { key, value, expect } of commit.writes) {
    keys.push(key);
    values.push(value);
    expects.push(typeof expect === 'string' ? expect : null);
    modes.push(conditionMode(expect));
  }
  return [
    textArrayLiteral(keys),
    textArrayLiteral(values),
    textArrayLiteral(expects),
    integerArrayLiteral(modes),
  ];
}

/**
 * How many trims a log gets, on average, while `keep` entries are appended to it: a commit trims
 * a log it sends `n` entries to with a chance of `LAZY_TRIMS × n / keep` (see `logSql` in
 * `commit-statement.ts`), so a log holds about `keep × (1 + 1 / LAZY_TRIMS)` entries at most
 * between trims, and a trim walks about `keep / LAZY_TRIMS` entries beyond the kept ones.
 */
export const LAZY_TRIMS = 8;

/** Whether a commit sending `sent` entries to a log that keeps `keep` trims it (drawn at random). */
export function drawLazyTrim(sent: number, keep: number): boolean {
  return Math.random() * keep < LAZY_TRIMS * sent;
}

/** The fields of the one log a commit appends to (`drawn`: whether it trims, in a trim shape only). */
function oneLogParameters(
  log: StoreLogAppend,
  bounded: BoundedAppend,
  drawn: boolean | undefined,
): unknown[] {
  return [
    log.name,
    log.keep,
    ...(log.maxBytes === undefined ? [] : [log.maxBytes]),
    bounded.dropped,
    bounded.entries.length,
    bounded.bytes,
    ...(drawn === undefined ? [] : [drawn]),
    textArrayLiteral(bounded.entries),
    bounded.tags === undefined ? null : textArrayLiteral(bounded.tags),
  ];
}

/**
 * The per-log and per-entry arrays of the logs a commit appends to; with `sharedBounds`, their one
 * `keep` and `maxBytes` as scalars instead of arrays and the entries' texts as one JSON array.
 */
function logParameters(
  logs: readonly StoreLogAppend[],
  kept: readonly BoundedAppend[],
  byteBound: boolean,
  sharedBounds: boolean,
  drawn: readonly boolean[] | null,
): unknown[] {
  const names: string[] = [];
  const keeps: number[] = [];
  const maxBytes: Array<number | null> = [];
  const dropped: number[] = [];
  const added: number[] = [];
  const bytes: number[] = [];
  const entryLogs: string[] = [];
  const entries: string[] = [];
  const tags: Array<string | null> = [];
  const entryKeeps: number[] = [];
  const entryMaxBytes: Array<number | null> = [];
  logs.forEach((log, at) => {
    const bounded = kept[at]!;
    names.push(log.name);
    keeps.push(log.keep);
    maxBytes.push(log.maxBytes ?? null);
    dropped.push(bounded.dropped);
    added.push(bounded.entries.length);
    bytes.push(bounded.bytes);
    bounded.entries.forEach((entry, index) => {
      entryLogs.push(log.name);
      entries.push(entry);
      tags.push(bounded.tags?.[index] ?? null);
      if (!sharedBounds) {
        entryKeeps.push(log.keep);
        entryMaxBytes.push(log.maxBytes ?? null);
      }
    });
  });
  const bounds = sharedBounds
    ? [keeps[0], ...(byteBound ? [maxBytes[0]] : [])]
    : [integerArrayLiteral(keeps), ...(byteBound ? [integerArrayLiteral(maxBytes)] : [])];
  const entryBounds = sharedBounds
    ? []
    : [integerArrayLiteral(entryKeeps), ...(byteBound ? [integerArrayLiteral(entryMaxBytes)] : [])];
  return [
    textArrayLiteral(names),
    ...bounds,
    integerArrayLiteral(dropped),
    integerArrayLiteral(added),
    integerArrayLiteral(bytes),
    ...(drawn === null ? [] : [booleanArrayLiteral(drawn)]),
    textArrayLiteral(entryLogs),
    sharedBounds ? entriesJson(entries) : textArrayLiteral(entries),
    textArrayLiteral(tags),
    ...entryBounds,
  ];
}

/** A surrogate standing alone (with `u`, a pair is one code point, not matched). */
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * `entries` as one JSON array for the statement to take apart. A lone surrogate, which JSON
 * escapes and PostgreSQL then refuses, is stored as U+FFFD, as the driver stores it in a text[]
 * parameter.
 */
function entriesJson(entries: readonly string[]): string {
  const json = JSON.stringify(entries);
  // JSON.stringify escapes a lone surrogate as \udXXX (a pair stays as it is).
  if (!/\\u[dD][89a-fA-F]/.test(json)) return json;
  return JSON.stringify(entries.map((entry) => entry.replace(LONE_SURROGATE, '\ufffd')));
}

/** The logs of `commit` that get entries. */
function appendedLogs(commit: StoreCommit): StoreLogAppend[] {
  return commitLogs(commit).filter((log) => log.entries.length > 0);
}
