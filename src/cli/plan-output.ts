/** How `plan`, `apply` and `restore` show plans: the diff on a terminal, JSON otherwise. */
import type { SettingsPlan } from '../settings/config/settings-plan';
import { type OutputStream, writeText } from './cli-io';
import type { CommandContext } from './command-context';
import type { Colours } from './output/colour';
import { planSummary, renderPlanDiff } from './output/plan-diff';
import { plansDigest } from './plan-files';

/**
 * The plans as a diff: each plan's lines under its `plugin: <id>` header, then `id <id>` (the
 * plan's id, or for an array file the digest `--plan-id` takes) and a summary line.
 */
export function renderPlans(
  context: CommandContext,
  plans: readonly SettingsPlan[],
  array: boolean,
  colours: Colours,
): string {
  const blocks = plans.map((plan) =>
    renderPlanDiff(plan, (id) => context.settings(plan.plugin).getSetting(id)?.isSecret() === true, colours),
  );
  const id = array ? plansDigest(plans) : (plans[0]?.id ?? '');
  return [...blocks, `${colours.dim('id')} ${id}\n${planSummary(plans)}`].join('\n\n');
}

/** Writes the readable plans to `stream`. */
export function showPlans(
  context: CommandContext,
  plans: readonly SettingsPlan[],
  array: boolean,
  stream: OutputStream,
  colours: Colours,
): Promise<void> {
  return writeText(stream, `${renderPlans(context, plans, array, colours)}\n`);
}
