import { formatRatio, formatSide, formatVerdict, rateUnit } from './format';
import type { ScenarioResult } from './scenario';

/** Prints the results as a fixed-width table on stdout. */
export function printTable(rows: readonly ScenarioResult[]): void {
  const header = ['scenario', 'subject', 'baseline', 'ratio', 'target', 'verdict'];
  const lines = rows.map((row) =>
    row.skipped !== undefined
      ? [row.id, `skipped: ${row.skipped}`, '', '', row.target?.text ?? '', 'skipped']
      : [
          row.id,
          formatSide(row.subject, row.metric, rateUnit(row)),
          formatSide(row.baseline, row.metric, rateUnit(row)),
          formatRatio(row),
          row.target?.text ?? '',
          formatVerdict(row),
        ],
  );
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const render = (cells: readonly string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(render(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(render(line));
}
