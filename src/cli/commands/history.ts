/** `cpf history <plugin> [id]`: the change history of a level (`--scope`), newest first. */
import type { HistoryEntry } from '../../settings/history/history-entry';
import { usageError } from '../cli-error';
import { printJson, printText } from '../cli-io';
import { type CommandContext, scopeOf } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { renderTable } from '../output/table';
import { levelName, valueText } from '../output/value-text';

/** `history`'s options. */
export interface HistoryOptions {
  readonly scope?: string;
  /** `--limit <n>`, as typed. */
  readonly limit?: string;
  /** `--before <entry id>`. */
  readonly before?: string;
}

/** `--limit`: a whole number ≥ 1; default 20. */
function limitOf(text: string | undefined): number {
  if (text === undefined) return 20;
  const limit = Number(text);
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw usageError(`--limit must be a whole number ≥ 1, not "${text}".`);
  return limit;
}

/** Runs `cpf history <plugin> [id] [--scope <path>] [--limit <n>] [--before <entry>]`. */
export async function history(
  context: CommandContext,
  pluginId: string,
  id: string | undefined,
  options: HistoryOptions,
): Promise<ExitCode> {
  const { io } = context;
  const limit = limitOf(options.limit);
  const scope = scopeOf(options.scope);
  const settings = context.settings(pluginId);
  const entries: HistoryEntry[] = await settings.getHistory({
    ...(id === undefined ? {} : { settingId: id }),
    ...(scope === '' ? {} : { scope }),
    ...(options.before === undefined ? {} : { before: options.before }),
    limit,
  });
  if (io.json) {
    await printJson(io, entries);
    return EXIT.ok;
  }
  const { colours } = io;
  if (entries.length === 0) {
    await printText(io, colours.dim(`No history at ${levelName(scope)}.`));
    return EXIT.ok;
  }
  const rows = entries.map((entry) => {
    const secret = settings.getSetting(entry.setting_id)?.isSecret() === true;
    const change =
      entry.action === 'delete'
        ? colours.red(`- ${valueText(entry.old, secret)}`)
        : entry.old === null
          ? colours.green(`+ ${valueText(entry.new, secret)}`)
          : colours.yellow(`~ ${valueText(entry.old, secret)} → ${valueText(entry.new, secret)}`);
    return [
      colours.dim(entry.at),
      entry.scope === null ? entry.setting_id : `${entry.scope}/${entry.setting_id}`,
      change,
      entry.actor === null ? colours.dim('—') : String(entry.actor.id),
      entry.via,
      colours.dim(entry.id),
    ];
  });
  await printText(io, renderTable(['at', 'setting', 'change', 'actor', 'via', 'entry'], rows, colours));
  return EXIT.ok;
}
