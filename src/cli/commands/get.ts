/** `cpf get <plugin> <id>`: the value in effect, where it comes from, and its entity tag. */
import { printJson, printText } from '../cli-io';
import { type CommandContext, scopeOf } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { renderPairs } from '../output/table';
import { originName, valueText } from '../output/value-text';
import { effectiveValue } from './effective-value';

/** `get`'s options. */
export interface GetOptions {
  readonly scope?: string;
}

/** What `get` gives (JSON). */
export interface GotValue {
  /** The value in effect (a secret's masked). */
  readonly value: unknown;
  /** Where it comes from, as REST's `origin`: a scope path, `''` global, `null` default. */
  readonly origin: string | null;
  /** The entity tag of its stored state (what `set --if-match` takes). */
  readonly etag: string;
}

/** Runs `cpf get <plugin> <id> [--scope <path>]`. */
export async function get(
  context: CommandContext,
  pluginId: string,
  id: string,
  options: GetOptions,
): Promise<ExitCode> {
  const { io } = context;
  const scope = scopeOf(options.scope);
  const settings = context.settings(pluginId);
  const { value, origin, etag, secret } = await effectiveValue(settings, scope, id);
  const answer: GotValue = { value, origin, etag };
  if (io.json) {
    await printJson(io, answer);
    return EXIT.ok;
  }
  await printText(
    io,
    renderPairs(
      [
        ['value', io.colours.bold(valueText(answer.value, secret))],
        ['origin', originName(origin)],
        ['etag', io.colours.dim(etag)],
      ],
      io.colours,
    ),
  );
  return EXIT.ok;
}
