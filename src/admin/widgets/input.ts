import type { Framework_Setting } from '../../settings/setting';
import { controlAria, idAndName, labelledRow } from '../field-renderer';
import type { FieldInputType } from '../field-widget';
import { readValueText, valueText } from '../form-value-codec';
import { escapeHtml } from '../html-escape';
import { hasValue, secretNote } from './value-notes';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/** Password and file inputs never show the stored value; left empty, they keep it. */
function keepsStoredValue(inputType: FieldInputType): boolean {
  return inputType === 'password' || inputType === 'file';
}

/** Extra attributes of an `<input>` by type: steps and bounds for numbers and ranges. */
function inputAttributes(setting: Framework_Setting, inputType: FieldInputType, value: string): string {
  const step = setting.getType() === 'integer' ? '1' : 'any';
  switch (inputType) {
    case 'number':
      return ` step="${step}"`;
    case 'range': {
      const current = Number(value);
      const min = Number.isFinite(current) && value !== '' ? Math.min(0, current) : 0;
      const max = Number.isFinite(current) && value !== '' ? Math.max(100, current) : 100;
      return ` min="${min}" max="${max}" step="${step}"`;
    }
    case 'password':
      return ' autocomplete="new-password"';
    case 'email':
    case 'text':
      return ' autocomplete="off" spellcheck="false"';
    default:
      return '';
  }
}

/**
 * The `input` widget: a single-line `<input>` of one value. A password input is never echoed
 * and a file input shows no file; left empty, both keep the stored value.
 */
export const INPUT_WIDGET: WidgetRow<WidgetOfKind<'input'>> = {
  render(field, state) {
    const { inputType } = field.widget;
    const first = state.texts[0] ?? '';
    const value = keepsStoredValue(inputType) ? '' : ` value="${escapeHtml(first)}"`;
    const attributes = inputAttributes(field.setting, inputType, first);
    return labelledRow(
      field,
      state,
      `<input type="${inputType}"${idAndName(field)}${value}${attributes}${controlAria(field, state)}>`,
    );
  },
  formTexts(setting, widget, value) {
    return [keepsStoredValue(widget.inputType) ? '' : valueText(setting, value, false)];
  },
  read(setting, widget, texts) {
    const first = texts[0];
    if (first === undefined) return { texts, outcome: { action: 'keep' } };
    if (keepsStoredValue(widget.inputType) && first === '')
      return { texts: [first], outcome: { action: 'keep' } };
    return { texts: [first], outcome: readValueText(setting, first) };
  },
  note(widget, value) {
    if (widget.inputType === 'password') return secretNote(value);
    if (widget.inputType === 'file' && hasValue(value)) {
      return `Current file: ${String(value)}. Choose a file only to replace it.`;
    }
    if (widget.inputType === 'range') {
      return hasValue(value)
        ? `Current value: ${String(value)}.`
        : 'No value is saved yet; saving stores the slider’s position.';
    }
    return undefined;
  },
  absentMeansEmpty: false,
  anchorId: (field) => field.elementId,
  fillsWhenEmpty: (widget) => widget.inputType === 'color' || widget.inputType === 'range',
};
