import { controlAria, idAndName, labelledRow } from '../field-renderer';
import { MANY_CHOICES } from './choices';
import { optionElements } from './select';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/** The `multi-select` widget: a `<select multiple>` of a multi setting's options, 3 to 8 rows high. */
export const MULTI_SELECT_WIDGET: WidgetRow<WidgetOfKind<'multi-select'>> = {
  ...MANY_CHOICES,
  render(field, state) {
    const { choices } = field.widget;
    const size = Math.min(8, Math.max(3, choices.length));
    return labelledRow(
      field,
      state,
      `<select${idAndName(field)} multiple size="${size}"${controlAria(field, state)}>${optionElements(
        choices,
        new Set(state.texts),
      )}</select>`,
    );
  },
  note: () => 'Hold Ctrl (⌘ on a Mac) to choose several.',
  anchorId: (field) => field.elementId,
  fillsWhenEmpty: () => false,
};
