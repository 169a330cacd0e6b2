/**
 * The `cpf` commands and options (CONTRACT §14), declared with commander. Declaring them loads
 * nothing else: each action imports its command, the library and the config only when it runs,
 * so `cpf --help` stays as quick as Node itself.
 */
import { Command, Option } from '@commander-js/extra-typings';
import { version } from '../../package.json';
import type { CommandBody, CommonOptions } from './command-context';

/** A command as `run` reads it: its options and the program's (`--config`, `--json`). */
interface ParsedCommand {
  optsWithGlobals(): CommonOptions;
}

/** Runs a command's body with its config; sets the process's exit code. */
async function run(command: ParsedCommand, body: CommandBody): Promise<void> {
  const { runCommand } = await import('./command-context');
  process.exitCode = await runCommand(command.optsWithGlobals(), body);
  // Every store and the config's clients are closed by now, so the process ends by itself. Should
  // a config leave a handle open (a pool it did not end), it is ended a little later, saying why.
  setTimeout(() => {
    process.stderr.write(
      'cpf: the config left something open (a client its close() did not end); exiting.\n',
    );
    process.exit();
  }, LINGER_MS).unref();
}

/** How long the process may linger after a command before it is ended. */
const LINGER_MS = 3000;

const configOption = () =>
  new Option('--config <file>', 'the config file (default: ./cpf.config.ts, .mts, .js or .mjs)');
const jsonOption = () => new Option('--json', 'print JSON (also whenever standard output is not a terminal)');
const scopeOption = () => new Option('--scope <path>', 'the scope, e.g. eu/de (default: the global level)');
const actorOption = () => new Option('--actor <id>', 'who writes, as recorded in the history').default('cli');

const EXIT_CODES = `
Exit codes:
  0  success (and plan with no change)    1  plan found changes
  2  usage error                          3  a value or plan refused (400)
  4  precondition failed (412)            5  setting or history not found (404)
  6  schema outdated (409)                7  the store failed
  8  anything else failed`;

/** The `cpf` program: every command, each importing its implementation when it runs. */
export function createProgram() {
  const program = new Command('cpf')
    .description('Read, explain, change, export, import and migrate plugin settings.')
    .version(version, '-V, --version')
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    // Every command takes them, before or after its name.
    .addOption(configOption())
    .addOption(jsonOption())
    .addHelpText('after', EXIT_CODES);

  program
    .command('list')
    .description("the plugins, or one plugin's settings: id, type, value in effect, origin")
    .argument('[plugin]', 'a plugin id')
    .addOption(scopeOption())
    .action((plugin, options, command) =>
      run(command, async (context) => (await import('./commands/list')).list(context, plugin, options)),
    );

  program
    .command('get')
    .description('the value in effect, its origin and entity tag')
    .argument('<plugin>', 'a plugin id')
    .argument('<id>', 'a setting id')
    .addOption(scopeOption())
    .action((plugin, id, options, command) =>
      run(command, async (context) => (await import('./commands/get')).get(context, plugin, id, options)),
    );

  program
    .command('explain')
    .description('the value in effect and every level of its chain, with the one that wins')
    .argument('<plugin>', 'a plugin id')
    .argument('<id>', 'a setting id')
    .addOption(scopeOption())
    .action((plugin, id, options, command) =>
      run(command, async (context) =>
        (await import('./commands/explain')).explain(context, plugin, id, options),
      ),
    );

  program
    .command('set')
    .description('store a value (JSON when it parses, else text); a secret only with --stdin')
    .argument('<plugin>', 'a plugin id')
    .argument('<id>', 'a setting id')
    .argument('[value]', 'the value (never a secret: use --stdin)')
    .option('--stdin', 'read the value from standard input (one trailing newline removed)')
    .option('--if-match <etag>', 'store only if the entity tag still matches (as get prints it)')
    .addOption(scopeOption())
    .addOption(actorOption())
    .action((plugin, id, value, options, command) =>
      run(command, async (context) =>
        (await import('./commands/set')).set(context, plugin, id, value, options),
      ),
    );

  program
    .command('unset')
    .description('remove the value stored at the level: it inherits again')
    .argument('<plugin>', 'a plugin id')
    .argument('<id>', 'a setting id')
    .option('--if-match <etag>', 'remove only if the entity tag still matches')
    .addOption(scopeOption())
    .addOption(actorOption())
    .action((plugin, id, options, command) =>
      run(command, async (context) => (await import('./commands/unset')).unset(context, plugin, id, options)),
    );

  program
    .command('history')
    .description('the changes of a level, newest first')
    .argument('<plugin>', 'a plugin id')
    .argument('[id]', 'only this setting')
    .option('--limit <n>', 'at most n entries', '20')
    .option('--before <entry>', 'only entries older than this entry id')
    .addOption(scopeOption())
    .action((plugin, id, options, command) =>
      run(command, async (context) =>
        (await import('./commands/history')).history(context, plugin, id, options),
      ),
    );

  program
    .command('export')
    .description('settings documents: one plugin, or an array of every plugin')
    .argument('[plugin]', 'a plugin id')
    .option('-o, --output <file>', 'write to this file (with a progress line) instead of standard output')
    .action((plugin, options, command) =>
      run(command, async (context) =>
        (await import('./commands/export')).exportCommand(context, plugin, options),
      ),
    );

  program
    .command('plan')
    .description('what importing the file would change, as a diff (exit 1: changes, 3: errors)')
    .argument('<file>', 'a settings document, or an array of them')
    .option('--prune', 'also remove stored values the documents do not list')
    .action((file, options, command) =>
      run(command, async (context) => (await import('./commands/plan')).plan(context, file, options)),
    );

  program
    .command('apply')
    .description('plan the file, show the plan, ask, then apply it')
    .argument('<file>', 'a settings document, or an array of them')
    .option('--prune', 'also remove stored values the documents do not list')
    .option('--plan-id <id>', 'apply only if the plan is still the one reviewed (the id plan printed)')
    .option('-y, --yes', 'apply without asking (required when not on a terminal)')
    .addOption(actorOption())
    .action((file, options, command) =>
      run(command, async (context) => (await import('./commands/apply')).apply(context, file, options)),
    );

  program
    .command('restore')
    .description('bring values back to what they were at a time or history entry, as apply')
    .argument('<plugin>', 'a plugin id')
    .argument('[ids...]', 'only these settings')
    .requiredOption('--to <time|entry>', 'an ISO 8601 time, or a history entry id (the state right after it)')
    .option('--scope <path>', "only this level ('' for the global level; default: every level)")
    .option('--plan-id <id>', 'apply only if the plan is still the one reviewed')
    .option('-y, --yes', 'apply without asking (required when not on a terminal)')
    .addOption(actorOption())
    .action((plugin, ids, options, command) =>
      run(command, async (context) =>
        (await import('./commands/restore')).restore(context, plugin, ids, options),
      ),
    );

  program
    .command('migrate')
    .description('bring the stored settings to the code’s schema version, and report the steps')
    .argument('[plugin]', 'a plugin id (default: every plugin)')
    .option('--dry-run', 'report what would change; store nothing')
    .addOption(actorOption())
    .action((plugin, options, command) =>
      run(command, async (context) => (await import('./commands/migrate')).migrate(context, plugin, options)),
    );

  program
    .command('rotate-secrets')
    .description("rewrite the stored secrets under the cipher's first key, and count them")
    .argument('[plugin]', 'a plugin id (default: every plugin with a cipher)')
    .action((plugin, _options, command) =>
      run(command, async (context) =>
        (await import('./commands/rotate-secrets')).rotateSecrets(context, plugin),
      ),
    );

  program
    .command('status')
    .description('per plugin: schema versions, secrets encrypted, unreadable secrets')
    .action((_options, command) =>
      run(command, async (context) => (await import('./commands/status')).status(context)),
    );

  return program;
}
