/**
 * `cpf rotate-secrets [plugin]`: rewrites the stored secrets under the cipher's first key
 * (`rotateSecrets`) and prints the count, `{ rotated }`; without a plugin, of every plugin whose
 * settings have a cipher.
 */
import { printJson, printText } from '../cli-io';
import type { CommandContext } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';

/** Runs `cpf rotate-secrets`. */
export async function rotateSecrets(
  context: CommandContext,
  pluginId: string | undefined,
): Promise<ExitCode> {
  const { io } = context;
  const targets =
    pluginId === undefined
      ? context.pluginsWithSettings().filter((plugin) => plugin.getSettingsHandler()!.hasSecretCipher())
      : [context.plugin(pluginId)];
  if (pluginId !== undefined) context.settings(pluginId);
  const plugins: { id: string; rotated: number }[] = [];
  for (const plugin of targets) {
    plugins.push({ id: plugin.getId(), rotated: await plugin.getSettingsHandler()!.rotateSecrets() });
  }
  const rotated = plugins.reduce((sum, plugin) => sum + plugin.rotated, 0);
  if (io.json) {
    await printJson(io, { rotated, plugins });
    return EXIT.ok;
  }
  const lines = plugins.map(
    (plugin) => `${plugin.id}: ${plugin.rotated} secret${plugin.rotated === 1 ? '' : 's'} rewritten`,
  );
  await printText(
    io,
    lines.length === 0 ? io.colours.dim('No plugin has a secret cipher.') : lines.join('\n'),
  );
  return EXIT.ok;
}
