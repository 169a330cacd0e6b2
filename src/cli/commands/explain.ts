/**
 * `cpf explain <plugin> <id>`: the value in effect and every level of its chain — the asked
 * scope, each parent, the global level, then the default — with the one that wins.
 */
import { scopeChain } from '../../settings/scope/scope-path';
import { maskValue } from '../../settings/secrets/mask';
import { printJson, printText } from '../cli-io';
import { type CommandContext, scopeOf } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { renderPairs, renderTable } from '../output/table';
import { levelName, originName, valueText } from '../output/value-text';
import { effectiveValue } from './effective-value';

/** `explain`'s options. */
export interface ExplainOptions {
  readonly scope?: string;
}

/** What `explain` gives (JSON). */
export interface Explanation {
  /** The value in effect (a secret's masked). */
  readonly value: unknown;
  /** The level it comes from, as REST's `origin`: a scope path, `''` global, `null` the default. */
  readonly origin: string | null;
  /** The setting's default (`null` without one). */
  readonly default: unknown;
  /** The entity tag of the value's stored state along the chain. */
  readonly etag: string;
  /** Every level from the asked scope up to the global level (`''`), with the value stored there (`null`: none). */
  readonly chain: { readonly scope: string; readonly value: unknown }[];
}

/** Runs `cpf explain <plugin> <id> [--scope <path>]`. */
export async function explain(
  context: CommandContext,
  pluginId: string,
  id: string,
  options: ExplainOptions,
): Promise<ExitCode> {
  const { io } = context;
  const scope = scopeOf(options.scope);
  const settings = context.settings(pluginId);
  const { value, origin, etag, secret } = await effectiveValue(settings, scope, id);
  const setting = settings.getSetting(id)!;
  const chain = await Promise.all(
    scopeChain(scope).map(async (path) => ({
      scope: path,
      value: maskValue(await settings.level(path).getOwnValue(id), secret),
    })),
  );
  const answer: Explanation = {
    value,
    origin,
    default: maskValue(setting.getDefault(), secret),
    etag,
    chain,
  };
  if (io.json) {
    await printJson(io, answer);
    return EXIT.ok;
  }
  const { colours } = io;
  const mark = (wins: boolean) => (wins ? colours.green('← wins') : '');
  const rows = [
    ...chain.map((link) => [
      levelName(link.scope),
      link.value === null ? colours.dim('(not set)') : valueText(link.value, secret),
      mark(origin === link.scope),
    ]),
    [
      'default',
      answer.default === null ? colours.dim('(none)') : valueText(answer.default, secret),
      mark(origin === null),
    ],
  ];
  const head = renderPairs(
    [
      ['setting', `${pluginId}/${id}${scope === '' ? '' : ` at ${scope}`}`],
      ['value', colours.bold(valueText(answer.value, secret))],
      ['origin', originName(origin)],
      ['etag', colours.dim(etag)],
    ],
    colours,
  );
  await printText(io, `${head}\n\n${renderTable(['level', 'value', ''], rows, colours)}`);
  return EXIT.ok;
}
