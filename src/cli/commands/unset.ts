/** `cpf unset <plugin> <id>`: removes the value stored at the level (`--scope`), which then inherits. */
import type { CommandContext } from '../command-context';
import { actorOf, scopeOf } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { ifMatchOf, type WriteCommandOptions } from './set';
import { printWritten } from './write-output';

/** Runs `cpf unset` (exit 0 when nothing was stored, too). */
export async function unset(
  context: CommandContext,
  pluginId: string,
  id: string,
  options: WriteCommandOptions,
): Promise<ExitCode> {
  const scope = scopeOf(options.scope);
  const settings = context.settings(pluginId);
  const level = settings.level(scope);
  const ifMatch = ifMatchOf(options.ifMatch);
  const removed = await level.deleteValue(id, {
    actor: actorOf(options.actor),
    via: 'api',
    ...(ifMatch === undefined ? {} : { ifMatch }),
  });
  const [setting, origin, etag] = await Promise.all([
    level.getSettingObject(id),
    level.getOrigin(id),
    level.getETag(id),
  ]);
  await printWritten(
    context.io,
    pluginId,
    setting,
    origin,
    removed ? 'removed: it inherits now' : 'nothing was stored',
    etag,
    settings.getSetting(id)?.isSecret() === true,
  );
  return EXIT.ok;
}
