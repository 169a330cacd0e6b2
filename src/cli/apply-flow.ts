/**
 * What `apply` and `restore` share once their plans are made (CONTRACT §14): refuse plans with
 * errors (exit 3) or a `--plan-id` that is not theirs (exit 4), show them, ask unless `--yes`
 * (refusing off a terminal), then apply each plan with changes.
 */
import type { SettingsPlan } from '../settings/config/settings-plan';
import { CliError, usageError } from './cli-error';
import { printJson, printText } from './cli-io';
import { actorOf, type CommandContext } from './command-context';
import { reportError } from './error-mapping';
import { EXIT, type ExitCode } from './exit-codes';
import { reviewedId } from './plan-files';
import { showPlans } from './plan-output';
import { canAsk, confirm } from './prompt';

/** The options of `apply` and `restore`. */
export interface ApplyOptions {
  readonly planId?: string;
  readonly yes?: boolean;
  readonly actor?: string;
}

/** One plan's outcome (what JSON mode prints). */
interface Applied {
  readonly plan: SettingsPlan;
  readonly applied: number;
}

/** Prints the outcome: `{ plan, applied }`, or an array of them for an array file; a line on a terminal. */
async function printOutcome(
  context: CommandContext,
  results: readonly Applied[],
  array: boolean,
  note?: string,
): Promise<void> {
  const { io } = context;
  if (io.json) {
    await printJson(io, array ? results : results[0]);
    return;
  }
  if (note !== undefined) {
    await printText(io, note);
    return;
  }
  const lines = results.map(
    ({ plan, applied }) =>
      `${io.colours.green('applied')} ${applied} change${applied === 1 ? '' : 's'} to ${plan.plugin}`,
  );
  await printText(io, lines.join('\n'));
}

/** Checks, shows, confirms and applies `plans` (one per plugin; `array`: they came from an array file). */
export async function confirmAndApply(
  context: CommandContext,
  plans: readonly SettingsPlan[],
  array: boolean,
  options: ApplyOptions,
): Promise<ExitCode> {
  const { io } = context;
  const errors = plans.reduce((sum, plan) => sum + plan.errors.length, 0);
  if (errors > 0) {
    if (!io.json) await showPlans(context, plans, array, io.stdout, io.colours);
    throw new CliError(
      'rest_plan_invalid',
      `The plan has ${errors} error${errors === 1 ? '' : 's'}: nothing was stored.`,
      EXIT.refused,
    );
  }
  const id = reviewedId(plans, array);
  if (options.planId !== undefined && options.planId !== id) {
    throw new CliError(
      'rest_precondition_failed',
      `The plan changed since it was reviewed (its id is now ${id}): nothing was stored.`,
      EXIT.precondition,
    );
  }
  const changes = plans.reduce((sum, plan) => sum + plan.changes.length, 0);
  const none = plans.map((plan) => ({ plan, applied: 0 }));
  if (changes === 0) {
    await printOutcome(context, none, array, io.colours.dim('No change: nothing to apply.'));
    return EXIT.ok;
  }
  if (options.yes !== true) {
    if (!canAsk(io)) throw usageError('Refusing to apply without --yes: standard input is not a terminal.');
    // The plans are shown where the person reads: standard output, or standard error in JSON mode.
    if (io.json) await showPlans(context, plans, array, io.stderr, io.errorColours);
    else await showPlans(context, plans, array, io.stdout, io.colours);
    if (!(await confirm(`Apply ${changes} change${changes === 1 ? '' : 's'}?`))) {
      await printOutcome(context, none, array, 'Nothing applied.');
      return EXIT.ok;
    }
  } else if (!io.json) {
    await showPlans(context, plans, array, io.stdout, io.colours);
  }
  const results: Applied[] = [];
  for (const plan of plans) {
    if (plan.changes.length === 0) {
      results.push({ plan, applied: 0 });
      continue;
    }
    try {
      const { applied } = await context
        .settings(plan.plugin)
        .applyPlan(plan, { actor: actorOf(options.actor) });
      results.push({ plan, applied });
    } catch (error) {
      if (results.length === 0) throw error;
      const reported = reportError(error);
      const done = results.map((result) => `${result.plan.plugin} (${result.applied})`).join(', ');
      throw new CliError(reported.code, `${reported.message} Already applied: ${done}.`, reported.exitCode);
    }
  }
  await printOutcome(context, results, array);
  return EXIT.ok;
}
