/**
 * `npx tsx scripts/error-table.ts`: rewrites the error table of docs/errors.md (between
 * `<!-- error-table -->` and `<!-- /error-table -->`) from the REST error catalogue. The test
 * test/rest/errors/error-table.test.ts fails when the file and the catalogue differ.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { REST_ERROR_CATALOGUE, type RestErrorEntry } from '../src/rest/errors/error-catalogue';

/** The file that holds the table. */
export const ERRORS_DOC = fileURLToPath(new URL('../docs/errors.md', import.meta.url));
/** The markers around the generated table. */
export const TABLE_START = '<!-- error-table -->';
export const TABLE_END = '<!-- /error-table -->';

function statusText(entry: RestErrorEntry): string {
  const listed = entry.status.join(' or ');
  return entry.otherClientStatus ? `${listed} (or the exception's 4xx)` : listed;
}

/** The Markdown table of the catalogue, padded as Biome formats tables. */
export function renderErrorTable(): string {
  const rows = [
    ['code', 'status', 'when', '`data` besides `status`'],
    ...Object.entries(REST_ERROR_CATALOGUE).map(([code, entry]: [string, RestErrorEntry]) => [
      `\`${code}\``,
      statusText(entry),
      entry.when.replaceAll('|', '\\|'),
      entry.data === '' ? '—' : entry.data.replaceAll('|', '\\|'),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(3, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((width) => '-'.repeat(width))), ...rows.slice(1).map(line)].join(
    '\n',
  );
}

/** `text` with the table between the markers replaced by `table`. */
export function withTable(text: string, table: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`${ERRORS_DOC} lacks the ${TABLE_START} markers`);
  return `${text.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${text.slice(end)}`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await readFile(ERRORS_DOC, 'utf8');
  const updated = withTable(text, renderErrorTable());
  if (updated !== text) await writeFile(ERRORS_DOC, updated);
  console.log(updated === text ? 'docs/errors.md is up to date' : 'rewrote the table of docs/errors.md');
}
