/**
 * The value of `cpf set`: an argument, or standard input with `--stdin` (CONTRACT §14). A
 * secret's value is taken only from standard input: given as an argument it is refused (exit 2)
 * before anything is written, and never repeated; typed at a terminal, it is not shown.
 */
import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import { usageError } from './cli-error';
import type { InputStream } from './cli-io';
import { readUnseenLine } from './prompt';

/** `text` parsed as JSON when it parses, else the text itself. */
export function parseValueText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Everything on standard input, one trailing newline removed. */
export async function readStandardInput(stdin: InputStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text.replace(/\r?\n$/, '');
}

/** Where `cpf set` takes its value from. */
export interface ValueSource {
  /** The value argument, when given. */
  readonly argument: string | undefined;
  /** `--stdin`. */
  readonly stdin: boolean;
}

/**
 * The value to write to `id`: the argument or standard input, read as JSON when it parses. A
 * secret given as an argument, both sources or none are usage errors (exit 2).
 */
export async function valueToWrite(
  settings: Framework_Abstract_Settings,
  id: string,
  source: ValueSource,
  stdin: InputStream,
): Promise<unknown> {
  if (source.argument !== undefined && source.stdin) {
    throw usageError('Give the value as an argument or with --stdin, not both.');
  }
  if (source.argument !== undefined) {
    if (settings.getSetting(id)?.isSecret() === true) {
      throw usageError(
        `The setting "${id}" is a secret: give its value on standard input (--stdin), never as an argument.`,
      );
    }
    return parseValueText(source.argument);
  }
  if (!source.stdin)
    throw usageError('Missing the value: give it as an argument, or on standard input with --stdin.');
  // Typed at a terminal, a secret is never shown: one line, read without echo.
  if (stdin.isTTY === true && settings.getSetting(id)?.isSecret() === true) {
    return parseValueText(await readUnseenLine(`Value of ${id} (not shown): `));
  }
  return parseValueText(await readStandardInput(stdin));
}
