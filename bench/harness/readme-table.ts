import { formatRatio, formatVerdict } from './format';
import type { ScenarioResult } from './scenario';

/** The markers around the performance table in README.md. */
export const README_TABLE_START = '<!-- performance-table -->';
export const README_TABLE_END = '<!-- /performance-table -->';

const cell = (text: string) => text.replaceAll('|', '\\|');

/**
 * Rows the README shows: every target row, and every diagnostic row that is not one size of a
 * growth table (`-<number>` ids), so that each scenario appears with its headline ratio.
 */
function shown(row: ScenarioResult): boolean {
  if (row.table === 'targets') return true;
  return row.table === 'diagnostics' && !/-\d+$/.test(row.id);
}

/** The README's performance table: scenario, baseline in the same run, ratio, target and verdict. */
export function renderReadmeTable(rows: readonly ScenarioResult[]): string {
  const lines = [
    '| scenario | baseline in the same run | ratio | target | verdict |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const row of rows.filter(shown)) {
    if (row.skipped !== undefined) {
      lines.push(
        `| ${cell(row.title)} | ${row.failed ? 'failed' : 'skipped'}: ${cell(row.skipped.slice(0, 160))} | | ${cell(row.target?.text ?? '')} | ${formatVerdict(row)} |`,
      );
      continue;
    }
    lines.push(
      `| ${cell(row.title)} | ${cell(row.baseline.label)} | ${formatRatio(row)} | ${cell(row.target?.text ?? 'diagnostic')} | ${formatVerdict(row)} |`,
    );
  }
  return lines.join('\n');
}

/** `readme` with the text between the performance-table markers replaced by `table`; unchanged without the markers. */
export function replaceReadmeTable(readme: string, table: string): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start === -1 || end < start) return readme;
  return `${readme.slice(0, start + README_TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}
