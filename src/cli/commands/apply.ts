/**
 * `cpf apply <file> [--prune] [--plan-id <id>] [--yes]`: plans every document of the file, shows
 * the plans, asks unless `--yes`, and applies them (`{ plan, applied }`, an array for an array file).
 */
import { type ApplyOptions, confirmAndApply } from '../apply-flow';
import type { CommandContext } from '../command-context';
import type { ExitCode } from '../exit-codes';
import { planDocuments, readDocumentFile } from '../plan-files';

/** `apply`'s options. */
export interface ApplyCommandOptions extends ApplyOptions {
  readonly prune?: boolean;
}

/** Runs `cpf apply`. */
export async function apply(
  context: CommandContext,
  path: string,
  options: ApplyCommandOptions,
): Promise<ExitCode> {
  const file = await readDocumentFile(path);
  const plans = await planDocuments(context, file, options.prune === true);
  return confirmAndApply(context, plans, file.array, options);
}
