import type { FieldWidget } from 'commerce-plugin-framework/admin';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { WIDGET_TABLE, type WidgetTable } from '../../src/admin/widgets/widget-table';

/** Every kind of `FieldWidget`, checked against the union below (a kind missing here fails to compile). */
const KINDS = [
  'input',
  'textarea',
  'lines',
  'checkbox',
  'select',
  'radio',
  'multi-select',
  'checkbox-group',
] as const satisfies readonly FieldWidget['kind'][];

describe('the widget table', () => {
  it('has exactly one row per FieldWidget kind', () => {
    expectTypeOf<(typeof KINDS)[number]>().toEqualTypeOf<FieldWidget['kind']>();
    expectTypeOf<keyof typeof WIDGET_TABLE>().toEqualTypeOf<FieldWidget['kind']>();
    expect(Object.keys(WIDGET_TABLE).sort()).toEqual([...KINDS].sort());
    for (const row of Object.values(WIDGET_TABLE)) {
      expect(Object.keys(row).sort()).toEqual(
        ['absentMeansEmpty', 'anchorId', 'fillsWhenEmpty', 'formTexts', 'note', 'read', 'render'].sort(),
      );
    }
  });

  it('does not compile when a kind has no row', () => {
    // `WIDGET_TABLE` is declared `satisfies WidgetTable` (a row for every `FieldWidget['kind']`),
    // so adding a kind to `FieldWidget` without adding its row is a compile error for free.
    // The same check, on a table that lacks the row of one kind (`npm run typecheck` fails if
    // the error below ever stops being one):
    const { lines: _lines, ...withoutLines } = WIDGET_TABLE;
    // @ts-expect-error -- the `lines` kind has no row
    withoutLines satisfies WidgetTable;
    // …and on a union with one kind more than the table has rows for:
    type WithNewKind = FieldWidget['kind'] | 'rating';
    // @ts-expect-error -- the `rating` kind has no row
    WIDGET_TABLE satisfies Record<WithNewKind, unknown>;
    expect(Object.keys(withoutLines)).not.toContain('lines');
  });
});
