#!/usr/bin/env node
/**
 * The `cpf` command line (CONTRACT §14): a thin front end over the settings API. This file loads
 * commander and the command declarations only; a command imports the library, its config and
 * the drivers when it runs, so `cpf --help` needs no config and starts as quickly as Node.
 */
import { CommanderError } from '@commander-js/extra-typings';
import { isClosedPipe, printErrorLine, processIo } from './cli-io';
import { EXIT, USAGE_CODE } from './exit-codes';
import { createProgram } from './program';

/** Whether `--json` is among the options (before a `--`). */
function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

async function main(argv: readonly string[]): Promise<void> {
  try {
    await createProgram().parseAsync([...argv], { from: 'node' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Help and version asked for: 0. Help shown for a missing command, or a parse error: 2.
    if (error.exitCode === 0) {
      process.exitCode = EXIT.ok;
      return;
    }
    process.exitCode = EXIT.usage;
    if (error.code === 'commander.help') return;
    const message = error.message.replace(/^error: /, '');
    await printErrorLine(processIo(wantsJson(argv.slice(2))), USAGE_CODE, message);
  }
}

// A reader that stops early (`| head`) is no failure: the output ends quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: unknown) => {
    if (!isClosedPipe(error)) throw error;
  });
}

main(process.argv).catch((error: unknown) => {
  if (isClosedPipe(error)) return;
  // Never a stack trace: one line, exit 8.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`cpf: ${message.split('\n', 1)[0]}\n`);
  process.exitCode = EXIT.failed;
});
