import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { OptionStoreError } from '../../errors/option-store-error';
import type { Framework_Abstract_Settings } from '../abstract-settings';
import { ifMatchHolds } from '../etag/entity-tag';
import type { SettingsCore } from '../settings-core';
import { type BatchFailure, BatchRejectedError } from './batch-rejected';
import type { PendingChange } from './pending-change';
import { PreconditionFailedError } from './precondition-failed';
import { callInWriteContext, nestedWriteContext } from './write-context';
import type { WriteOutcome } from './write-coordinator';
import type { SettingChange, WriteOptions } from './write-options';

/**
 * Calls the container's `updateValue` — a subclass override included — for `scope`, with the
 * options and (in a batch) the capture in a write context, so the base class receives them
 * whatever the override passes on. Resolves to the outcome of the write the base made (none
 * when the override did not call it, or in a batch).
 */
export function invokeUpdate(
  container: Framework_Abstract_Settings,
  id: string,
  value: unknown,
  options: WriteOptions | undefined,
  scope: string,
  capture: PendingChange[] | null,
): Promise<WriteOutcome | undefined> {
  const context = nestedWriteContext(container, container, id, options, scope, capture);
  return callInWriteContext(context, container, container.updateValue, [id, value, options]).then(
    () => context.report.outcome,
  );
}

/** Calls the container's `deleteValue` (an override included) for `scope`, as {@link invokeUpdate} does. */
export function invokeDelete(
  container: Framework_Abstract_Settings,
  id: string,
  options: WriteOptions | undefined,
  scope: string,
  capture: PendingChange[] | null,
): Promise<{ removed: boolean; outcome: WriteOutcome | undefined }> {
  const context = nestedWriteContext(container, container, id, options, scope, capture);
  return callInWriteContext(context, container, container.deleteValue, [id, options]).then((removed) => ({
    removed,
    outcome: context.report.outcome,
  }));
}

/** What {@link checkChanges} found: the writes the container's methods would make, and the refused changes. */
export interface CheckedChanges {
  /** What the base methods collected (an override's normalised values included), the last per setting. */
  readonly captured: PendingChange[];
  /** Every refused change, in order. */
  readonly failures: BatchFailure[];
}

/**
 * Runs every change at `scope` through the container's `updateValue`/`deleteValue` (overrides
 * included) in a capturing context: each is checked exactly like a single write and nothing is
 * written. Store failures are thrown; refusals are collected.
 */
export async function checkChanges(
  container: Framework_Abstract_Settings,
  scope: string,
  changes: readonly SettingChange[],
  options: WriteOptions | undefined,
): Promise<CheckedChanges> {
  const capture: PendingChange[] = [];
  const failures: BatchFailure[] = [];
  const seen = new Set<string>();
  for (const change of changes) {
    if (seen.has(change.id)) {
      failures.push({
        id: change.id,
        error: new Framework_Plugin_Exception(`Setting "${change.id}" appears twice in the batch`, 400),
      });
      continue;
    }
    seen.add(change.id);
    try {
      if ('delete' in change && change.delete === true) {
        await invokeDelete(container, change.id, options, scope, capture);
      } else {
        await invokeUpdate(
          container,
          change.id,
          (change as { value: unknown }).value,
          options,
          scope,
          capture,
        );
      }
    } catch (error) {
      if (error instanceof Framework_Plugin_Exception && !(error instanceof OptionStoreError)) {
        failures.push({ id: change.id, error });
      } else {
        throw error;
      }
    }
  }
  // The last capture of a setting wins (an override may write a setting more than once).
  const last = new Map<string, PendingChange>();
  for (const pending of capture) last.set(`${pending.setting.getId()}@${pending.scope}`, pending);
  return { captured: [...last.values()], failures };
}

/**
 * A batch at `scope`: every change runs through the container's `updateValue`/`deleteValue`
 * (overrides included) in a capturing context, so each is checked exactly like a single write
 * and nothing is written; when none was refused, everything the base methods collected is stored
 * in one atomic step. An `ifMatch` compares with the tag of every setting at the level.
 *
 * @param checkOnly - only run the checks (overrides included), store nothing
 * @throws {@link BatchRejectedError} (400) listing every refused change; nothing is stored then
 */
export async function applyBatch(
  container: Framework_Abstract_Settings,
  core: SettingsCore,
  scope: string,
  changes: readonly SettingChange[],
  options: WriteOptions | undefined,
  checkOnly = false,
): Promise<WriteOutcome> {
  const { ifMatch, ...batchOptions } = options ?? {};
  const { captured, failures } = await checkChanges(container, scope, changes, batchOptions);
  if (failures.length > 0) throw new BatchRejectedError(failures);
  if (checkOnly) return { changed: [], states: new Map() };
  if (captured.length === 0) {
    // Nothing to write (a secret's mask sent back): an If-Match must still name the current state.
    if (ifMatch !== undefined && ifMatch.trim() !== '*') {
      const tag = await core.listTagOf(scope);
      if (!ifMatchHolds(ifMatch, tag, true)) throw new PreconditionFailedError('batch', tag);
    }
    return { changed: [], states: new Map() };
  }
  const scopes = new Set(captured.map((item) => item.scope));
  if (scopes.size > 1) {
    throw new Framework_Plugin_Exception(
      'A batch writes one level; an override wrote to several scopes',
      400,
    );
  }
  return core.writes.write(captured, {
    ...batchOptions,
    ...(ifMatch === undefined ? {} : { ifMatch, ifMatchOf: 'list' as const }),
  });
}
