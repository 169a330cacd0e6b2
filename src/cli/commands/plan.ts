/**
 * `cpf plan <file> [--prune]`: what importing the file would change, as a diff or JSON (the plan,
 * or an array of plans for an array file). Exit 0 without changes, 1 with changes, 3 when a plan
 * has errors (the plans are printed all the same).
 */
import { printJson } from '../cli-io';
import type { CommandContext } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { planDocuments, readDocumentFile } from '../plan-files';
import { showPlans } from '../plan-output';

/** `plan`'s options. */
export interface PlanOptions {
  readonly prune?: boolean;
}

/** Runs `cpf plan`. */
export async function plan(context: CommandContext, path: string, options: PlanOptions): Promise<ExitCode> {
  const { io } = context;
  const file = await readDocumentFile(path);
  const plans = await planDocuments(context, file, options.prune === true);
  if (io.json) await printJson(io, file.array ? plans : plans[0]);
  else await showPlans(context, plans, file.array, io.stdout, io.colours);
  if (plans.some((one) => one.errors.length > 0)) return EXIT.refused;
  return plans.some((one) => one.changes.length > 0) ? EXIT.changes : EXIT.ok;
}
