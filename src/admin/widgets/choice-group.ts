import type { AdminField } from '../admin-field';
import { groupRow } from '../field-renderer';
import type { FieldChoice } from '../field-widget';
import { escapeHtml } from '../html-escape';
import type { ChoiceReading } from './choices';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/** A group's choices as `<li>` items, each an input of `inputType` with its own label. */
function choiceItems(
  field: AdminField,
  choices: readonly FieldChoice[],
  inputType: 'radio' | 'checkbox',
  selected: ReadonlySet<string>,
): string {
  return choices
    .map((choice, index) => {
      const id = escapeHtml(`${field.elementId}-${index}`);
      const checked = selected.has(choice.text) ? ' checked' : '';
      return `<li class="choice"><input type="${inputType}" id="${id}" name="${escapeHtml(field.name)}" value="${escapeHtml(
        choice.text,
      )}"${checked}><label for="${id}">${escapeHtml(choice.label)}</label></li>`;
    })
    .join('');
}

/**
 * The row of a widget shown as a `<fieldset>` of choices, one `inputType` input each (`radio`,
 * `checkbox-group`), reading its options as `choosing` says. The error summary links to the
 * first choice, as a fieldset takes no focus.
 */
export function choiceGroupWidget<W extends WidgetOfKind<'radio' | 'checkbox-group'>>(
  inputType: 'radio' | 'checkbox',
  choosing: ChoiceReading<W>,
): WidgetRow<W> {
  return {
    ...choosing,
    render: (field, state) =>
      groupRow(field, state, choiceItems(field, field.widget.choices, inputType, new Set(state.texts))),
    note: () => undefined,
    anchorId: (field) => `${field.elementId}-0`,
    fillsWhenEmpty: () => false,
  };
}
