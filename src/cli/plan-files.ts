/**
 * The documents `plan` and `apply` read (CONTRACT §13, §14): a file holding one settings
 * document or an array of them, each planned against the plugin it names — every plan made and
 * checked before anything is applied. An array's plans are named together by a digest of their ids.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { SettingsPlan } from '../settings/config/settings-plan';
import { CliError, usageError } from './cli-error';
import type { CommandContext } from './command-context';
import { oneLine } from './error-mapping';
import { EXIT } from './exit-codes';

/** The documents of a file. */
export interface DocumentFile {
  /** The documents, in the file's order. */
  readonly documents: readonly unknown[];
  /** Whether the file holds an array (its plans are then named by {@link plansDigest}). */
  readonly array: boolean;
}

/** Reads `path`: one document or an array of them. A missing file or text that is not JSON is a usage error. */
export async function readDocumentFile(path: string): Promise<DocumentFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as { code?: unknown }).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    throw usageError(`The file ${path} ${reason}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`The file ${path} is not JSON: ${oneLine((error as Error).message)}`);
  }
  return Array.isArray(parsed) ? { documents: parsed, array: true } : { documents: [parsed], array: false };
}

/** The plugin a document names; a document naming none is refused (400), one naming a plugin not in the config is a usage error. */
function documentPlugin(context: CommandContext, document: unknown, index: number): string {
  const plugin =
    typeof document === 'object' && document !== null ? (document as { plugin?: unknown }).plugin : undefined;
  if (typeof plugin !== 'string') {
    throw new CliError(
      'rest_invalid_param',
      `Document ${index + 1} is not a settings document: it names no plugin.`,
      EXIT.refused,
    );
  }
  context.settings(plugin);
  return plugin;
}

/**
 * The plan of every document (`planImport`, `prune` as given, secrets' `$env` from the process
 * environment). Every document's plugin is checked before the first plan is made.
 */
export async function planDocuments(
  context: CommandContext,
  file: DocumentFile,
  prune: boolean,
): Promise<SettingsPlan[]> {
  const plugins = file.documents.map((document, index) => documentPlugin(context, document, index));
  const seen = new Set<string>();
  for (const plugin of plugins) {
    if (seen.has(plugin)) throw usageError(`The file holds two documents of the plugin "${plugin}".`);
    seen.add(plugin);
  }
  const plans: SettingsPlan[] = [];
  for (const [index, document] of file.documents.entries()) {
    const settings = context.settings(plugins[index]!);
    try {
      plans.push(await settings.planImport(document, { prune, env: { ...context.io.env } }));
    } catch (error) {
      // A document refused as a whole (format, version, plugin, a newer schema): REST's 400 rest_invalid_param.
      if (error instanceof Framework_Plugin_Exception && error.code === 400) {
        throw new CliError('rest_invalid_param', oneLine(error.message), EXIT.refused);
      }
      throw error;
    }
  }
  return plans;
}

/**
 * The id of an array file's plans together: the SHA-256 (hex) of the JSON array of the
 * per-plugin plan ids, in the file's order. `plan` prints it as `id <digest>`; `apply --plan-id`
 * takes it.
 */
export function plansDigest(plans: readonly SettingsPlan[]): string {
  return createHash('sha256')
    .update(JSON.stringify(plans.map((plan) => plan.id)))
    .digest('hex');
}

/** The id `--plan-id` is compared with: the plan's own, or the digest for an array file. */
export function reviewedId(plans: readonly SettingsPlan[], array: boolean): string {
  return array ? plansDigest(plans) : plans[0]!.id;
}
