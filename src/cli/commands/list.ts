/** `cpf list [plugin]`: the plugins, or one plugin's settings with the value in effect and its origin. */
import { printJson, printText } from '../cli-io';
import { type CommandContext, scopeOf } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { renderTable } from '../output/table';
import { originName, valueText } from '../output/value-text';

/** `list`'s options. */
export interface ListOptions {
  readonly scope?: string;
}

/** One setting as `list <plugin>` gives it (JSON). */
export interface ListedSetting {
  readonly id: string;
  readonly type: string;
  readonly value: unknown;
  readonly origin: string | null;
}

async function listPlugins(context: CommandContext): Promise<ExitCode> {
  const { io, config } = context;
  const plugins = config.plugins.map((plugin) => ({
    id: plugin.getId(),
    name: plugin.getName(),
    version: plugin.getVersion(),
  }));
  if (io.json) {
    await printJson(io, plugins);
    return EXIT.ok;
  }
  const rows = config.plugins.map((plugin) => [
    plugin.getId(),
    plugin.getName(),
    plugin.getVersion(),
    String(plugin.getSettingsHandler()?.getSettings().size ?? io.colours.dim('—')),
  ]);
  await printText(io, renderTable(['plugin', 'name', 'version', 'settings'], rows, io.colours));
  return EXIT.ok;
}

/** Runs `cpf list [plugin] [--scope <path>]`. */
export async function list(
  context: CommandContext,
  pluginId: string | undefined,
  options: ListOptions,
): Promise<ExitCode> {
  if (pluginId === undefined) return listPlugins(context);
  const { io } = context;
  const scope = scopeOf(options.scope);
  const settings = context.settings(pluginId);
  const level = settings.level(scope);
  const objects = await level.getSettingObjects();
  const listed: ListedSetting[] = await Promise.all(
    objects.map(async (object) => ({
      id: object.id,
      type: object.type,
      value: object.value,
      origin: object.origin !== undefined ? object.origin : await level.getOrigin(object.id),
    })),
  );
  if (io.json) {
    await printJson(io, listed);
    return EXIT.ok;
  }
  const { colours } = io;
  const rows = listed.map((setting) => {
    const secret = settings.getSetting(setting.id)?.isSecret() === true;
    const type = setting.type + (settings.getSetting(setting.id)?.isMulti() ? '[]' : '');
    const origin = originName(setting.origin);
    return [
      setting.id,
      colours.dim(type),
      valueText(setting.value, secret),
      setting.origin === null
        ? colours.dim(origin)
        : setting.origin === scope
          ? colours.cyan(origin)
          : origin,
    ];
  });
  const title = `${pluginId}${scope === '' ? '' : ` at ${scope}`}`;
  await printText(
    io,
    `${colours.bold(title)}\n${renderTable(['setting', 'type', 'value', 'origin'], rows, colours)}`,
  );
  return EXIT.ok;
}
