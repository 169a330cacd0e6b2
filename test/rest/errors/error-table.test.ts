import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC, renderErrorTable, TABLE_END, TABLE_START } from '../../../scripts/error-table';

/** The rows of a Markdown table, cells trimmed (Biome may pad them differently). */
function rows(table: string): string[][] {
  return table
    .trim()
    .split('\n')
    .filter((line) => !/^\|[\s|-]+\|$/.test(line))
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('docs/errors.md', () => {
  it('holds the table generated from the error catalogue', async () => {
    const text = await readFile(ERRORS_DOC, 'utf8');
    const start = text.indexOf(TABLE_START);
    const end = text.indexOf(TABLE_END);
    expect(start, 'docs/errors.md lacks the <!-- error-table --> markers').toBeGreaterThan(-1);
    expect(
      rows(text.slice(start + TABLE_START.length, end)),
      'docs/errors.md differs from the REST error catalogue: run `npm run docs:errors` (scripts/error-table.ts) to rewrite its table',
    ).toEqual(rows(renderErrorTable()));
  });
});
