import { controlAria, idAndName, labelledRow } from '../field-renderer';
import { formTextOfType, outcomeOf, validated } from '../form-value-codec';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/**
 * The `checkbox` widget: one box for a boolean. Checked submits `yes`; unchecked, browsers
 * send nothing, which reads as false.
 */
export const CHECKBOX_WIDGET: WidgetRow<WidgetOfKind<'checkbox'>> = {
  render(field, state) {
    const checked = (state.texts[0] ?? '') !== '' ? ' checked' : '';
    return labelledRow(
      field,
      state,
      `<div class="single-checkbox"><input type="checkbox"${idAndName(field)} value="yes"${checked}${controlAria(
        field,
        state,
      )}></div>`,
    );
  },
  formTexts: (_setting, _widget, value) => (value === true ? ['yes'] : []),
  read(setting, _widget, texts) {
    const first = texts[0];
    if (first === undefined) return { texts, outcome: validated(setting, false) };
    return { texts, outcome: outcomeOf(setting, formTextOfType('boolean').fromText(first)) };
  },
  note: () => undefined,
  absentMeansEmpty: true,
  anchorId: (field) => field.elementId,
  fillsWhenEmpty: () => false,
};
