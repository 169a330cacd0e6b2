import { controlAria, idAndName, labelledRow } from '../field-renderer';
import type { FieldChoice } from '../field-widget';
import { escapeHtml } from '../html-escape';
import { ONE_CHOICE } from './choices';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/** A `<select>`'s choices as `<option>` elements, the `selected` ones marked. */
export function optionElements(choices: readonly FieldChoice[], selected: ReadonlySet<string>): string {
  return choices
    .map(
      (choice) =>
        `<option value="${escapeHtml(choice.text)}"${selected.has(choice.text) ? ' selected' : ''}>${escapeHtml(
          choice.label,
        )}</option>`,
    )
    .join('');
}

/**
 * The `select` widget: a dropdown choosing one option, with a "— Select —" entry when the
 * setting has no default or no value.
 */
export const SELECT_WIDGET: WidgetRow<WidgetOfKind<'select'>> = {
  ...ONE_CHOICE,
  render(field, state) {
    const selected = new Set(state.texts);
    const first = state.texts[0] ?? '';
    const placeholder =
      field.setting.getDefault() === null || selected.size === 0
        ? `<option value=""${selected.size === 0 || first === '' ? ' selected' : ''}>— Select —</option>`
        : '';
    return labelledRow(
      field,
      state,
      `<select${idAndName(field)}${controlAria(field, state)}>${placeholder}${optionElements(
        field.widget.choices,
        selected,
      )}</select>`,
    );
  },
  note: () => undefined,
  anchorId: (field) => field.elementId,
  fillsWhenEmpty: () => false,
};
