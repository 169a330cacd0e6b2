import type { HistoryEntry } from '../settings/history/history-entry';
import { actorLabel, timeHtml, valueChangeHtml, viaLabel } from './history-values';
import { escapeHtml } from './html-escape';

/** The name of the posted field naming the history entry to restore to. */
export const RESTORE_ENTRY_FIELD = 'entry';

/** What a "Restore to here" button posts (CSRF-protected like the settings form). */
export interface RestoreButtons {
  /** Where the buttons post: the restore handler, with the view's `?setting=` and `?scope=`. */
  readonly action: string;
  /** The name of the hidden CSRF field. */
  readonly csrfField: string;
  /** The user's CSRF token. */
  readonly csrfToken: string;
}

/** What the history table shows. */
export interface HistoryTable {
  /** The setting's label (its form field's). */
  readonly label: string;
  /** One page of entries, newest first; secrets already masked. */
  readonly entries: readonly HistoryEntry[];
  /** The "Restore to here" buttons; absent when nothing can be restored now (read-only). */
  readonly restore?: RestoreButtons;
}

function restoreForm(entry: HistoryEntry, buttons: RestoreButtons): string {
  return `<form class="history-restore" method="post" action="${escapeHtml(buttons.action)}" enctype="application/x-www-form-urlencoded" accept-charset="utf-8"><input type="hidden" name="${escapeHtml(buttons.csrfField)}" value="${escapeHtml(buttons.csrfToken)}"><input type="hidden" name="${RESTORE_ENTRY_FIELD}" value="${escapeHtml(entry.id)}"><button type="submit" class="button-secondary">Restore to here<span class="visually-hidden">: the value after the change of ${escapeHtml(entry.at)}</span></button></form>`;
}

/**
 * One page of a setting's history as an accessible table, newest first: when, the change
 * (old → new; a removed value shows "Not set"), who, through what, and — unless read-only — a
 * "Restore to here" button per entry. Everything is escaped.
 */
export function renderHistoryTable(table: HistoryTable): string {
  if (table.entries.length === 0) {
    return '<div class="card"><p>No change of this setting is recorded at this level.</p></div>';
  }
  const restoreHead = table.restore
    ? '<th scope="col"><span class="visually-hidden">Restore</span></th>'
    : '';
  const rows = table.entries
    .map((entry) => {
      const what = entry.action === 'delete' ? 'Removed' : 'Changed';
      const restore = table.restore ? `<td>${restoreForm(entry, table.restore)}</td>` : '';
      return `<tr><td>${timeHtml(entry.at)}</td><td><span class="history-action">${what}:</span> ${valueChangeHtml(entry.old, entry.new)}</td><td>${escapeHtml(actorLabel(entry.actor))}</td><td>${escapeHtml(viaLabel(entry.via))}</td>${restore}</tr>`;
    })
    .join('\n');
  return `<div class="card table-card"><table class="history-table">
<caption class="visually-hidden">${escapeHtml(`Changes of ${table.label}, newest first`)}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Change</th><th scope="col">By</th><th scope="col">Through</th>${restoreHead}</tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
`;
}

/** Links to the newer and older pages of a history, and where the reader is. */
export function renderHistoryPager(page: number, pages: number, href: (page: number) => string): string {
  if (pages <= 1) return '';
  const newer = page > 1 ? `<a href="${escapeHtml(href(page - 1))}" rel="prev">Newer changes</a>` : '';
  const older = page < pages ? `<a href="${escapeHtml(href(page + 1))}" rel="next">Older changes</a>` : '';
  return `<nav class="pager" aria-label="History pages">${newer}<span>Page ${page} of ${pages}</span>${older}</nav>\n`;
}
