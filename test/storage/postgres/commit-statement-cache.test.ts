/**
 * The store prepares one commit statement per shape, cached by the shape: every distinct shape
 * gets its own statement (a key shared by two shapes would run one's text with the other's
 * parameters), and asking again answers the cached one.
 */
import { describe, expect, it } from 'vitest';
import { type CommitShape, commitStatement } from '../../../src/storage/postgres/commit-statement';
import { optionTableSql } from '../../../src/storage/postgres/option-table-sql';
import { optionTableName } from '../../../src/storage/postgres/table-name';

const flags = [false, true] as const;

function everyShape(): CommitShape[] {
  const shapes: CommitShape[] = [];
  for (const single of flags)
    for (const checks of flags)
      for (const logs of ['none', 'one', 'many'] as const)
        for (const byteBound of flags)
          for (const sharedBounds of flags)
            for (const trims of flags)
              for (const versioned of flags)
                shapes.push({ single, checks, logs, byteBound, sharedBounds, trims, versioned });
  return shapes;
}

describe('the commit statements of a table', () => {
  const table = optionTableName('options');

  it('are one per shape, each the statement of that shape', () => {
    const sql = optionTableSql(table);
    const shapes = everyShape();
    const statements = shapes.map((shape) => sql.commitStatement(shape));
    shapes.forEach((shape, index) => {
      expect(statements[index]!.text, JSON.stringify(shape)).toBe(commitStatement(table, shape).text);
    });
    expect(new Set(statements).size).toBe(shapes.length);
  });

  it('are made once: asking again answers the same statement, for a shape without its optional flags too', () => {
    const sql = optionTableSql(table);
    const shape: CommitShape = { single: true, checks: true, logs: 'one', byteBound: true };
    const first = sql.commitStatement(shape);
    expect(sql.commitStatement({ ...shape })).toBe(first);
    expect(sql.commitStatement({ ...shape, sharedBounds: false, trims: false, versioned: false })).toBe(
      first,
    );
    expect(sql.commitStatement({ ...shape, versioned: true })).not.toBe(first);
    expect(sql.commitStatement({ ...shape, trims: true })).not.toBe(first);
  });
});
