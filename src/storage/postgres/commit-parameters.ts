import type { StoreCommit } from '../store-commit';

/** The condition modes of a write as the commit statement reads them. */
export const ConditionMode = {
  /** No condition. */
  None: 0,
  /** The key must hold nothing. */
  Absent: 1,
  /** The key must hold exactly the expected text. */
  Equal: 2,
} as const;

/** The bound parameters of a commit statement, in statement order (see `optionTableSql`). */
export type CommitParameters = unknown[];

/**
 * The parameters of `commit` (without a log) or `commitWithLog`: parallel arrays of keys, values
 * (null: delete), expected texts and condition modes, the channel and payload of the one
 * notification, and for a log its name, the entries to append (the newest `keep` of them, oldest
 * first) and how many existing entries stay.
 */
export function commitParameters(commit: StoreCommit, channel: string, payload: string): CommitParameters {
  const keys: string[] = [];
  const values: Array<string | null> = [];
  const expects: Array<string | null> = [];
  const modes: number[] = [];
  for (const { key, value, expect } of commit.writes) {
    keys.push(key);
    values.push(value);
    expects.push(typeof expect === 'string' ? expect : null);
    modes.push(
      expect === undefined
        ? ConditionMode.None
        : expect === null
          ? ConditionMode.Absent
          : ConditionMode.Equal,
    );
  }
  const parameters: CommitParameters = [keys, values, expects, modes, channel, payload];
  const log = commit.log;
  if (log !== undefined && log.entries.length > 0) {
    const appended = log.entries.slice(-log.keep);
    parameters.push(log.name, appended, log.keep - appended.length);
  }
  return parameters;
}

/** Whether the commit appends log entries (and so runs `commitWithLog`). */
export function appendsLog(commit: StoreCommit): boolean {
  return commit.log !== undefined && commit.log.entries.length > 0;
}
