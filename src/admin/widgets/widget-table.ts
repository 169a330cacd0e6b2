import type { FieldWidget } from '../field-widget';
import { CHECKBOX_WIDGET } from './checkbox';
import { CHECKBOX_GROUP_WIDGET } from './checkbox-group';
import { INPUT_WIDGET } from './input';
import { LINES_WIDGET } from './lines';
import { MULTI_SELECT_WIDGET } from './multi-select';
import { RADIO_WIDGET } from './radio';
import { SELECT_WIDGET } from './select';
import { TEXTAREA_WIDGET } from './textarea';
import type { WidgetKind, WidgetOfKind, WidgetRow } from './widget-row';

/** The shape of the widget table: for every kind of {@link FieldWidget}, the row of that kind. */
export type WidgetTable = { readonly [K in WidgetKind]: WidgetRow<WidgetOfKind<K>> };

/**
 * A table of widgets, not a switch: one row per {@link FieldWidget} kind. `resolveWidget`
 * decides a setting's widget; rendering, form texts, reading a submission, notes and the error
 * summary all read the widget's row.
 *
 * `satisfies WidgetTable` makes a kind added to `FieldWidget` without a row here a compile
 * error, as are a row for a kind that does not exist and a row filed under another kind.
 */
export const WIDGET_TABLE = {
  input: INPUT_WIDGET,
  textarea: TEXTAREA_WIDGET,
  lines: LINES_WIDGET,
  checkbox: CHECKBOX_WIDGET,
  select: SELECT_WIDGET,
  radio: RADIO_WIDGET,
  'multi-select': MULTI_SELECT_WIDGET,
  'checkbox-group': CHECKBOX_GROUP_WIDGET,
} as const satisfies WidgetTable;

/**
 * The row of `widget`'s kind. The row is looked up by the widget's own kind, so it only ever
 * receives widgets of that kind (the row's methods are checked bivariantly, which lets the
 * row of one kind stand for the row of any widget here).
 */
export function widgetRow(widget: FieldWidget): WidgetRow<FieldWidget> {
  return WIDGET_TABLE[widget.kind];
}
