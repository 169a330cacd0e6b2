/**
 * Finds and loads the `cpf` configuration (CONTRACT §14): `--config <file>`, else the first of
 * `cpf.config.ts`, `.mts`, `.js`, `.mjs` in the working directory. JavaScript is imported as it
 * is; TypeScript through jiti (no build step), which is loaded only then.
 */
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Framework_Plugin } from '../rest/plugin';
import { usageError } from './cli-error';
import type { CliConfig } from './define-cli-config';
import { oneLine } from './error-mapping';

/** The file names looked for in the working directory, in this order. */
export const CONFIG_FILE_NAMES = [
  'cpf.config.ts',
  'cpf.config.mts',
  'cpf.config.js',
  'cpf.config.mjs',
] as const;

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** The configuration file to load: `explicit` (resolved against `cwd`), else the first found in `cwd`. */
export function findConfigFile(cwd: string, explicit: string | undefined): string {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    if (!existsSync(file)) throw usageError(`The config file ${explicit} does not exist.`);
    return file;
  }
  for (const name of CONFIG_FILE_NAMES) {
    const file = resolve(cwd, name);
    if (existsSync(file)) return file;
  }
  throw usageError(
    `No config found: put a cpf.config.ts, .mts, .js or .mjs in ${cwd}, or give --config <file>.`,
  );
}

/** Imports the file's module: TypeScript through jiti, JavaScript natively. */
async function importConfigModule(file: string): Promise<unknown> {
  if (TYPESCRIPT.has(extname(file))) {
    const { createJiti } = await import('jiti');
    const jiti = createJiti(pathToFileURL(file).href, { interopDefault: true });
    return jiti.import(file);
  }
  return import(pathToFileURL(file).href);
}

function isPlugin(value: unknown): value is Framework_Plugin {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Framework_Plugin).getId === 'function' &&
    typeof (value as Framework_Plugin).getSettingsHandler === 'function'
  );
}

/** The config's shape checked: `{ plugins: Framework_Plugin[], stores?, close? }`. */
function checkedConfig(exported: unknown, file: string): CliConfig {
  const config =
    typeof exported === 'object' && exported !== null && 'default' in exported
      ? (exported as { default: unknown }).default
      : exported;
  if (typeof config !== 'object' || config === null || !Array.isArray((config as CliConfig).plugins)) {
    throw usageError(`The config ${file} does not export defineCliConfig({ plugins }) by default.`);
  }
  const { plugins, stores, close } = config as CliConfig;
  const wrong = plugins.findIndex((plugin) => !isPlugin(plugin));
  if (wrong !== -1) throw usageError(`The config ${file}: plugins[${wrong}] is not a Framework_Plugin.`);
  if (stores !== undefined && !Array.isArray(stores)) {
    throw usageError(`The config ${file}: stores must be an array of option stores.`);
  }
  if (close !== undefined && typeof close !== 'function') {
    throw usageError(`The config ${file}: close must be a function.`);
  }
  const ids = new Set<string>();
  for (const plugin of plugins) {
    if (ids.has(plugin.getId())) throw usageError(`The config ${file} has two plugins "${plugin.getId()}".`);
    ids.add(plugin.getId());
  }
  return config as CliConfig;
}

/**
 * Loads the configuration: finds the file, imports it and checks its default export. Every
 * failure — no file, a module that throws while loading, a wrong export — is a usage error
 * (exit 2) whose message is one line.
 */
export async function loadConfig(cwd: string, explicit: string | undefined): Promise<CliConfig> {
  const file = findConfigFile(cwd, explicit);
  let exported: unknown;
  try {
    exported = await importConfigModule(file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw usageError(`The config ${file} failed to load: ${oneLine(message)}`);
  }
  return checkedConfig(exported, file);
}
