/**
 * One command's run: the configuration loaded, the plugins looked up, and at the end — on
 * success and on failure — every settings container disposed, every distinct store closed once,
 * then the config's own `close()`. Errors become one line and an exit code (CONTRACT §14).
 */
import type { Framework_Plugin } from '../rest/plugin';
import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import type { WriteActor } from '../settings/history/history-entry';
import { isScopePath } from '../settings/scope/scope-path';
import type { OptionStore } from '../storage/option-store';
import { CliError, usageError } from './cli-error';
import { type CliIo, isClosedPipe, printErrorLine, processIo } from './cli-io';
import { loadConfig } from './config-loader';
import type { CliConfig } from './define-cli-config';
import { reportError } from './error-mapping';
import { EXIT, type ExitCode } from './exit-codes';

/** The options every command takes. */
export interface CommonOptions {
  /** `--config <file>`. */
  readonly config?: string;
  /** `--json`. */
  readonly json?: boolean;
}

/** What a command's body works with. */
export interface CommandContext {
  readonly io: CliIo;
  readonly config: CliConfig;
  /** The plugin `id` of the config; a usage error (exit 2) when there is none. */
  plugin(id: string): Framework_Plugin;
  /** The settings of plugin `id`; a usage error when the plugin is unknown or has no settings. */
  settings(id: string): Framework_Abstract_Settings;
  /** The plugins that have settings, in the config's order. */
  pluginsWithSettings(): Framework_Plugin[];
}

/** A command's body: resolves to its exit code. */
export type CommandBody = (context: CommandContext) => Promise<ExitCode>;

/** The writer recorded in history: `--actor <id>`, else `{ id: 'cli' }`. */
export function actorOf(actor: string | undefined): WriteActor {
  return { id: actor ?? 'cli' };
}

/**
 * The level `--scope` names: `''` (the global level) without it or for `--scope ''`, else the
 * path; an invalid path is refused as REST refuses it (`rest_invalid_param`, exit 3).
 */
export function scopeOf(scope: string | undefined): string {
  if (scope === undefined || scope === '') return '';
  if (!isScopePath(scope)) {
    throw new CliError(
      'rest_invalid_param',
      `Invalid --scope "${scope}": a path of 1 to 8 segments of A-Z a-z 0-9 _ . - joined by "/".`,
      EXIT.refused,
    );
  }
  return scope;
}

function makeContext(io: CliIo, config: CliConfig): CommandContext {
  const plugin = (id: string): Framework_Plugin => {
    const found = config.plugins.find((candidate) => candidate.getId() === id);
    if (found === undefined) {
      const known = config.plugins.map((candidate) => candidate.getId()).join(', ') || 'none';
      throw usageError(`Unknown plugin "${id}" (the config has: ${known}).`);
    }
    return found;
  };
  return {
    io,
    config,
    plugin,
    settings(id) {
      const settings = plugin(id).getSettingsHandler();
      if (settings === null) throw usageError(`The plugin "${id}" has no settings.`);
      return settings;
    },
    pluginsWithSettings: () => config.plugins.filter((candidate) => candidate.getSettingsHandler() !== null),
  };
}

/** Disposes the containers, closes each distinct store once, then calls the config's `close()`. */
async function closeAll(config: CliConfig): Promise<unknown> {
  let failure: unknown;
  for (const plugin of config.plugins) {
    try {
      plugin.getSettingsHandler()?.dispose();
    } catch (error) {
      failure ??= error;
    }
  }
  const stores = new Set<OptionStore>(config.stores ?? []);
  for (const store of stores) {
    try {
      await store.close?.();
    } catch (error) {
      failure ??= error;
    }
  }
  try {
    await config.close?.();
  } catch (error) {
    failure ??= error;
  }
  return failure;
}

/**
 * Runs a command: loads the config, runs `body`, prints an error as one line, closes everything,
 * and resolves to the exit code (the caller sets it; the process then exits by itself).
 */
export async function runCommand(options: CommonOptions, body: CommandBody): Promise<ExitCode> {
  const io = processIo(options.json === true);
  let config: CliConfig | undefined;
  let code: ExitCode;
  try {
    config = await loadConfig(process.cwd(), options.config);
    code = await body(makeContext(io, config));
  } catch (error) {
    if (isClosedPipe(error)) code = EXIT.ok;
    else {
      const reported = reportError(error);
      await printErrorLine(io, reported.code, reported.message);
      code = reported.exitCode;
    }
  }
  if (config !== undefined) {
    const failure = await closeAll(config);
    if (failure !== undefined && (code === EXIT.ok || code === EXIT.changes)) {
      const reported = reportError(failure);
      await printErrorLine(io, reported.code, `Closing failed: ${reported.message}`);
      code = reported.exitCode === EXIT.failed ? EXIT.storeFailed : reported.exitCode;
    }
  }
  return code;
}
