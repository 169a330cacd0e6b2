/**
 * `cpf migrate [plugin] [--dry-run]`: brings the stored settings to the code's schema version
 * (CONTRACT §11) and prints the report — one plugin's, or `[{ plugin, …report }]` for every plugin
 * with settings — with a progress line on a terminal while it runs.
 */
import type { MigrationReport } from '../../settings/schema-versions/settings-migration';
import { printJson, printText } from '../cli-io';
import { actorOf, type CommandContext } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { withElapsed } from '../output/progress';
import { renderTable } from '../output/table';

/** `migrate`'s options. */
export interface MigrateCommandOptions {
  readonly dryRun?: boolean;
  readonly actor?: string;
}

/** A report with its plugin's id. */
type PluginReport = { readonly plugin: string } & MigrationReport;

function renderReport(report: PluginReport, context: CommandContext): string {
  const { colours } = context.io;
  const head = `${colours.bold(report.plugin)}: schema ${report.from} → ${report.to}${report.dry_run ? colours.yellow(' (dry run: nothing stored)') : ''}`;
  if (report.steps.length === 0) return `${head}\n${colours.dim('nothing to migrate')}`;
  const rows = report.steps.map((step) => [
    String(step.version),
    step.name,
    String(step.levels),
    String(step.changed),
  ]);
  return `${head}\n${renderTable(['version', 'step', 'levels', 'changed'], rows, colours)}`;
}

/** Runs `cpf migrate`. */
export async function migrate(
  context: CommandContext,
  pluginId: string | undefined,
  options: MigrateCommandOptions,
): Promise<ExitCode> {
  const { io } = context;
  if (pluginId !== undefined) context.settings(pluginId);
  const plugins = pluginId === undefined ? context.pluginsWithSettings() : [context.plugin(pluginId)];
  const reports: PluginReport[] = [];
  for (const plugin of plugins) {
    const settings = plugin.getSettingsHandler()!;
    let levels = 0;
    const label = () => `migrating ${plugin.getId()}${levels > 0 ? ` (${levels} levels)` : ''}`;
    const report = await withElapsed(io.stderr, label, () =>
      settings.migrate({
        dryRun: options.dryRun === true,
        actor: actorOf(options.actor),
        onProgress: (progress) => {
          levels = progress.levels;
        },
      }),
    );
    reports.push({ plugin: plugin.getId(), ...report });
  }
  if (io.json) {
    if (pluginId === undefined) await printJson(io, reports);
    else {
      const { plugin: _plugin, ...report } = reports[0]!;
      await printJson(io, report);
    }
    return EXIT.ok;
  }
  await printText(io, reports.map((report) => renderReport(report, context)).join('\n\n'));
  return EXIT.ok;
}
