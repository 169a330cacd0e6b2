import type { AdminField, FieldState } from './admin-field';
import type { FieldChoice } from './field-widget';
import { escapeHtml } from './html-escape';

/** The ids of a field's help, note and error paragraphs, for `aria-describedby`. */
function describedByIds(field: AdminField, state: FieldState): string[] {
  const ids: string[] = [];
  if (field.description !== '') ids.push(`${field.elementId}-help`);
  if (state.note) ids.push(`${field.elementId}-note`);
  if (state.error) ids.push(`${field.elementId}-error`);
  return ids;
}

function describedBy(field: AdminField, state: FieldState): string {
  const ids = describedByIds(field, state);
  return ids.length > 0 ? ` aria-describedby="${escapeHtml(ids.join(' '))}"` : '';
}

function invalidMark(state: FieldState): string {
  return state.error ? ' aria-invalid="true"' : '';
}

function helpAndError(field: AdminField, state: FieldState): string {
  let html = '';
  if (field.description !== '') {
    html += `<p class="field-help" id="${escapeHtml(field.elementId)}-help">${escapeHtml(field.description)}</p>`;
  }
  if (state.note) {
    html += `<p class="field-help" id="${escapeHtml(field.elementId)}-note">${escapeHtml(state.note)}</p>`;
  }
  if (state.error) {
    html += `<p class="field-error" id="${escapeHtml(field.elementId)}-error"><span class="visually-hidden">Error: </span>${escapeHtml(state.error)}</p>`;
  }
  return html;
}

function rowClass(state: FieldState): string {
  return state.error ? 'field field-invalid' : 'field';
}

/** A row whose control has one `<label for>`. */
function labelledRow(field: AdminField, state: FieldState, controlHtml: string): string {
  const id = escapeHtml(field.elementId);
  return `<div class="${rowClass(state)}" id="${id}-row"><label class="field-label" for="${id}">${escapeHtml(
    field.label,
  )}</label><div class="field-input">${controlHtml}${helpAndError(field, state)}</div></div>`;
}

/** A `<fieldset>` row for a group of radios or checkboxes, its legend in the label column. */
function groupRow(field: AdminField, state: FieldState, choicesHtml: string): string {
  const id = escapeHtml(field.elementId);
  // The group's help and error describe the fieldset (aria-invalid has no meaning on a group).
  return `<fieldset class="${rowClass(state)}" id="${id}-row"${describedBy(field, state)}><legend class="field-label" id="${id}">${escapeHtml(field.label)}</legend><div class="field-input"><ul class="choice-list">${choicesHtml}</ul>${helpAndError(
    field,
    state,
  )}</div></fieldset>`;
}

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

function optionElements(choices: readonly FieldChoice[], selected: ReadonlySet<string>): string {
  return choices
    .map(
      (choice) =>
        `<option value="${escapeHtml(choice.text)}"${selected.has(choice.text) ? ' selected' : ''}>${escapeHtml(
          choice.label,
        )}</option>`,
    )
    .join('');
}

/** Extra attributes of an `<input>` by type: steps and bounds for numbers and ranges. */
function inputAttributes(field: AdminField, value: string): string {
  if (field.widget.kind !== 'input') return '';
  const step = field.setting.getType() === 'integer' ? '1' : 'any';
  switch (field.widget.inputType) {
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
 * One field of the settings form as HTML: label (or legend), control, help text, note and
 * error, wired with `for`/`id` and `aria-describedby`. Every text is escaped.
 */
export function renderField(field: AdminField, state: FieldState): string {
  const { widget } = field;
  const id = escapeHtml(field.elementId);
  const name = escapeHtml(field.name);
  const aria = `${describedBy(field, state)}${invalidMark(state)}`;
  const selected = new Set(state.texts);
  const first = state.texts[0] ?? '';
  switch (widget.kind) {
    case 'input': {
      const value =
        widget.inputType === 'password' || widget.inputType === 'file' ? '' : ` value="${escapeHtml(first)}"`;
      return labelledRow(
        field,
        state,
        `<input type="${widget.inputType}" id="${id}" name="${name}"${value}${inputAttributes(field, first)}${aria}>`,
      );
    }
    case 'textarea':
    case 'lines': {
      const shown = widget.kind === 'lines' && widget.secret ? '' : first;
      const rows = Math.min(16, Math.max(4, shown.split('\n').length + 1));
      return labelledRow(
        field,
        state,
        `<textarea id="${id}" name="${name}" rows="${rows}"${widget.code ? ' class="code" spellcheck="false"' : ''}${aria}>${escapeHtml(
          shown,
        )}</textarea>`,
      );
    }
    case 'checkbox':
      return labelledRow(
        field,
        state,
        `<div class="single-checkbox"><input type="checkbox" id="${id}" name="${name}" value="yes"${
          first !== '' ? ' checked' : ''
        }${aria}></div>`,
      );
    case 'select': {
      const placeholder =
        field.setting.getDefault() === null || selected.size === 0
          ? `<option value=""${selected.size === 0 || first === '' ? ' selected' : ''}>— Select —</option>`
          : '';
      return labelledRow(
        field,
        state,
        `<select id="${id}" name="${name}"${aria}>${placeholder}${optionElements(widget.choices, selected)}</select>`,
      );
    }
    case 'multi-select':
      return labelledRow(
        field,
        state,
        `<select id="${id}" name="${name}" multiple size="${Math.min(8, Math.max(3, widget.choices.length))}"${aria}>${optionElements(
          widget.choices,
          selected,
        )}</select>`,
      );
    case 'radio':
      return groupRow(field, state, choiceItems(field, widget.choices, 'radio', selected));
    case 'checkbox-group':
      return groupRow(field, state, choiceItems(field, widget.choices, 'checkbox', selected));
  }
}
