/**
 * `cpf set <plugin> <id> [value]`: stores a value at the level (`--scope`), the value parsed as
 * JSON when it parses, else text; a secret's only from standard input (`--stdin`).
 */
import type { CommandContext } from '../command-context';
import { actorOf, scopeOf } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { valueToWrite } from '../value-input';
import { printWritten } from './write-output';

/** `set`'s and `unset`'s options. */
export interface WriteCommandOptions {
  readonly scope?: string;
  readonly ifMatch?: string;
  readonly actor?: string;
  readonly stdin?: boolean;
}

/** `--if-match`: `*`, or entity tags; a bare tag (without its quotes) is quoted. */
export function ifMatchOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '*' || trimmed.includes('"')) return trimmed;
  return trimmed
    .split(',')
    .map((tag) => `"${tag.trim()}"`)
    .join(', ');
}

/** Runs `cpf set`. */
export async function set(
  context: CommandContext,
  pluginId: string,
  id: string,
  argument: string | undefined,
  options: WriteCommandOptions,
): Promise<ExitCode> {
  const scope = scopeOf(options.scope);
  const settings = context.settings(pluginId);
  const value = await valueToWrite(
    settings,
    id,
    { argument, stdin: options.stdin === true },
    context.io.stdin,
  );
  const level = settings.level(scope);
  const ifMatch = ifMatchOf(options.ifMatch);
  const { setting, etag } = await level.putSetting(id, value, {
    actor: actorOf(options.actor),
    via: 'api',
    ...(ifMatch === undefined ? {} : { ifMatch }),
  });
  const origin = setting.origin !== undefined ? setting.origin : await level.getOrigin(id);
  await printWritten(
    context.io,
    pluginId,
    setting,
    origin,
    'stored',
    etag,
    settings.getSetting(id)?.isSecret() === true,
  );
  return EXIT.ok;
}
