import { formTextOf, fromTexts } from '../form-value-codec';
import { textareaRow } from './textarea';
import { secretNote } from './value-notes';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/**
 * The `lines` widget: a `<textarea>` whose lines are the values of a multi setting without
 * options; empty lines are ignored. Secret lines are never echoed; left empty, they keep the
 * stored values.
 */
export const LINES_WIDGET: WidgetRow<WidgetOfKind<'lines'>> = {
  render: (field, state) =>
    textareaRow(field, state, field.widget.secret ? '' : (state.texts[0] ?? ''), field.widget.code),
  formTexts(setting, widget, value) {
    if (widget.secret || !Array.isArray(value)) return [''];
    return [value.map((item) => formTextOf(setting).toText(item, false)).join('\n')];
  },
  read(setting, widget, texts) {
    const first = texts[0];
    if (first === undefined || (widget.secret && first === '')) return { texts, outcome: { action: 'keep' } };
    const numbered = first
      .split('\n')
      .map((line, index) => ({ line, number: index + 1 }))
      .filter(({ line }) => line.trim() !== '');
    const outcome = fromTexts(
      setting,
      numbered.map(({ line }) => line),
      (line) => formTextOf(setting).fromText(line),
      (index) => `Line ${numbered[index]?.number ?? index + 1}`,
    );
    return { texts: [first], outcome };
  },
  note(widget, value) {
    if (widget.secret) return secretNote(value);
    return widget.code ? 'One JSON value per line.' : 'One value per line; empty lines are ignored.';
  },
  absentMeansEmpty: false,
  anchorId: (field) => field.elementId,
  fillsWhenEmpty: () => false,
};
