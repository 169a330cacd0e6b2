import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { OptionStoreError } from '../../errors/option-store-error';
import type { Framework_Abstract_Settings } from '../abstract-settings';
import type { SettingsCore } from '../settings-core';
import { type BatchFailure, BatchRejectedError } from './batch-rejected';
import type { PendingChange } from './pending-change';
import { nestedWriteContext, runInWriteContext } from './write-context';
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
  const context = nestedWriteContext(container, id, options, scope, capture);
  return runInWriteContext(context, () => container.updateValue(id, value, options)).then(
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
  const context = nestedWriteContext(container, id, options, scope, capture);
  return runInWriteContext(context, () => container.deleteValue(id, options)).then((removed) => ({
    removed,
    outcome: context.report.outcome,
  }));
}

/**
 * A batch at `scope`: every change runs through the container's `updateValue`/`deleteValue`
 * (overrides included) in a capturing context, so each is checked exactly like a single write
 * and nothing is written; when none was refused, everything the base methods collected is stored
 * in one atomic step.
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
  const capture: PendingChange[] = [];
  const failures: BatchFailure[] = [];
  const seen = new Set<string>();
  const { ifMatch: _ignored, ...batchOptions } = options ?? {};
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
        await invokeDelete(container, change.id, batchOptions, scope, capture);
      } else {
        await invokeUpdate(
          container,
          change.id,
          (change as { value: unknown }).value,
          batchOptions,
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
  if (failures.length > 0) throw new BatchRejectedError(failures);
  if (checkOnly) return { changed: [], states: new Map() };
  // The last capture of a setting wins (an override may write a setting more than once).
  const last = new Map<string, PendingChange>();
  for (const pending of capture) last.set(`${pending.setting.getId()}@${pending.scope}`, pending);
  const pending = [...last.values()];
  if (pending.length === 0) return { changed: [], states: new Map() };
  const scopes = new Set(pending.map((item) => item.scope));
  if (scopes.size > 1) {
    throw new Framework_Plugin_Exception(
      'A batch writes one level; an override wrote to several scopes',
      400,
    );
  }
  return core.writes.write(pending, batchOptions);
}
