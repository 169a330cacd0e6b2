/**
 * The streams and modes of one `cpf` run. Loaded by the bin at start: no import of the library.
 */
import { type Colours, coloursFor } from './output/colour';

/** An output stream as `cpf` uses it. */
export interface OutputStream {
  readonly isTTY?: boolean;
  hasColors?(): boolean;
  write(text: string, callback?: (error?: Error | null) => void): boolean;
}

/** An input stream as `cpf` uses it. */
export interface InputStream extends AsyncIterable<string | Buffer> {
  readonly isTTY?: boolean;
}

/** Where one run reads and writes, and how. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly stdin: InputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** JSON mode: `--json`, or standard output not a terminal. */
  readonly json: boolean;
  /** Colours of standard output (none in JSON mode). */
  readonly colours: Colours;
  /** Colours of standard error. */
  readonly errorColours: Colours;
}

/** The process's streams; JSON mode with `--json` or when standard output is not a terminal. */
export function processIo(jsonFlag: boolean): CliIo {
  const json = jsonFlag || process.stdout.isTTY !== true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    json,
    colours: coloursFor(json ? {} : process.stdout, process.env),
    errorColours: coloursFor(process.stderr, process.env),
  };
}

/** Writes `text` and resolves once the stream took it (so a big output is flushed before exit). */
export function writeText(stream: OutputStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

/** Prints one JSON value on standard output (one line). */
export function printJson(io: CliIo, value: unknown): Promise<void> {
  return writeText(io.stdout, `${JSON.stringify(value)}\n`);
}

/** Whether `error` is a write to a pipe whose reader went away (`cpf export | head`): no failure. */
export function isClosedPipe(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EPIPE';
}

/** Prints readable text on standard output, with a final newline. */
export function printText(io: CliIo, text: string): Promise<void> {
  return writeText(io.stdout, text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

/** An error as one line on standard error: `{ "error": { code, message } }` in JSON mode, else `cpf: message (code)`. */
export function printErrorLine(io: CliIo, code: string, message: string): Promise<void> {
  const line = io.json
    ? JSON.stringify({ error: { code, message } })
    : `${io.errorColours.red('cpf:')} ${message} ${io.errorColours.dim(`(${code})`)}`;
  return writeText(io.stderr, `${line}\n`);
}
