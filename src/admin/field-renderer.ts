import type { AdminField, FieldState } from './admin-field';
import { escapeHtml } from './html-escape';

/**
 * What every field's row has around its control: the label (or a group's legend), the
 * "Use parent value" box, help text, note and error, wired with `for`/`id` and
 * `aria-describedby`. Each widget (`widgets/`) renders its control inside one of these rows.
 */

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

/** A control's `id` and `name` attributes (escaped), as ` id="…" name="…"`. */
export function idAndName(field: AdminField): string {
  return ` id="${escapeHtml(field.elementId)}" name="${escapeHtml(field.name)}"`;
}

/** A control's `aria-describedby` (its help, note and error) and, with an error, `aria-invalid`. */
export function controlAria(field: AdminField, state: FieldState): string {
  return `${describedBy(field, state)}${invalidMark(state)}`;
}

/** The name of the "Use parent value" boxes; each posts its setting's id. */
export const INHERIT_FIELD = '_inherit';

/** The name of the hidden fields beside ticked "Use parent value" boxes: `<setting id>:<digest of the texts shown>`. */
export const INHERIT_SHOWN_FIELD = '_inherit_shown';

function inheritControl(field: AdminField, state: FieldState): string {
  const inherit = state.inherit;
  if (inherit === undefined) return '';
  const id = escapeHtml(`${field.elementId}-inherit`);
  const from = inherit.checked ? ` <span class="field-origin">(${escapeHtml(inherit.from)})</span>` : '';
  const shown =
    inherit.checked && inherit.shown !== undefined
      ? `<input type="hidden" name="${INHERIT_SHOWN_FIELD}" value="${escapeHtml(`${field.setting.getId()}:${inherit.shown}`)}">`
      : '';
  return `<p class="field-inherit"><input type="checkbox" id="${id}" name="${INHERIT_FIELD}" value="${escapeHtml(
    field.setting.getId(),
  )}"${inherit.checked ? ' checked' : ''}><label for="${id}">Use parent value</label>${from}${shown}</p>`;
}

function helpAndError(field: AdminField, state: FieldState): string {
  let html = inheritControl(field, state);
  if (field.description !== '') {
    html += `<p class="field-help" id="${escapeHtml(field.elementId)}-help">${escapeHtml(field.description)}</p>`;
  }
  if (state.note) {
    html += `<p class="field-help" id="${escapeHtml(field.elementId)}-note">${escapeHtml(state.note)}</p>`;
  }
  if (state.error) {
    html += `<p class="field-error" id="${escapeHtml(field.elementId)}-error"><span class="visually-hidden">Error: </span>${escapeHtml(state.error)}</p>`;
  }
  if (state.history !== undefined) {
    html += `<p class="field-history"><a href="${escapeHtml(state.history)}">History<span class="visually-hidden"> of ${escapeHtml(field.label)}</span></a></p>`;
  }
  return html;
}

function rowClass(state: FieldState): string {
  return state.error ? 'field field-invalid' : 'field';
}

/** A row whose control has one `<label for>`. */
export function labelledRow(field: AdminField, state: FieldState, controlHtml: string): string {
  const id = escapeHtml(field.elementId);
  return `<div class="${rowClass(state)}" id="${id}-row"><label class="field-label" for="${id}">${escapeHtml(
    field.label,
  )}</label><div class="field-input">${controlHtml}${helpAndError(field, state)}</div></div>`;
}

/** A `<fieldset>` row for a group of radios or checkboxes, its legend in the label column. */
export function groupRow(field: AdminField, state: FieldState, choicesHtml: string): string {
  const id = escapeHtml(field.elementId);
  // The group's help and error describe the fieldset (aria-invalid has no meaning on a group).
  return `<fieldset class="${rowClass(state)}" id="${id}-row"${describedBy(field, state)}><legend class="field-label" id="${id}">${escapeHtml(field.label)}</legend><div class="field-input"><ul class="choice-list">${choicesHtml}</ul>${helpAndError(
    field,
    state,
  )}</div></fieldset>`;
}
