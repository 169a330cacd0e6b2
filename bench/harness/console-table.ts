import { formatRatio, formatSide, formatVerdict, rateUnit } from './format';
import type { ReportSection, ScenarioResult } from './scenario';

/** Prints a header and lines of cells as fixed-width columns on stdout. */
function printColumns(header: readonly string[], lines: readonly (readonly string[])[]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => (line[column] ?? '').length)),
  );
  const render = (cells: readonly string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(render(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(render(line));
}

/** Prints the results as a fixed-width table on stdout. */
export function printTable(rows: readonly ScenarioResult[]): void {
  const header = ['scenario', 'subject', 'baseline', 'ratio', 'target', 'verdict'];
  const lines = rows.map((row) =>
    row.skipped !== undefined
      ? [
          row.id,
          `${row.failed ? 'failed' : 'skipped'}: ${row.skipped}`,
          '',
          '',
          row.target?.text ?? '',
          row.failed ? 'FAILED' : 'skipped',
        ]
      : [
          row.id,
          formatSide(row.subject, row.metric, rateUnit(row)),
          formatSide(row.baseline, row.metric, rateUnit(row)),
          formatRatio(row),
          row.target?.text ?? '',
          formatVerdict(row),
        ],
  );
  printColumns(header, lines);
}

const stripMarkdown = (text: string) => text.replaceAll('`', '').replaceAll('**', '');

/** Prints the scenarios' detail tables (without their prose, which goes to `RESULTS.md`). */
export function printSections(sections: readonly ReportSection[]): void {
  for (const section of sections) {
    console.log(`\n== ${stripMarkdown(section.title)}`);
    for (const table of section.tables) {
      if (table.caption !== '') console.log(`\n${stripMarkdown(table.caption)}`);
      printColumns(
        table.header.map(stripMarkdown),
        table.rows.map((row) => row.map(stripMarkdown)),
      );
    }
  }
}
