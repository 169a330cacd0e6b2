import { type Colours, visibleText } from './colour';

/** The display width of a cell: its characters without colour sequences. */
function width(text: string): number {
  return [...visibleText(text)].length;
}

/**
 * Aligned columns for a terminal: a header row (bold with colours), then the rows; columns
 * separated by two spaces, the last column not padded.
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  colours: Colours,
): string {
  const widths = header.map((title, column) =>
    Math.max(width(title), ...rows.map((row) => width(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell + ' '.repeat(widths[column]! - width(cell)),
      )
      .join('  ')
      .trimEnd();
  return [colours.bold(line(header)), ...rows.map(line)].join('\n');
}

/** `name  value` lines, the names aligned (for one record: `get`, `explain`). */
export function renderPairs(pairs: readonly (readonly [string, string])[], colours: Colours): string {
  const nameWidth = Math.max(...pairs.map(([name]) => width(name)));
  return pairs
    .map(([name, value]) => `${colours.dim(name + ' '.repeat(nameWidth - width(name)))}  ${value}`)
    .join('\n');
}
