import type { AdminField, FieldState } from '../admin-field';
import { controlAria, idAndName, labelledRow } from '../field-renderer';
import { readValueText, valueText } from '../form-value-codec';
import { escapeHtml } from '../html-escape';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/**
 * A field's `<textarea>` row showing `shown`, 4 to 16 rows high; `code`: monospace, no
 * spellcheck. Shared by the `textarea` and `lines` widgets.
 */
export function textareaRow(field: AdminField, state: FieldState, shown: string, code: boolean): string {
  const rows = Math.min(16, Math.max(4, shown.split('\n').length + 1));
  return labelledRow(
    field,
    state,
    `<textarea${idAndName(field)} rows="${rows}"${code ? ' class="code" spellcheck="false"' : ''}${controlAria(
      field,
      state,
    )}>${escapeHtml(shown)}</textarea>`,
  );
}

/** The `textarea` widget: a `<textarea>` holding one value (`code`: JSON of an `object` setting, indented). */
export const TEXTAREA_WIDGET: WidgetRow<WidgetOfKind<'textarea'>> = {
  render: (field, state) => textareaRow(field, state, state.texts[0] ?? '', field.widget.code),
  formTexts: (setting, _widget, value) => [valueText(setting, value, true)],
  read(setting, _widget, texts) {
    const first = texts[0];
    if (first === undefined) return { texts, outcome: { action: 'keep' } };
    return { texts: [first], outcome: readValueText(setting, first) };
  },
  note: () => undefined,
  absentMeansEmpty: false,
  anchorId: (field) => field.elementId,
  fillsWhenEmpty: () => false,
};
