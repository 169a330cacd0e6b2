/**
 * ANSI colours for the readable output, only on a colour terminal: a stream that is a TTY and
 * whose `hasColors()` says so (Node reads `NO_COLOR`, `FORCE_COLOR`, `NODE_DISABLE_COLORS` and
 * `TERM` there). Everything else gets plain text.
 */

/** The styles the output uses; each is the identity without colours. */
export interface Colours {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const style =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const plain = (text: string): string => text;

/** No colours. */
export const NO_COLOURS: Colours = {
  enabled: false,
  bold: plain,
  dim: plain,
  red: plain,
  green: plain,
  yellow: plain,
  cyan: plain,
};

const COLOURS: Colours = {
  enabled: true,
  bold: style(1, 22),
  dim: style(2, 22),
  red: style(31, 39),
  green: style(32, 39),
  yellow: style(33, 39),
  cyan: style(36, 39),
};

/** The stream's side of a colour decision. */
export interface ColourStream {
  readonly isTTY?: boolean;
  hasColors?(): boolean;
}

/** Colours for `stream` when it is a colour terminal and `NO_COLOR` is not set, else none. */
export function coloursFor(stream: ColourStream, env: Readonly<Record<string, string | undefined>>): Colours {
  if (stream.isTTY !== true) return NO_COLOURS;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return NO_COLOURS;
  return stream.hasColors?.() === true ? COLOURS : NO_COLOURS;
}

/** The text without its ANSI colour sequences (for widths). */
export function visibleText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI sequences start with ESC
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
