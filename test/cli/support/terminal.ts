/**
 * Runs the built `cpf` program on a pseudo-terminal (util-linux `script`), as a person at a
 * terminal runs it: standard input, output and error are the terminal, so the program prints
 * its readable output and asks before applying. `answer` is typed when the prompt appears.
 */
import { spawn } from 'node:child_process';
import { BIN, childEnv } from './cli-run';

/** What the terminal showed and how the program ended. */
export interface TerminalResult {
  readonly code: number | null;
  /** Everything the terminal showed (output, prompt, the typed answer), with `\r\n` made `\n`. */
  readonly screen: string;
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Runs `cpf ...args` on a pseudo-terminal in `cwd`. */
export function runInTerminal(
  args: readonly string[],
  options: {
    cwd: string;
    env?: Readonly<Record<string, string>>;
    answer?: string;
    /** The text after which `answer` is typed (default: the confirmation's `[y/N]`). */
    prompt?: string;
    timeoutMs?: number;
    /** The program (default: `node dist/cli/cpf.js`). */
    program?: readonly string[];
  },
): Promise<TerminalResult> {
  const command = [...(options.program ?? [process.execPath, BIN]), ...args].map(quote).join(' ');
  const env = childEnv({ TERM: 'xterm-256color', ...options.env });
  delete env.CI;
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: options.cwd, env, stdio: 'pipe' });
  let screen = '';
  let answered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    if (!answered && options.answer !== undefined && screen.includes(options.prompt ?? '[y/N]')) {
      answered = true;
      child.stdin.write(`${options.answer}\r`);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`cpf ${args.join(' ')} on a terminal did not exit within ${timeoutMs} ms:\n${screen}`),
      );
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen: screen.replaceAll('\r\n', '\n') });
    });
  });
}
