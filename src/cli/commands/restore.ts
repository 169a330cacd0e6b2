/**
 * `cpf restore <plugin> [ids...] --to <time|entry>`: the plan that brings the values back to what
 * they were at `--to` (every level, or `--scope`; every setting, or the ids given), then as `apply`.
 */
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { RestoreOptions } from '../../settings/config/plan-restore';
import { ScopeNotFoundError } from '../../settings/scope/scope-not-found';
import { type ApplyOptions, confirmAndApply } from '../apply-flow';
import { CliError } from '../cli-error';
import { type CommandContext, scopeOf } from '../command-context';
import { oneLine } from '../error-mapping';
import { EXIT, type ExitCode } from '../exit-codes';

/** `restore`'s options. */
export interface RestoreCommandOptions extends ApplyOptions {
  /** `--to <time|entry>`: an ISO 8601 time, or a history entry id (the state right after it). */
  readonly to: string;
  /** `--scope <path>`: that level only (`''`: the global level only); without it every level. */
  readonly scope?: string;
}

/** Runs `cpf restore`. */
export async function restore(
  context: CommandContext,
  pluginId: string,
  ids: readonly string[],
  options: RestoreCommandOptions,
): Promise<ExitCode> {
  const settings = context.settings(pluginId);
  const request: RestoreOptions = {
    to: options.to,
    ...(options.scope === undefined ? {} : { scope: scopeOf(options.scope) || null }),
    ...(ids.length === 0 ? {} : { settingIds: ids }),
  };
  const plan = await settings.planRestore(request).catch((error: unknown) => {
    if (
      error instanceof Framework_Plugin_Exception &&
      error.code === 404 &&
      !(error instanceof ScopeNotFoundError)
    ) {
      throw new CliError('rest_history_not_found', oneLine(error.message), EXIT.notFound);
    }
    throw error;
  });
  return confirmAndApply(context, [plan], false, options);
}
