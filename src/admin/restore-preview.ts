import type { SettingsPlan } from '../settings/config/settings-plan';
import { RESTORE_ENTRY_FIELD, type RestoreButtons } from './history-table';
import { valueChangeHtml } from './history-values';
import { escapeHtml } from './html-escape';

/** The name of the posted field carrying the id of the plan the user previewed. */
export const RESTORE_PLAN_FIELD = 'plan';

/** What the preview of a restore plan shows. */
export interface RestorePreview {
  /** The plan (`planRestore`): its changes (secrets masked) and errors. */
  readonly plan: SettingsPlan;
  /** The history entry the plan restores to (posted again with "Apply"). */
  readonly entry: string;
  /** A setting's label by id (its form field's); the id itself for an id without one. */
  readonly labelOf: (id: string) => string;
  /** The "Apply" button's form; absent when nothing can be applied now (read-only). */
  readonly apply?: RestoreButtons;
  /** Where "Cancel" goes: the history view. */
  readonly cancelHref: string;
  /** Problems that refused the apply (a rule, a refused plan), shown with the plan's errors. */
  readonly problems?: readonly string[];
}

function levelName(scope: string | null): string {
  return scope === null ? 'Global' : `Scope ${scope}`;
}

/**
 * The preview of a restore: the changes it makes (old → new, secrets masked as the plan has
 * them), its errors, and — when it has changes, no errors and may be applied — an "Apply"
 * button posting the plan's id (never the plan: the server plans again and compares the ids).
 */
export function renderRestorePreview(preview: RestorePreview): string {
  const { plan } = preview;
  const problems = [
    ...(preview.problems ?? []),
    ...plan.errors.map(
      (error) => `${error.id === '' ? levelName(error.scope) : preview.labelOf(error.id)}: ${error.message}`,
    ),
  ];
  let html = '';
  if (problems.length > 0) {
    const items = problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('');
    html += `<div class="notice notice-error error-summary" role="alert"><h2>This restore cannot be applied:</h2><ul>${items}</ul></div>\n`;
  }
  if (plan.changes.length === 0) {
    if (problems.length === 0) {
      html +=
        '<div class="notice" role="status"><p>Nothing to restore: the setting already holds the value it had then.</p></div>\n';
    }
  } else {
    const rows = plan.changes
      .map(
        (change) =>
          `<tr><td>${escapeHtml(preview.labelOf(change.id))}</td><td>${escapeHtml(levelName(change.scope))}</td><td>${valueChangeHtml(change.old, change.new)}</td></tr>`,
      )
      .join('\n');
    html += `<div class="card table-card"><table class="history-table">
<caption>What restoring changes</caption>
<thead><tr><th scope="col">Setting</th><th scope="col">Level</th><th scope="col">Now → after restoring</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
`;
  }
  const cancel = `<a href="${escapeHtml(preview.cancelHref)}">Back to the history</a>`;
  const apply = preview.apply;
  if (apply === undefined || problems.length > 0 || plan.changes.length === 0) {
    return `${html}<p class="form-actions">${cancel}</p>\n`;
  }
  return `${html}<form class="restore-apply" method="post" action="${escapeHtml(apply.action)}" enctype="application/x-www-form-urlencoded" accept-charset="utf-8">
<input type="hidden" name="${escapeHtml(apply.csrfField)}" value="${escapeHtml(apply.csrfToken)}">
<input type="hidden" name="${RESTORE_ENTRY_FIELD}" value="${escapeHtml(preview.entry)}">
<input type="hidden" name="${RESTORE_PLAN_FIELD}" value="${escapeHtml(plan.id)}">
<div class="form-actions"><button type="submit" class="button-primary">Apply</button>${cancel}</div>
</form>
`;
}
