/** The questions `cpf` asks on a terminal: `apply`'s and `restore`'s confirmation, a secret typed unseen. */
import { createInterface } from 'node:readline/promises';
import { usageError } from './cli-error';
import type { CliIo } from './cli-io';

/** Whether a person can answer: standard input and standard error are terminals. */
export function canAsk(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

/** Asks `question` on standard error; true for `y` or `yes` (any case), false for anything else or end of input. */
export async function confirm(question: string): Promise<boolean> {
  const readline = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const answer = await new Promise<string>((resolve) => {
      readline.once('close', () => resolve(''));
      readline.question(`${question} [y/N] `).then(resolve, () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    readline.close();
  }
}

/** The terminal `cpf` reads from: standard input, when it is one. */
interface RawInput {
  setRawMode(raw: boolean): unknown;
  setEncoding(encoding: 'utf8'): unknown;
  resume(): unknown;
  pause(): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  off(event: 'data', listener: (chunk: string) => void): unknown;
}

/**
 * Asks `question` on standard error and reads one line typed at the terminal without showing it
 * (a secret for `cpf set --stdin`): Enter (or Ctrl+D) ends it, Backspace removes a character,
 * Ctrl+C cancels (a usage error: nothing is written).
 */
export function readUnseenLine(question: string): Promise<string> {
  const input = process.stdin as unknown as RawInput;
  // Echo off before the question shows: whatever is typed after it is never printed.
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (cancelled: boolean) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (cancelled) reject(usageError('Cancelled: nothing was written.'));
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n' || character === '\u0004') return finish(false);
        if (character === '\u0003') return finish(true);
        if (character === '\u007f' || character === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += character;
      }
    };
    input.on('data', onData);
  });
}
